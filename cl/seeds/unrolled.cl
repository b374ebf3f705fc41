/* unrolled.cl: dual-load local-memory tree written out for a compile-time work-group size.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", Reduction #8: SharedUnrolledAll):
 * template<int BlockSize> with "if (BlockSize >= 512) { if (tid < 256) ...; __syncthreads(); }"
 * blocks, so no loop counter, compare or branch is left at run time. Here WG (a -D definition)
 * plays BlockSize. Unlike the seed, every step keeps its barrier, also the last warp's: the
 * seed's warp-synchronous volatile steps are not portable (see unrolled_warp.cl).
 * Partials as in dualload.cl: one state per work-group, the host repeats the launch.
 * Launch rules: local size = WG (a power of two, at most 8192), global size =
 * ceil(n / (2*WG)) * WG; work-group g reads elements [2*WG*g, 2*WG*(g+1)) and writes partial
 * state g. The host runs it on the input, then with -DFROM_PARTIALS on the partials. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

#if WG > 8192
#error "unrolled.cl is written out for work-groups of at most 8192 work-items"
#endif

/* One step of the tree: the first S work-items fold the upper half of 2*S states. */
#define UR_STEP(S)                                             \
  if (lid < (S)) sh[lid] = st_combine(sh[lid], sh[lid + (S)]); \
  barrier(CLK_LOCAL_MEM_FENCE);

kernel void ur_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG) + lid;
  DUAL_LOAD(v, i);
  sh[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
#if WG >= 8192
  UR_STEP(4096)
#endif
#if WG >= 4096
  UR_STEP(2048)
#endif
#if WG >= 2048
  UR_STEP(1024)
#endif
#if WG >= 1024
  UR_STEP(512)
#endif
#if WG >= 512
  UR_STEP(256)
#endif
#if WG >= 256
  UR_STEP(128)
#endif
#if WG >= 128
  UR_STEP(64)
#endif
#if WG >= 64
  UR_STEP(32)
#endif
#if WG >= 32
  UR_STEP(16)
#endif
#if WG >= 16
  UR_STEP(8)
#endif
#if WG >= 8
  UR_STEP(4)
#endif
#if WG >= 4
  UR_STEP(2)
#endif
#if WG >= 2
  UR_STEP(1)
#endif
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
