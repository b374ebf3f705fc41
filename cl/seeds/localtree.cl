/* localtree.cl: local-memory tree, one partial per work-group, repeated until one is left.
 * Seeds: 002_0d1a8b369643276f.txt ("Parallel Patterns, Part 3": per-block partials with an
 * associative operator, then one block over the partials padded to a power of two) and
 * 004_476642b3759db0ff.txt (Kandasamy: contiguous halving, "if (tid < stride)", which keeps
 * warps convergent; short groups padded with the identity).
 * Launch rules: local size = WG (a power of two), global size = ceil(n/WG) * WG; writes partial
 * state get_group_id(0). The host runs it on the input, then with -DFROM_PARTIALS on the
 * partials, until one state is left. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

kernel void lt_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0);
  sh[lid] = gid < n ? LOAD(gid) : st_identity();
  halving_tree(sh, lid);
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
