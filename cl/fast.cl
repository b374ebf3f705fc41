/* fast.cl: the strategy behind `auto`: one launch for any n, vector loads, and a layout chosen by
 * the device type. Not from one seed: it combines seed 001 step 10 (multi-sequential, Brent: a
 * fixed grid, each work-item first reduces many elements sequentially) with the one-pass finish of
 * ArrayFire's reduce_all (the last work-group to finish, found with an atomic counter, reduces
 * the per-group partials), so a call is one kernel launch plus one read.
 *
 * Layouts (BLOCKED):
 *   0 (GPUs): neighbouring work-items read neighbouring VW-vectors, grid-stride (coalesced).
 *   1 (CPUs): each work-item reads one contiguous range of CHUNK elements, BLOCK at a time,
 *             into VW-wide vector accumulators (what LLVM vectorises on PoCL); float sums add the
 *             block totals with Kahan compensation, so long ranges stay accurate.
 * Deterministic: the partition depends only on n and the plan, and the last group combines the
 * partials in index order; no float atomics (the counter is an integer).
 *
 * A small grid (HOST_FINISH, the plan's host_finish: at most WG groups) skips the last-group
 * finish: each group stores its partial and the host reads the GROUPS partials in one read and
 * combines them. On NVIDIA's driver the counter's atomic alone added about 7 us to a call
 * (bench/probe_group_cost.cpp); the host's combine of 256 partials takes well under 1 us.
 *
 * Launch rules: local size WG (a power of two; 1 is fine), global size = GROUPS * WG for the
 * plan's GROUPS; `counter` is one uint that is 0 before the launch (the last group resets it, so
 * the host zeroes it once; HOST_FINISH never touches it); part_v/part_i hold GROUPS + 1 states:
 * the partials, then the result at index GROUPS (not with HOST_FINISH). BLOCKED ranges: work-item g
 * covers [g*chunk, (g+1)*chunk), chunk a multiple of VW. argmin/argmax: VW = 1 when BLOCKED (their
 * blocks load vectors themselves, indexed_block_state); strided, any VW.
 *
 * A user's reduction (USER_STATE, cl/common.h) runs the same layouts: each element's state is the
 * user's map over every input, into VW (strided: UNROLL * VW) independent states combined with the
 * user's combine; no HOST_FINISH. Strided reads each input with vector loads, then maps lane by
 * lane; blocked reads elements one by one in an unrolled loop of VW (vector loads spilled to a
 * private array were 3x slower on PoCL), or, with USER_VECTOR_MAP (the host's choice for a
 * reduction with a vector form on a CPU: ops/user_reduction.hpp), maps and combines VW lanes at
 * once with the user's expressions on vectors, the built-in sum's loop. With RDX_CHUNK (the
 * plan's "chunk": the reduction's chunk form, ops/user_reduction.cpp), a work-item turns RDX_CHUNK
 * of its elements into one state at once (rdx_chunk, given where they are: x[p] is element
 * i0 + (p / VW) * step + p % VW) and combines that: strided, RDX_CHUNK / VW vector loads `stride`
 * apart; blocked, RDX_CHUNK consecutive elements. Its kernel
 * takes `carry` and the further inputs after `counter`: with carry = 1 the last group combines
 * the state at part_v[GROUPS] (an earlier chunk's result) first, so chunks of an input combine on
 * the device, in order. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

#ifndef VW
#define VW 4
#endif
#ifndef BLOCKED
#define BLOCKED 0
#endif
#ifndef BLOCK
#define BLOCK 4096
#endif
/* IDX32: n / VW and the grid fit 31 bits, so the strided loop indexes with uint (cheaper
 * address arithmetic on GPUs); the host sets it from n. */
#ifdef IDX32
typedef uint sidx_t;
#else
typedef ulong sidx_t;
#endif
#ifndef HOST_FINISH /* 1: each group stores its partial and the host combines them */
#define HOST_FINISH 0
#endif
#ifndef UNROLL /* strided: independent vector loads in flight per work-item (1, 2 or 4) */
#define UNROLL 1
#endif

#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable

