/* interleaved.cl: local-memory tree with interleaved (divergent) addressing, one partial per
 * work-group, repeated over the partials until one is left.
 * Seeds: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", step 3 "Shared": reduceShared,
 * "if (threadIdx.x % (2*s) == 0) data[threadIdx.x] += data[threadIdx.x + s]", s doubling; the
 * slides' "Problem: Divergence") and 004_476642b3759db0ff.txt (Kandasamy, "Parallel Reduction":
 * Figure 1, "threadID % (2 * stride) == 0", stride doubling, the tree with branch divergence).
 * Finish: the seed ends each block with atomicAdd(result, x); here every group stores its partial
 * state and the host launches the same kernel again with -DFROM_PARTIALS until one state is left.
 * That works for every type and operator (no float or 64-bit atomics needed) and is deterministic.
 * Launch rules: local size = WG (a power of two), global size = ceil(n/WG) * WG; work-items past
 * n load the identity; writes partial state get_group_id(0). */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void il_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0);
  sh[lid] = gid < n ? LOAD(gid) : st_identity();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG; s <<= 1) {
    if (lid % (2 * s) == 0) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
