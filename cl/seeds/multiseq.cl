/* multiseq.cl: grid-stride sequential combine per work-item, then a local-memory tree.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", Reduction #10: SharedMultiSeq, after
 * Brent's theorem): a fixed grid (the seed: 96 blocks of 512 on 8 SMX) where each thread first
 * adds input[id], input[id + gridSize], ... sequentially, then the block tree. Here the tree is
 * sequential addressing with a barrier per step, and instead of the seed's atomicAdd each
 * work-group writes its partial state; the host runs the kernel again on the partials.
 * Depth: ceil(n / G) sequential combines + log2(WG) tree levels per launch.
 * Launch rules: local size = WG (a power of two), any global size G that is a multiple of WG
 * (the host picks compute units * a factor work-groups); work-item gid combines elements gid,
 * gid + G, gid + 2G, ... < n; work-group g writes partial state g. The host runs it on the input,
 * then with -DFROM_PARTIALS on the partials, until one state is left. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

kernel void ms_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong G = get_global_size(0);
  ulong k = get_global_id(0);
  state_t v = st_identity();
  if (k < n) {
    v = LOAD(k);
    for (k += G; k < n; k += G)
      v = st_combine(v, LOAD(k));
  }
  sh[lid] = v;
  halving_tree(sh, lid);
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