#ifdef USER_STATE
#if HOST_FINISH
#error "a user's reduction finishes on the device (the host cannot run its combine)"
#endif
#define USER_PARAMS , ulong carry ELEM_PARAMS
#else
#define USER_PARAMS ELEM_PARAMS
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#if VW > 1
#define VT CAT(T, VW)
#define VACC CAT(ACC, VW)
#define VLOAD CAT(vload, VW)
#define TO_VACC CAT(convert_, VACC)
/* VW elements from vector k of p, as T_COMPUTE values. */
#define VLOAD_T(k, p) T_VALUES(VW, VLOAD(k, p))
#ifndef ACC_IS_FLOAT
#define VUACC CAT(UACC, VW)
#define AS_VACC CAT(as_, VACC)
#define AS_VUACC CAT(as_, VUACC)
#endif

/* VCOMBINE(a, b), from the host: the operator on VW lanes at once, with combine_values'
 * semantics (fmin/fmax ignore NaN). A macro, not a function: a function taking or returning a
 * 64-byte vector by value changes its ABI with the CPU's vector extensions, which LLVM warns
 * about (-Wpsabi) on every compile. */
#if !defined(VCOMBINE) && !defined(USER_STATE) && !defined(INDEXED)
#error "VW > 1: this operator's lanes cannot combine (the host plans VW = 1 for it)"
#endif

/* The VW lanes of an accumulator, stored to `lane`, combined pairwise (a short tree: accurate
 * for sums). */
inline ACC lanes_combined(ACC* lane) {
  for (uint w = VW / 2; w > 0; w /= 2)
    for (uint k = 0; k < w; ++k)
      lane[k] = combine_values(lane[k], lane[k + w]);
  return lane[0];
}
#define VHORIZONTAL(v, out)         \
  do {                              \
    ACC lane_[VW];                  \
    CAT(vstore, VW)((v), 0, lane_); \
    (out) = lanes_combined(lane_);  \
  } while (0)
#endif /* VW > 1 */

#ifdef USER_STATE
/* `count` states (a power of two) combined pairwise. */
inline state_t user_lanes_combined(state_t* lane, uint count) {
  for (uint w = count / 2; w > 0; w /= 2)
    for (uint k = 0; k < w; ++k)
      lane[k] = combine_values(lane[k], lane[k + w]);
  return lane[0];
}
#endif

#ifdef USER_VECTOR_MAP
/* VW elements of an input (every input has the field's type) at element k * VW, aligned to one
 * element: vloadN of two inputs compiled to 8-byte pieces on PoCL. */
typedef USER_VFIELD __attribute__((aligned(sizeof(USER_FIELD_T)))) user_vload_t;
#define USER_VLOAD(k, p) (((global const user_vload_t*)(p))[(k)])
#endif

#if defined(INDEXED) && BLOCKED && defined(VALUE_VCOMBINE) && !defined(USER_STATE)
/* argmin/argmax on CPUs (BLOCKED): a block's state in two passes, IVW lanes at once, instead of
 * one compare-and-index per element (a scalar loop that ran at 1.05 GB/s on PoCL, the max at
 * 24.9): first the block's extreme value (VALUE_VCOMBINE: NaN propagates, or is ignored, as the
 * operator's), then, in the block that is now in cache, the first element equal to it (the first
 * NaN where it is NaN). The state is the scalar loop's: that element's value and index; a block
 * of NaN alone under nanargmin/nanargmax gives its first NaN, as st_combine does. */
#if ACC_BYTES >= 8
#define IVW 8
#else
#define IVW 16
#endif
#define IVACC CAT(ACC, IVW)
#define IVLOAD_ACC(p) CAT(convert_, IVACC)(T_VALUES(IVW, CAT(vload, IVW)(0, (p))))

inline state_t indexed_block_state(global const T* in, ulong b, ulong e) {
  ulong k = b;
  ACC m;
  if (e - b >= IVW) {
    IVACC v = IVLOAD_ACC(in + b);
    for (k = b + IVW; k + IVW <= e; k += IVW)
      v = VALUE_VCOMBINE(v, IVLOAD_ACC(in + k));
    ACC lane[IVW];
    CAT(vstore, IVW)(v, 0, lane);
    m = lane[0];
    for (uint j = 1; j < IVW; ++j)
      m = combine_values(m, lane[j]);
  } else {
    m = to_acc(LOAD_T(in, b));
    k = b + 1;
  }
  for (; k < e; ++k)
    m = combine_values(m, to_acc(LOAD_T(in, k)));
#ifdef ACC_IS_FLOAT
  const bool nan_m = isnan(m);
#define IS_BLOCK_EXTREME(x) (nan_m ? isnan(x) : (x) == m)
#else
#define IS_BLOCK_EXTREME(x) ((x) == m)
#endif
  k = b;
  for (; k + IVW <= e; k += IVW)
    if (any(IS_BLOCK_EXTREME(IVLOAD_ACC(in + k)))) break;
  for (; k < e; ++k) {
    const ACC x = to_acc(LOAD_T(in, k));
    if (IS_BLOCK_EXTREME(x)) return st_make(x, k);
  }
#undef IS_BLOCK_EXTREME
  return st_identity(); /* not reached: the extreme is one of the block's elements */
}
#endif

