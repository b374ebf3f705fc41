/* dualload.cl: local-memory tree with the first combine done during the load.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", Reduction #6: SharedDualLoad): each
 * work-item loads input[id] and input[id + blockDim.x] of a 2*WG slice and adds them before the
 * sequential-addressing tree ("if (tid < s) data[tid] += data[tid + s]", s halving), so no
 * work-item idles in the first step. The seed ends each block with an atomicAdd; here each
 * work-group writes its partial state and the host repeats the launch on the partials (as
 * localtree does), so results are deterministic.
 * Launch rules: local size = WG (a power of two), global size = ceil(n / (2*WG)) * WG; work-group
 * g reads elements [2*WG*g, 2*WG*(g+1)) and writes partial state g. The host runs it on the
 * input, then with -DFROM_PARTIALS on the partials, until one state is left. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

kernel void dl_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG) + lid;
  DUAL_LOAD(v, i);
  sh[lid] = v;
  halving_tree(sh, lid);
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
