/* strided.cl: local-memory tree with strided indexing, one partial per work-group, repeated over
 * the partials until one is left.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", step 4 "SharedAntiDivergence":
 * "int lid = 2*s*threadIdx.x; if (lid < blockDim.x) data[lid] += data[lid + s]", s doubling:
 * the active work-items are contiguous, so fewer warps diverge; the slides' next problem is bank
 * conflicts, which step 5, sequential addressing, solves: that is the localtree strategy).
 * Finish: the seed ends each block with atomicAdd(result, x); here every group stores its partial
 * state and the host launches the same kernel again with -DFROM_PARTIALS until one state is left.
 * That works for every type and operator (no float or 64-bit atomics needed) and is deterministic.
 * Launch rules: local size = WG (a power of two), global size = ceil(n/WG) * WG; work-items past
 * n load the identity; writes partial state get_group_id(0). */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void sd_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0);
  sh[lid] = gid < n ? LOAD(gid) : st_identity();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG; s <<= 1) {
    const uint idx = 2 * s * lid;  // at most 2 * (WG/2) * (WG-1): below 2^32 for WG <= 2^16
    if (idx < WG) sh[idx] = st_combine(sh[idx], sh[idx + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