#if VW > 1 && defined(INDEXED) && !BLOCKED
/* argmin/argmax, strided: s combined with the VW elements of `lane`, whose indices (from `first`)
 * all follow s's. Their extreme value first: only where it would replace s (a better value, or
 * NaN where NaN propagates) are the lanes combined one by one, in index order. */
inline state_t vector_state(state_t s, const ACC* lane, ulong first) {
  ACC m = lane[0];
#pragma unroll
  for (uint j = 1; j < VW; ++j)
    m = combine_values(m, lane[j]);
  if (st_combine(s, st_make(m, NO_INDEX - 1)).i == s.i) return s;
#pragma unroll
  for (uint j = 0; j < VW; ++j)
    s = st_combine(s, st_make(lane[j], first + j));
  return s;
}
#endif

/* Combines elements [b, e) of the input, b a multiple of VW when VW > 1. */
inline state_t range_state(global const T* in, ulong b, ulong e USER_INPUT_PARAMS) {
#ifdef USER_CHUNK
  /* The chunk form: RDX_CHUNK consecutive elements to one state, then one combine. */
  state_t s = st_identity();
  ulong k = b;
  for (; k + RDX_CHUNK <= e; k += RDX_CHUNK) {
    T0_COMPUTE x[RDX_CHUNK];
    for (uint j = 0; j < RDX_CHUNK; ++j)
      x[j] = T0_VALUE(in[k + j]);
    s = combine_values(s, rdx_chunk(x, rdx_base + k, VW, VW));
  }
  for (; k < e; ++k)
    s = combine_values(s, USER_MAP_AT(k));
  return s;
#elif VW > 1 && defined(USER_STATE)
  state_t lane[VW];
  const ulong ve = e / VW;
#ifdef USER_VECTOR_MAP
  /* The vector form (ops/user_reduction.cpp, has_vector_form): lane j of v is lane[j] below,
   * bit for bit, computed VW lanes at once. */
  USER_VFIELD v = (USER_VFIELD)(rdx_field_of(st_identity()));
  for (ulong k = b / VW; k < ve; ++k) {
    const USER_VFIELD m = (USER_VFIELD)(USER_VMAP_AT(k));
    v = (USER_VFIELD)(USER_VCOMBINE(v, m));
  }
  USER_FIELD_T field[VW];
  CAT(vstore, VW)(v, 0, field);
  for (uint j = 0; j < VW; ++j)
    lane[j] = rdx_state_of(field[j]);
#else
  /* Unrolled, so that the VW states stay in registers (a loop kept them in memory). */
#pragma unroll
  for (uint j = 0; j < VW; ++j)
    lane[j] = st_identity();
  for (ulong k = b / VW; k < ve; ++k) {
#pragma unroll
    for (uint j = 0; j < VW; ++j)
      lane[j] = combine_values(lane[j], USER_MAP_AT(k * VW + j));
  }
#endif
  state_t s = user_lanes_combined(lane, VW);
  for (ulong i = ve * VW; i < e; ++i)
    s = combine_values(s, USER_MAP_AT(i));
  return s;
#elif VW > 1 && !defined(INDEXED)
  /* Two vectors of states, so that two combines are in flight (one chain of float adds waits
   * on each add's latency: on PoCL that, not memory, bounded a sum). */
  VACC v = (VACC)(st_identity()), v1 = v;
  const ulong vb = b / VW, ve = e / VW;
  ulong k = vb;
  for (; k + 1 < ve; k += 2) {
    v = VCOMBINE(v, TO_VACC(VLOAD_T(k, in)));
    v1 = VCOMBINE(v1, TO_VACC(VLOAD_T(k + 1, in)));
  }
  if (k < ve) v = VCOMBINE(v, TO_VACC(VLOAD_T(k, in)));
  v = VCOMBINE(v, v1);
  ACC s;
  VHORIZONTAL(v, s);
  for (ulong i = ve * VW; i < e; ++i)
    s = combine_values(s, to_acc(LOAD_T(in, i)));
  return s;
#elif defined(INDEXED) && BLOCKED && defined(VALUE_VCOMBINE)
  return indexed_block_state(in, b, e);
#else
  state_t s = st_identity();
  for (ulong i = b; i < e; ++i)
    s = st_combine(s, ELEM(in, i));
  return s;
#endif
}

