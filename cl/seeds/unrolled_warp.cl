/* unrolled_warp.cl: dual-load local-memory tree whose last steps are unrolled for one sub-group.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", Reduction #7: SharedUnrolledLast):
 * the loop stops at s > 32 and one warp does the last six steps on "volatile" shared memory
 * with no __syncthreads(). That relies on warp-synchronous execution, which OpenCL does not
 * promise (wrong on newer NVIDIA GPUs and elsewhere), so it is written here in two portable
 * forms, chosen by the host:
 *   -DRDX_SUBGROUPS=1 (device has cl_khr_subgroups): the work-group tree runs while more than
 *     2 * get_max_sub_group_size() states are left (the sub-group size is known only at run
 *     time); the remaining steps, written out for every step size the work-group can have and
 *     guarded by the run-time "s >= S", are done by sub-group 0 alone and ordered by
 *     sub_group_barrier() instead of work-group barriers. Every work-item reaches every
 *     sub_group_barrier, unconditionally (PoCL's sub_group_barrier is a work-group barrier, and
 *     PoCL has had bugs with barriers under conditions; PoCL 3.1 also miscompiled an earlier
 *     form whose steps looped over a lane stride). Sub-group 0 is assumed to hold
 *     min(max sub-group size, WG) work-items (only a work-group's last sub-group may be short:
 *     PoCL, libclc, GPUs), so each step S <= s needs lanes 0 .. S-1 only.
 *   otherwise: the loop stops at s > 32 like the seed's, and the last steps (32 .. 1) are
 *     written out, each keeping its work-group barrier.
 * Partials as in dualload.cl: one state per work-group, the host repeats the launch.
 * Launch rules: local size = WG (a power of two, at most 8192), global size =
 * ceil(n / (2*WG)) * WG; work-group g reads elements [2*WG*g, 2*WG*(g+1)) and writes partial
 * state g. The host runs it on the input, then with -DFROM_PARTIALS on the partials. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

#if WG > 8192
#error "unrolled_warp.cl is written out for work-groups of at most 8192 work-items"
#endif

#ifdef RDX_SUBGROUPS
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
/* A last step, done by sub-group 0: it folds sh[S .. 2S) onto sh[0 .. S) when S <= s (the
 * largest step left). The sub-group barrier is reached by every work-item for every S. */
#define UW_LAST(S)                                                                        \
  if (s >= (S) && sg == 0 && lane < (S)) sh[lane] = st_combine(sh[lane], sh[lane + (S)]); \
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
#else
#define UW_LAST(S)                                             \
  if (lid < (S)) sh[lid] = st_combine(sh[lid], sh[lid + (S)]); \
  barrier(CLK_LOCAL_MEM_FENCE);
#endif

kernel void uw_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG) + lid;
  DUAL_LOAD(v, i);
  sh[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);

#ifdef RDX_SUBGROUPS
  const uint last = get_max_sub_group_size();
  const uint sg = get_sub_group_id();
  const uint lane = get_sub_group_local_id();
  uint s = WG / 2;
  for (; s > last; s >>= 1) {
    if (lid < s) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  /* s <= last: steps s, s/2, .. 1 remain, all for sub-group 0 */
#if WG >= 8192
  UW_LAST(4096)
#endif
#if WG >= 4096
  UW_LAST(2048)
#endif
#if WG >= 2048
  UW_LAST(1024)
#endif
#if WG >= 1024
  UW_LAST(512)
#endif
#if WG >= 512
  UW_LAST(256)
#endif
#if WG >= 256
  UW_LAST(128)
#endif
#if WG >= 128
  UW_LAST(64)
#endif
#if WG >= 64
  UW_LAST(32)
#endif
#if WG >= 32
  UW_LAST(16)
#endif
#if WG >= 16
  UW_LAST(8)
#endif
#if WG >= 8
  UW_LAST(4)
#endif
#if WG >= 4
  UW_LAST(2)
#endif
#if WG >= 2
  UW_LAST(1)
#endif
  /* sh[0] was last written by this work-item (lane 0 of sub-group 0), or at the load */
  if (sg == 0 && lane == 0) STORE(get_group_id(0), sh[0]);
#else
  for (uint s = WG / 2; s > 32; s >>= 1) {
    if (lid < s) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#if WG >= 64
  UW_LAST(32)
#endif
#if WG >= 32
  UW_LAST(16)
#endif
#if WG >= 16
  UW_LAST(8)
#endif
#if WG >= 8
  UW_LAST(4)
#endif
#if WG >= 4
  UW_LAST(2)
#endif
#if WG >= 2
  UW_LAST(1)
#endif
  if (lid == 0) STORE(get_group_id(0), sh[0]);
#endif
}
