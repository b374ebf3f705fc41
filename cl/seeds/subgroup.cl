/* subgroup.cl: dual-load tree that finishes in registers with sub-group operations.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", Reduction #9: SharedShuffle): the
 * last warp's shared-memory steps become "d += __shfl(d, threadIdx.x + 16)" ... register
 * exchanges. OpenCL's counterparts need extensions, so the host picks one of three forms
 * (SG_PATH, below):
 *   1 (cl_khr_subgroups + cl_khr_subgroup_shuffle): the shuffle tree of the seed,
 *     "v = combine(v, sub_group_shuffle(v, lane + off))" with off halving, for every type and
 *     operator (argmin/argmax shuffle value and index apart; 8- and 16-bit values travel as int).
 *   2 (cl_khr_subgroups only): sub_group_reduce_add/min/max, which exist for int, uint, long,
 *     ulong, float, double only: sum/min/max of i32/u32/i64/u64 accumulators and sum of f32/f64.
 *     Float min/max are left out: the built-ins do not promise this library's NaN rule. The
 *     host uses the fallback for every other combination.
 *   undefined (e.g. NVIDIA's OpenCL 1.2, PoCL 3.1): a local-memory tree with barriers.
 * The sub-group size is known only at run time: the work-group tree runs while more states are
 * left than get_max_sub_group_size(); sub-group 0, assumed to hold min(max sub-group size, WG)
 * work-items (only a work-group's last sub-group may be short: PoCL, libclc, GPUs), then takes
 * one state per lane and finishes. Every sub-group runs the sub-group stage (the others on
 * identities, their result unused), so every work-item reaches every sub-group call: PoCL
 * implements them with work-group barriers.
 * Partials as in dualload.cl: one state per work-group, the host repeats the launch.
 * Launch rules: local size = WG (a power of two), global size = ceil(n / (2*WG)) * WG;
 * work-group g reads elements [2*WG*g, 2*WG*(g+1)) and writes partial state g. The host runs it
 * on the input, then with -DFROM_PARTIALS on the partials. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

/* SG_PATH, chosen by the host (runtime/src/strategies/seeds/subgroup.cpp): 1 sub-group shuffles,
 * 2 the sub-group reduce built-ins (the host picks it only for the cases they cover), undefined
 * for the local-memory fallback. */
#ifdef SG_PATH
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#if SG_PATH == 1
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#endif
#endif

#if defined(SG_PATH) && SG_PATH == 1
inline ACC sg_shuffle_acc(ACC x, uint lane) {
#if ACC_BYTES < 4
  return (ACC)sub_group_shuffle((int)x, lane);
#else
  return sub_group_shuffle(x, lane);
#endif
}

inline state_t sg_shuffle(state_t x, uint lane) {
#ifdef INDEXED
  return st_make(sg_shuffle_acc(x.v, lane), sub_group_shuffle(x.i, lane));
#else
  return sg_shuffle_acc(x, lane);
#endif
}
#elif defined(SG_PATH) && SG_PATH == 2
inline state_t sg_reduce_builtin(state_t x) {
#if OP == OP_SUM && !defined(ACC_IS_FLOAT)
  return (ACC)sub_group_reduce_add((UACC)x); /* unsigned: wraps, as the library's sum does */
#elif OP == OP_SUM
  return sub_group_reduce_add(x);
#elif OP == OP_MIN || OP == OP_NANMIN
  return sub_group_reduce_min(x);
#elif OP == OP_MAX || OP == OP_NANMAX
  return sub_group_reduce_max(x);
#else
#error "SG_PATH 2: the sub-group built-ins reduce sum, min and max only"
#endif
}
#endif

kernel void sg_reduce(IN_PARAMS, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong i = (ulong)get_group_id(0) * (2 * WG) + lid;
  DUAL_LOAD(v, i);
  sh[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);

#ifdef SG_PATH
  const uint sgmax = get_max_sub_group_size();
  uint c = WG; /* states left in sh[0 .. c) */
  while (c > sgmax) {
    const uint s = c >> 1;
    if (lid < s) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
    c = s;
  }
  const uint sg = get_sub_group_id();
  const uint lane = get_sub_group_local_id();
  const uint sz = get_sub_group_size();
  v = sg == 0 && lane < c ? sh[lane] : st_identity();
#if SG_PATH == 1
  uint off = 1;
  while (off < sgmax)
    off <<= 1;
  for (off >>= 1; off > 0; off >>= 1) { /* uniform trip count: every lane shuffles */
    const uint src = lane + off;
    const state_t x = sg_shuffle(v, src < sz ? src : lane);
    if (src < sz) v = st_combine(v, x);
  }
#else
  v = sg_reduce_builtin(v);
#endif
  if (sg == 0 && lane == 0) STORE(get_group_id(0), v);
#else
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) STORE(get_group_id(0), sh[0]);
#endif
}