inline state_t load_partial(volatile global ACC* v, volatile global ulong* ix, ulong k) {
#ifdef INDEXED
  return st_make(v[k], ix[k]);
#else
  return v[k];
#endif
}

kernel void fast_reduce(global const T* restrict in, ulong n, ulong chunk, global ACC* part_v,
                        global ulong* part_i, volatile global uint* counter USER_PARAMS) {
  OPEN_INPUT(in);
  local state_t sh[WG];
  local uint ticket;
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0);
  const ulong groups = get_num_groups(0);
  state_t s = st_identity();

#if BLOCKED
  const ulong begin = gid * chunk;
  const ulong end = min(begin + chunk, n);
#if OP == OP_SUM && defined(ACC_IS_FLOAT)
  ACC c = 0; /* Kahan: s + c is the running sum of the block totals */
  for (ulong b = begin; b < end; b += BLOCK) {
    const ACC y = range_state(in, b, min(b + BLOCK, end)) - c;
    const ACC t = s + y;
    c = isfinite(t) ? (t - s) - y : (ACC)0; /* an infinity or NaN carries on by itself */
    s = t;
  }
#else
  for (ulong b = begin; b < end; b += BLOCK)
    s = st_combine(s, range_state(in, b, min(b + BLOCK, end) USER_INPUT_ARGS));
#endif
#else /* strided */
  const sidx_t stride = (sidx_t)(groups * WG);
#ifdef USER_CHUNK
  /* The chunk form: RDX_CHUNK / VW vector loads `stride` apart to one state, then one combine;
   * the vectors left over (fewer than a chunk's) and the last n % VW elements one by one. */
#define CHUNK_LOADS (RDX_CHUNK / VW)
  const sidx_t nv = (sidx_t)(n / VW);
  sidx_t k = (sidx_t)gid;
  for (; k + (CHUNK_LOADS - 1) * stride < nv; k += CHUNK_LOADS * stride) {
    T0_COMPUTE x[RDX_CHUNK];
#pragma unroll
    for (uint u = 0; u < CHUNK_LOADS; ++u) {
#if VW > 1
      T e_[VW];
      CAT(vstore, VW)(VLOAD(k + u * stride, in), 0, e_);
#pragma unroll
      for (uint j = 0; j < VW; ++j)
        x[u * VW + j] = T0_VALUE(e_[j]);
#else
      x[u] = T0_VALUE(in[k + u * stride]);
#endif
    }
    s = combine_values(s, rdx_chunk(x, rdx_base + (ulong)k * VW, (ulong)stride * VW, VW));
  }
  for (; k < nv; k += stride)
    for (uint j = 0; j < VW; ++j)
      s = combine_values(s, USER_MAP_AT((ulong)k * VW + j));
  for (ulong i = (ulong)nv * VW + gid; i < n; i += stride)
    s = combine_values(s, USER_MAP_AT(i));
#undef CHUNK_LOADS
#elif VW > 1 && defined(USER_STATE)
  state_t lane[UNROLL * VW];
  for (uint j = 0; j < UNROLL * VW; ++j)
    lane[j] = st_identity();
  const sidx_t nv = (sidx_t)(n / VW);
  sidx_t k = (sidx_t)gid;
#if UNROLL > 1
  for (; k + (UNROLL - 1) * stride < nv; k += UNROLL * stride) {
    for (uint u = 0; u < UNROLL; ++u) {
      const sidx_t ku = k + u * stride;
      USER_LOAD_LANES(ku);
      for (uint j = 0; j < VW; ++j)
        lane[u * VW + j] = combine_values(lane[u * VW + j], USER_MAP_LANE(j, (ulong)ku * VW + j));
    }
  }
#endif
  for (; k < nv; k += stride) {
    USER_LOAD_LANES(k);
    for (uint j = 0; j < VW; ++j)
      lane[j] = combine_values(lane[j], USER_MAP_LANE(j, (ulong)k * VW + j));
  }
  s = user_lanes_combined(lane, UNROLL * VW);
  /* The last n % VW elements: a loop, for a grid of fewer work-items than that. */
  for (ulong i = (ulong)nv * VW + gid; i < n; i += stride)
    s = combine_values(s, USER_MAP_AT(i));
#elif VW > 1 && defined(INDEXED)
  /* argmin/argmax (GPUs): vector loads, UNROLL of them in flight, then each lane's element
   * combined with its index; one element a load left each work-item one 4-byte load at a time. */
  const sidx_t nv = (sidx_t)(n / VW);
  sidx_t k = (sidx_t)gid;
  ACC lane[UNROLL * VW];
  for (; k + (UNROLL - 1) * stride < nv; k += UNROLL * stride) {
#pragma unroll
    for (uint u = 0; u < UNROLL; ++u)
      CAT(vstore, VW)(TO_VACC(VLOAD_T(k + u * stride, in)), u, lane);
#pragma unroll
    for (uint u = 0; u < UNROLL; ++u)
      s = vector_state(s, lane + u * VW, ((ulong)k + u * stride) * VW);
  }
  for (; k < nv; k += stride) {
    CAT(vstore, VW)(TO_VACC(VLOAD_T(k, in)), 0, lane);
    s = vector_state(s, lane, (ulong)k * VW);
  }
  /* The last n % VW elements: a loop, for a grid of fewer work-items than that. */
  for (ulong i = (ulong)nv * VW + gid; i < n; i += stride)
    s = st_combine(s, ELEM(in, i));
#elif VW > 1
  VACC v = (VACC)(st_identity());
  const sidx_t nv = (sidx_t)(n / VW);
  sidx_t k = (sidx_t)gid;
#if UNROLL >= 2
  VACC v1 = v;
#if UNROLL >= 4
  VACC v2 = v, v3 = v;
  for (; k + 3 * stride < nv; k += 4 * stride) {
    v = VCOMBINE(v, TO_VACC(VLOAD_T(k, in)));
    v1 = VCOMBINE(v1, TO_VACC(VLOAD_T(k + stride, in)));
    v2 = VCOMBINE(v2, TO_VACC(VLOAD_T(k + 2 * stride, in)));
    v3 = VCOMBINE(v3, TO_VACC(VLOAD_T(k + 3 * stride, in)));
  }
  v1 = VCOMBINE(v1, v3);
  v = VCOMBINE(v, v2);
#endif
  for (; k + stride < nv; k += 2 * stride) {
    v = VCOMBINE(v, TO_VACC(VLOAD_T(k, in)));
    v1 = VCOMBINE(v1, TO_VACC(VLOAD_T(k + stride, in)));
  }
  v = VCOMBINE(v, v1);
#endif
  for (; k < nv; k += stride)
    v = VCOMBINE(v, TO_VACC(VLOAD_T(k, in)));
  VHORIZONTAL(v, s);
  /* The last n % VW elements: a loop, for a grid of fewer work-items than that. */
  for (ulong i = (ulong)nv * VW + gid; i < n; i += stride)
    s = combine_values(s, to_acc(LOAD_T(in, i)));
#else
  for (ulong i = gid; i < n; i += stride)
    s = st_combine(s, ELEM(in, i));
#endif
#endif

  /* The group's partial: a local tree (sequential addressing). */
  sh[lid] = s;
  halving_tree(sh, lid);
#if HOST_FINISH /* the host reads the GROUPS partials and combines them: no counter */
  if (lid == 0) st_store(part_v, part_i, get_group_id(0), sh[0]);
  return;
#endif
  if (lid == 0) {
    st_store(part_v, part_i, get_group_id(0), sh[0]);
    mem_fence(CLK_GLOBAL_MEM_FENCE); /* the partial is visible before the ticket is taken */
    ticket = atomic_inc(counter);
  }
  /* The global fence too: the last group's work-items read the partial that its work-item 0
   * stored above (Oclgrind reports a race without it). */
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (ticket != groups - 1) return; /* the same for the whole group */

  /* The last group: combine every partial, in index order per work-item, then a tree. */
  state_t t = st_identity();
#ifdef USER_STATE
  if (carry && lid == 0) t = load_partial(part_v, part_i, groups); /* earlier chunks first */
#endif
  for (ulong k = lid; k < groups; k += WG)
    t = st_combine(t, load_partial(part_v, part_i, k));
  sh[lid] = t;
  halving_tree(sh, lid);
  if (lid == 0) {
    st_store(part_v, part_i, groups, sh[0]);
    *counter = 0; /* ready for the next launch */
  }
}
