/* segmented.cl: one result per segment of the input: rdx::reduce_segments (segments given by
 * offsets, CSR row pointers) and rdx::reduce_axis (an N-D array in C order seen as
 * outer x length x inner, reduced along `length`).
 *
 * Not from one seed: each segment is reduced by LANES work-items with seed 001's shared-memory
 * tree (sequential loads first, then a tree over the lanes in local memory), one segment per
 * LANES work-items instead of one per group. CUB's DeviceSegmentedReduce gives every segment a
 * whole block, which leaves short segments far from the memory's speed; here the plan
 * (plan/segmented_plan.cpp) picks LANES from the mean segment length, 1 for the shortest (one
 * work-item per segment, the "CSR-scalar" form of sparse matrix-vector products) up to WG, and
 * splits long segments over PARTS groups, whose partials seg_finish combines in order.
 *
 * Segment r:
 *   OFFSETS:   elements off[r] .. off[r+1] - 1, off[0] = 0 (checked by the host or seg_check)
 *   VIEW:      the view form (rdx::reduce_axes over axes apart, strides, an offset): element k
 *              at view_first(view, r) + view_step(view, k) (cl/view.h; a lane walks it with a
 *              view_cursor); 1-element loads
 *   otherwise: the axis form, `length` elements from (r / inner) * length * inner + r % inner,
 *              `inner` apart (rows: inner = 1; columns of a 2-D array: outer = 1)
 * COLUMNS (the axis form with inner > 1): neighbouring work-items take neighbouring segments, so
 * a group's loads of one position along the axis are contiguous; else a segment's LANES
 * work-items are neighbours. On CPUs, columns of 16 or more run seg_columns (below) instead:
 * a work-item per block of neighbouring columns, walking the rows. Element positions and
 * argmin/argmax indices count from the segment's start (the axis form: the position along the
 * axis; the view form: the position over the reduced axes in C order).
 *
 * Deterministic: a segment's elements are split over parts, lanes and loads by its length and
 * the plan only, and combined in a fixed order.
 *
 * A user's reduction (USER_STATE, cl/common.h): one element per load (SEG_VEC 1, no SEG_VACC or
 * SEG_COL_VEC; SEG_VEC 4 only into its chunk form's chunks, one lane a segment), each element
 * mapped with every input's element at the same flat index (the map's i: rdx_base plus that index);
 * the kernels that read elements end their parameters with ELEM_PARAMS, and take no empty_v (an
 * empty segment's state is the identity).
 *
 * Launch rules (seg_reduce): local size WG; global size = groups * WG with
 * groups = ceil(segments * LANES / WG) * PARTS; group g covers segments
 * [(g / PARTS) * (WG / LANES), ...) and part g % PARTS of each. PARTS = 1 stores each segment's
 * result in out_v/out_i (an empty segment gives `empty_v`, and an index NO_INDEX); PARTS > 1
 * stores partial r * PARTS + p there, and seg_finish (one work-item per segment, any local
 * size) turns them into the results (SEG_RESULTS: a composite's results, out0 .. out3, below).
 * The barriers are reached by every work-item of a group: work-items past the last segment
 * carry the identity.
 *
 * SEG_SHUFFLE (NVIDIA's OpenCL, the plan's `shuffle`): the lanes' tree takes its levels below 32
 * lanes by warp shuffles (inline PTX shfl.sync.down: lane + h of the same warp of 32), with no
 * local memory and no barrier; the levels of 32 and more stay in local memory. Each level pairs
 * the same lanes as the halving tree, in the same order, so the results' bits do not change.
 * For segments whose lanes are neighbours (not COLUMNS), states of 4 or 8 bytes without an index
 * (not INDEXED, not USER_STATE), and WG a multiple of 32 (whole warps: every work-item of a warp
 * reaches each shuffle). The local levels are cl/group_tree.h's TREE_LEVELS. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#include "group_tree.h"

#ifndef LANES
#error "LANES (work-items per segment) is defined by the launcher"
#endif
#ifndef PARTS
#error "PARTS (work-groups per segment) is defined by the launcher"
#endif
/* A group smaller than the plan's (a device that refused WG) runs its segments with WG lanes. */
#if LANES > WG
#define SEG_LANES WG
#else
#define SEG_LANES LANES
#endif
#define SEGS_PER_GROUP (WG / SEG_LANES)
#ifndef SEG_UNROLL
#error "SEG_UNROLL (loads in flight per work-item) is defined by the launcher"
#endif

/* SEG_VEC: elements per load, 1, 4 or 16 (4 and 16: segments of contiguous elements only, not
 * COLUMNS; 16: CPUs' vector accumulators only, SEG_VACC, whose loads need no alignment). */
#ifndef SEG_VEC
#error "SEG_VEC (elements per load) is defined by the launcher"
#endif
#ifdef USER_STATE
/* A user's reduction loads one element at a time, except SEG_VEC 4: the chunk form's loads
 * (USER_CHUNK) where one lane takes a whole segment of contiguous elements (the plan's choice on
 * GPUs: 4-element loads there read each 16 bytes once where 1-element loads read a segment 4
 * bytes at a time, 64 bytes apart). */
#if defined(SEG_VACC) || defined(SEG_COL_VEC) ||                                \
    (SEG_VEC != 1 && !(SEG_VEC == 4 && defined(USER_CHUNK) && SEG_LANES == 1 && \
                       !defined(COLUMNS) && !defined(VIEW) && RDX_CHUNK % 4 == 0))
#error "a user's reduction loads one element at a time (or 4 into a chunk: one lane a segment)"
#endif
#elif SEG_VEC == 4 || SEG_VEC == 16
#ifdef COLUMNS
#error "SEG_VEC 4 and 16 read contiguous elements: not with COLUMNS"
#endif
#define SEG_CAT_(a, b) a##b
#define SEG_CAT(a, b) SEG_CAT_(a, b)
#if SEG_VEC == 16
#ifndef SEG_VACC
#error "SEG_VEC 16 loads into vector accumulators (SEG_VACC)"
#endif
/* 16 elements at any element-aligned address: one unaligned load on a CPU. */
typedef SEG_CAT(T, 16) __attribute__((aligned(sizeof(T)))) seg_load16_t;
#define SEG_VT seg_load16_t
#define SEG_ALIGN 1
#else
#define SEG_VT SEG_CAT(T, 4)
#define SEG_ALIGN SEG_VEC
#endif
/* SEG_LEAN_LOOP (4-element loads into the state, SEG_LANES >= SEG_VEC: the GPU form) keeps only
 * a pointer and its bound live across the body's loop: the fewer than SEG_VEC elements after a
 * part's body, at most one a lane, are loaded before the loop and combined after it, in the same
 * order (the same bits); the body runs through one pointer; its loops are not unrolled further.
 * NVIDIA's compiler then keeps seg_reduce in 32 registers a work-item instead of 40-42 (H200,
 * segments of 4096: f32 sums 1.02-1.05x faster, i32 sums 1.07-1.09x; docs/performance.md,
 * "seg_reduce in 32 registers"). CPUs' default (one lane a segment) keeps the plain loop. */
#if SEG_VEC == 4 && !defined(SEG_VACC) && SEG_LANES >= SEG_VEC
#define SEG_LEAN_LOOP
#endif
/* The four elements of x, the first at position k, combined in order into s. */
inline state_t seg_combine_vec(state_t s, SEG_VT x, ulong k) {
  s = st_combine(s, st_make(to_acc(T_VALUE(x.s0)), k));
  s = st_combine(s, st_make(to_acc(T_VALUE(x.s1)), k + 1));
  s = st_combine(s, st_make(to_acc(T_VALUE(x.s2)), k + 2));
  return st_combine(s, st_make(to_acc(T_VALUE(x.s3)), k + 3));
}
/* SEG_VACC (the host's choice on CPUs, for operators whose lanes combine: VCOMBINE): the body's
 * loads go into vector accumulators instead of the state one element at a time. */
#ifdef SEG_VACC
#ifndef VCOMBINE
#error "SEG_VACC needs the operator's VCOMBINE"
#endif
#define SEG_VACC_T SEG_CAT(ACC, SEG_VEC)
/* A loaded vector of SEG_VEC stored elements as accumulator values. */
#define SEG_TO_VACC(x) SEG_CAT(convert_, SEG_VACC_T)(T_VALUES(SEG_VEC, x))
/* SEG_W: the width VCOMBINE works at (integer operators' lanes wrap through as_ casts of it). */
#define SEG_W SEG_VEC
#ifndef ACC_IS_FLOAT
#define AS_VACC SEG_CAT(as_, SEG_CAT(ACC, SEG_W))
#define AS_VUACC SEG_CAT(as_, SEG_CAT(UACC, SEG_W))
#endif
#if SEG_VEC == 16
/* A vector accumulator's 16 lanes folded in halves, in registers: lane i with lane i + 8, then
 * i + 4, i + 2, i + 1. */
#undef SEG_W
#define SEG_W 8
inline SEG_CAT(ACC, 8) seg_half8(SEG_CAT(ACC, 16) v) {
  return VCOMBINE(v.lo, v.hi);
}
#undef SEG_W
#define SEG_W 4
inline SEG_CAT(ACC, 4) seg_half4(SEG_CAT(ACC, 8) v) {
  return VCOMBINE(v.lo, v.hi);
}
#undef SEG_W
#define SEG_W 2
inline ACC seg_fold16(SEG_CAT(ACC, 16) v) {
  const SEG_CAT(ACC, 4) q = seg_half4(seg_half8(v));
  const SEG_CAT(ACC, 2) h = VCOMBINE(q.lo, q.hi);
  return combine_values(h.s0, h.s1);
}
#undef SEG_W
#define SEG_W SEG_VEC
#endif
#endif
#elif SEG_VEC != 1
#error "SEG_VEC is 1, 4 or 16"
#endif

/* SEG_RESULTS (a composite along axes or a view, run_segmented.hpp's StateResults): the kernel
 * that ends a segment (seg_reduce with PARTS 1, else seg_finish) stores its results through
 * cl/seg_result.h's seg_result into out0 .. out3 (RESULT_PARAMS, after OUT_PARAMS) instead of its
 * state: no states are stored and read again by cl/seg_results.cl. */
#ifdef SEG_RESULTS
#if !defined(USER_STATE) || defined(OFFSETS) || defined(COL_BLOCK)
#error "SEG_RESULTS: a composite's results along axes or a view (not offsets, not column blocks)"
#endif
#include "seg_result.h"
#define RESULT_PARAMS , SEG_RESULT_PARAMS
#ifdef VIEW
#define SEG_END(r, s, count) seg_result((s), (r), (count), (count), 0, out0, out1, out2, out3)
#else
#define SEG_END(r, s, count) seg_result((s), (r), (count), length, inner, out0, out1, out2, out3)
#endif
#else
#define RESULT_PARAMS
#define SEG_END(r, s, count) STORE((r), SEG_PUBLIC((s), (count)))
#endif

#ifdef VIEW
#if SEG_VEC != 1 || defined(OFFSETS) || defined(COL_BLOCK)
#error "the view form loads one element at a time, without offsets or column blocks"
#endif
#include "view.h"
#endif

/* CHECKED (device offsets): seg_check ran first and set *bad for offsets it refuses; then the
 * kernels below write nothing, and the host reports the error once they are done. */
#ifdef CHECKED
#define CHECK_PARAM , global const uint* bad
#define RETURN_IF_BAD \
  if (*bad) return
#else
#define CHECK_PARAM
#define RETURN_IF_BAD (void)0
#endif

/* The result of a segment as the user sees it: an empty one is `empty_v` (the operator's
 * identity, +inf / -inf for float min / max, whose kernel identity is NaN), and a float
 * product's input-infinity mark is an infinity. A user's reduction: the state itself (an empty
 * segment's is the identity). */
#ifdef USER_STATE
#define EMPTY_PARAM
#define SEG_PUBLIC(s, count) (s)
#else
#define EMPTY_PARAM ACC empty_v,
#define SEG_PUBLIC(s, count) seg_public((s), (count), empty_v)
inline state_t seg_public(state_t s, ulong count, ACC empty_v) {
  if (count == 0) return st_make(empty_v, NO_INDEX);
#if OP == OP_PROD && defined(ACC_IS_FLOAT)
  if (is_inf_mark(s)) return prod_signed(PROD_AS_BITS((ACC)INFINITY), s, (ACC)1);
#endif
  return s;
}
#endif

/* SEG_ELEM(at, pos): the state of input element `at` (an index into `in`), at position `pos` of
 * its segment (argmin/argmax's index); a user's reduction maps element `at` of every input (the
 * view form: with i = r * count + pos, the position in segment order, from seg_reduce's r and
 * count). */
#if defined(USER_STATE) && defined(VIEW)
#define SEG_ELEM(at, pos) USER_MAP_FROM_AT(in, (at), r* count + (pos))
#elif defined(USER_STATE)
#define SEG_ELEM(at, pos) USER_MAP_FROM(in, (at))
#else
#define SEG_ELEM(at, pos) st_make(to_acc(LOAD_T(in, at)), (pos))
#endif

/* Segment r: its first element, how many, and how far apart. */
#ifdef OFFSETS
#define SEG_PARAMS global const ulong* off
#define SEG_GEOMETRY(r, first, count, step) \
  do {                                      \
    first = off[(r)];                       \
    count = off[(r) + 1] - first;           \
    step = 1;                               \
  } while (0)
#elif defined(VIEW)
#define SEG_PARAMS global const long* view
#define SEG_GEOMETRY(r, first, count, step) \
  do {                                      \
    first = view_first(view, (r));          \
    count = view_length(view);              \
    step = 0;                               \
  } while (0)
#else
#define SEG_PARAMS ulong length, ulong inner
#define SEG_GEOMETRY(r, first, count, step)               \
  do {                                                    \
    first = ((r) / inner) * length * inner + (r) % inner; \
    count = length;                                       \
    step = inner;                                         \
  } while (0)
#endif

#ifdef SEG_SHUFFLE
#if defined(COLUMNS) || defined(INDEXED) || defined(USER_STATE) || \
    !(ACC_BYTES == 4 || ACC_BYTES == 8) || WG % 32 != 0
#error "SEG_SHUFFLE: neighbouring lanes, 4- or 8-byte states without an index, whole warps"
#endif
/* Lane lid + d's x, from the same warp (every lane of the warp takes part). */
inline uint shfl_down_u32(uint x, uint d) {
  uint r;
  asm volatile("shfl.sync.down.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(d));
  return r;
}
#define SEG_AS_CAT_(a, b) a##b
#define SEG_AS_CAT(a, b) SEG_AS_CAT_(a, b)
inline state_t shfl_down_state(state_t s, uint d) {
#if ACC_BYTES == 4
  return SEG_AS_CAT(as_, ACC)(shfl_down_u32(as_uint(s), d));
#else
  const ulong u = as_ulong(s);
  const ulong lo = shfl_down_u32((uint)u, d), hi = shfl_down_u32((uint)(u >> 32), d);
  return SEG_AS_CAT(as_, ACC)(lo | (hi << 32));
#endif
}
#endif

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void seg_reduce(
    global const T* in, SEG_PARAMS, ulong segments,
    EMPTY_PARAM OUT_PARAMS RESULT_PARAMS CHECK_PARAM ELEM_PARAMS) {
  OPEN_INPUT(in);
  RETURN_IF_BAD; /* the whole group returns: no barrier is reached by only some */
  local state_t scratch[WG];
  const uint lid = get_local_id(0);
  const ulong g = get_group_id(0);
  const ulong part = g % PARTS;
#ifdef COLUMNS
  const uint slot = lid % SEGS_PER_GROUP, lane = lid / SEGS_PER_GROUP;
#define AT(slot_, lane_) ((lane_)*SEGS_PER_GROUP + (slot_))
#else
  const uint slot = lid / SEG_LANES, lane = lid % SEG_LANES;
#define AT(slot_, lane_) ((slot_)*SEG_LANES + (lane_))
#endif
  const ulong r = (g / PARTS) * SEGS_PER_GROUP + slot;

  state_t s = st_identity();
  ulong count = 0;
  if (r < segments) {
    ulong first, step;
    SEG_GEOMETRY(r, first, count, step);
    /* This part's share of the segment: [lo, hi), whole multiples of SEG_LANES but the last. */
    const ulong chunk = ((count + PARTS - 1) / PARTS + SEG_LANES - 1) / SEG_LANES * SEG_LANES;
    const ulong lo = min(count, part * chunk), hi = min(count, lo + chunk);
    /* SEG_UNROLL loads in flight per work-item (a GPU otherwise waits for each load before the
     * next: the combine needs it), each load's elements combined in the order of the input. */
    const global T* p = in + first;
#if SEG_VEC > 1 && !defined(USER_STATE)
    /* Loads of SEG_VEC elements over the part's body [a0, a1), aligned to SEG_ALIGN elements
     * (element a0's address a multiple of SEG_ALIGN elements: counted from the buffer's start,
     * IN_ELEMENT_OFFSET before `in`); the fewer than SEG_ALIGN elements before it and SEG_VEC
     * after it one by one. */
    const ulong at = IN_ELEMENT_OFFSET + first;
    const ulong a0 = min(hi, lo + (SEG_ALIGN - (at + lo) % SEG_ALIGN) % SEG_ALIGN);
    const ulong a1 = a0 + (hi - a0) / SEG_VEC * SEG_VEC;
    for (ulong k = lo + lane; k < a0; k += SEG_LANES)
      s = st_combine(s, st_make(to_acc(LOAD_T(p, k)), k));
    ulong k = a0 + lane * SEG_VEC;
#ifdef SEG_VACC
    /* SEG_UNROLL vector accumulators (independent chains: a CPU's float adds and comparisons do
     * not wait for each other), folded in order at the end, then their lanes. */
    SEG_VACC_T v[SEG_UNROLL];
#pragma unroll
    for (uint u = 0; u < SEG_UNROLL; ++u)
      v[u] = (SEG_VACC_T)(IDENTITY_VALUE);
    for (; k + ((SEG_UNROLL - 1) * SEG_LANES + 1) * SEG_VEC <= a1;
         k += SEG_UNROLL * SEG_LANES * SEG_VEC) {
#pragma unroll
      for (uint u = 0; u < SEG_UNROLL; ++u)
        v[u] =
            VCOMBINE(v[u], SEG_TO_VACC(*(const global SEG_VT*)(p + k + u * SEG_LANES * SEG_VEC)));
    }
    for (; k + SEG_VEC <= a1; k += SEG_LANES * SEG_VEC)
      v[0] = VCOMBINE(v[0], SEG_TO_VACC(*(const global SEG_VT*)(p + k)));
#pragma unroll
    for (uint u = 1; u < SEG_UNROLL; ++u)
      v[0] = VCOMBINE(v[0], v[u]);
#if SEG_VEC == 16
    s = combine_values(s, seg_fold16(v[0]));
#else
    s = combine_values(
        s, combine_values(combine_values(v[0].s0, v[0].s1), combine_values(v[0].s2, v[0].s3)));
#endif
#else
#ifdef SEG_LEAN_LOOP
    const ulong t = a1 + lane;
    const bool has_tail = t < hi;
    const state_t tail = has_tail ? st_make(to_acc(LOAD_T(p, t)), t) : st_identity();
    const global SEG_VT* q = (const global SEG_VT*)(p + k);
    const global SEG_VT* const q_end = (const global SEG_VT*)(p + a1);
#define SEG_BODY_HAS(n) (q + ((n)-1) * SEG_LANES + 1 <= q_end)
#define SEG_BODY_AT(u) (q + (u)*SEG_LANES)
#define SEG_BODY_NEXT(n) (q += (n)*SEG_LANES, k += (n)*SEG_LANES * SEG_VEC)
#else
#define SEG_BODY_HAS(n) (k + (((n)-1) * SEG_LANES + 1) * SEG_VEC <= a1)
#define SEG_BODY_AT(u) ((const global SEG_VT*)(p + k + (u)*SEG_LANES * SEG_VEC))
#define SEG_BODY_NEXT(n) (k += (n)*SEG_LANES * SEG_VEC)
#endif
    /* SEG_UNROLL loads at a time, then one at a time. */
#ifdef SEG_LEAN_LOOP
#pragma unroll 1
#endif
    for (; SEG_BODY_HAS(SEG_UNROLL); SEG_BODY_NEXT(SEG_UNROLL)) {
      SEG_VT x[SEG_UNROLL];
#pragma unroll
      for (uint u = 0; u < SEG_UNROLL; ++u)
        x[u] = *SEG_BODY_AT(u);
#pragma unroll
      for (uint u = 0; u < SEG_UNROLL; ++u)
        s = seg_combine_vec(s, x[u], k + u * SEG_LANES * SEG_VEC);
    }
#ifdef SEG_LEAN_LOOP
#pragma unroll 1
#endif
    for (; SEG_BODY_HAS(1); SEG_BODY_NEXT(1))
      s = seg_combine_vec(s, *SEG_BODY_AT(0), k);
#undef SEG_BODY_HAS
#undef SEG_BODY_AT
#undef SEG_BODY_NEXT
#endif
#ifdef SEG_LEAN_LOOP
    if (has_tail) s = st_combine(s, tail);
#else
    for (ulong t = a1 + lane; t < hi; t += SEG_LANES)
      s = st_combine(s, st_make(to_acc(LOAD_T(p, t)), t));
#endif
#elif defined(VIEW)
    (void)p;
    (void)step;
    ulong k = lo + lane;
    if (k < hi) {
      view_cursor c = view_start(view, first, k);
      for (; k + (SEG_UNROLL - 1) * SEG_LANES < hi; k += SEG_UNROLL * SEG_LANES) {
        state_t x[SEG_UNROLL];
#pragma unroll
        for (uint u = 0; u < SEG_UNROLL; ++u) {
          x[u] = SEG_ELEM(c.at, k + u * SEG_LANES);
          view_advance(view, &c, SEG_LANES);
        }
#pragma unroll
        for (uint u = 0; u < SEG_UNROLL; ++u)
          s = st_combine(s, x[u]);
      }
      for (; k < hi; k += SEG_LANES) {
        s = st_combine(s, SEG_ELEM(c.at, k));
        view_advance(view, &c, SEG_LANES);
      }
    }
#else
    (void)p;
    ulong k = lo + lane;
#ifdef USER_CHUNK
    /* The reduction's chunk form (the plan's state_chunk): RDX_CHUNK of the lane's elements, k,
     * k + SEG_LANES, ..., to one state, then one combine; the rest below, one by one. */
#if SEG_VEC == 4
#define SEG_CHUNK_CAT_(a, b) a##b
#define SEG_CHUNK_CAT(a, b) SEG_CHUNK_CAT_(a, b)
    /* One lane a segment of contiguous elements (step 1): a chunk is RDX_CHUNK neighbours, read
     * 4 at a time where its first one's address is a multiple of 4 elements (from the buffer's
     * start), else one by one: the same values into the same chunk, so the same bits as
     * SEG_VEC 1. */
    typedef SEG_CHUNK_CAT(T, 4) seg_chunk4_t;
    for (; k + RDX_CHUNK <= hi; k += RDX_CHUNK) {
      T0_COMPUTE x[RDX_CHUNK];
      if ((IN_ELEMENT_OFFSET + first + k) % 4 == 0) {
        const global seg_chunk4_t* q = (const global seg_chunk4_t*)(in + first + k);
#pragma unroll
        for (uint u = 0; u < RDX_CHUNK / 4; ++u) {
          const seg_chunk4_t v = q[u];
          x[4 * u] = T0_VALUE(v.s0);
          x[4 * u + 1] = T0_VALUE(v.s1);
          x[4 * u + 2] = T0_VALUE(v.s2);
          x[4 * u + 3] = T0_VALUE(v.s3);
        }
      } else {
        for (uint u = 0; u < RDX_CHUNK; ++u)
          x[u] = T0_VALUE(in[first + k + u]);
      }
      s = st_combine(s, rdx_chunk(x, rdx_base + first + k, 1, 1));
    }
#else
    for (; k + (RDX_CHUNK - 1) * SEG_LANES < hi; k += RDX_CHUNK * SEG_LANES) {
      T0_COMPUTE x[RDX_CHUNK];
      for (uint u = 0; u < RDX_CHUNK; ++u)
        x[u] = T0_VALUE(in[first + (k + u * SEG_LANES) * step]);
      s = st_combine(s, rdx_chunk(x, rdx_base + first + k * step, SEG_LANES * step, 1));
    }
#endif
#endif
    for (; k + (SEG_UNROLL - 1) * SEG_LANES < hi; k += SEG_UNROLL * SEG_LANES) {
      state_t x[SEG_UNROLL];
#pragma unroll
      for (uint u = 0; u < SEG_UNROLL; ++u)
        x[u] = SEG_ELEM(first + (k + u * SEG_LANES) * step, k + u * SEG_LANES);
#pragma unroll
      for (uint u = 0; u < SEG_UNROLL; ++u)
        s = st_combine(s, x[u]);
    }
    for (; k < hi; k += SEG_LANES)
      s = st_combine(s, SEG_ELEM(first + k * step, k));
#endif
  }
#if SEG_LANES > 1
  /* The lanes' tree: levels h >= SEG_LOCAL_LAST through local memory, a barrier each; with
   * SEG_SHUFFLE, lanes 0..31 of each segment (one warp) then hold the states that level 16 reads,
   * and shuffles take the levels below 32. */
#ifdef SEG_SHUFFLE
#define SEG_LOCAL_LAST 32
#else
#define SEG_LOCAL_LAST 1
#endif
#if SEG_LANES > SEG_LOCAL_LAST
  scratch[AT(slot, lane)] = s;
#define SEG_TREE_STEP(h)                             \
  s = st_combine(s, scratch[AT(slot, lane + (h))]); \
  scratch[AT(slot, lane)] = s;
  TREE_LEVELS(SEG_LANES, SEG_LOCAL_LAST, lane, SEG_TREE_STEP)
#endif
#ifdef SEG_SHUFFLE
#pragma unroll
  for (uint h = SEG_LANES / 2 < 16 ? SEG_LANES / 2 : 16; h > 0; h /= 2)
    s = st_combine(s, shfl_down_state(s, h));
#endif
#endif
  if (lane == 0 && r < segments) {
#if PARTS == 1
    SEG_END(r, s, count);
#else
    STORE(r * PARTS + part, s);
#endif
  }
}

#ifdef COL_BLOCK
/* seg_columns (CPUs, the axis form with inner >= 16: the native loop's layout): work-item t
 * (local size 1, so its states live in its group's local memory) takes block
 * b = (t / PARTS) % blocks of COL_BLOCK neighbouring columns (inner positions) of outer slice
 * o = t / PARTS / blocks, blocks = ceil(inner / COL_BLOCK), and part t % PARTS of the rows; it
 * walks its rows in order, so each row's block is one contiguous run, and combines it into the
 * block's states (SEG_COL_VEC, operators whose lanes combine: 16 columns a load, into 16 states
 * at once; otherwise one by one). A column's elements are combined in order, as one lane's,
 * except with SEG_COL_FOLD (below: fewer than 16 columns that divide 16).
 * Launch: global size = outer * blocks * PARTS, local size 1; PARTS = 1 stores the results,
 * PARTS > 1 the partials at r * PARTS + part for seg_finish, as seg_reduce. */
#ifdef COLUMNS
#error "seg_columns replaces seg_reduce's COLUMNS form"
#endif
#ifdef SEG_COL_VEC
#ifndef VCOMBINE
#error "SEG_COL_VEC needs the operator's VCOMBINE"
#endif
#define SCV_CAT_(a, b) a##b
#define SCV_CAT(a, b) SCV_CAT_(a, b)
#define SCV_ACC SCV_CAT(ACC, 16)
/* A loaded vector of 16 stored elements as accumulator values. */
#define SCV_TO_ACC(x) SCV_CAT(convert_, SCV_ACC)(T_VALUES(16, x))
#ifndef ACC_IS_FLOAT
#define AS_VACC SCV_CAT(as_, SCV_ACC)
#define AS_VUACC SCV_CAT(as_, SCV_CAT(UACC, 16))
#endif
/* 16 elements at any element-aligned address: one unaligned load on a CPU. */
typedef SCV_CAT(T, 16) __attribute__((aligned(sizeof(T)))) seg_col_load_t;
#endif
kernel void seg_columns(global const T* in, ulong length, ulong inner, ulong segments,
                        EMPTY_PARAM OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in);
  local state_t st[COL_BLOCK] __attribute__((aligned(128)));
  const ulong t = get_group_id(0);
  const ulong blocks = (inner + COL_BLOCK - 1) / COL_BLOCK;
  const ulong part = t % PARTS, b = (t / PARTS) % blocks, o = t / PARTS / blocks;
  const ulong j0 = b * COL_BLOCK;
  if (o * inner >= segments) return;
  const uint width = (uint)min((ulong)COL_BLOCK, inner - j0);
  /* This part's rows: [lo, hi). */
  const ulong per = (length + PARTS - 1) / PARTS;
  const ulong lo = min(length, part * per), hi = min(length, lo + per);
  for (uint c = 0; c < width; ++c)
    st[c] = st_identity();
  const global T* base = in + o * length * inner + j0;
#ifdef SEG_COL_FOLD
  /* SEG_COL_FOLD columns (2, 4 or 8: inner, one block): the part's rows are one contiguous run,
   * and each of its 16-element loads starts at a row, so lane k of 4 vector accumulators holds
   * column k % SEG_COL_FOLD; the lanes are folded in order at the end, then the rows left. */
  {
#if !defined(SEG_COL_VEC) || COL_BLOCK != SEG_COL_FOLD || 16 % SEG_COL_FOLD
#error "SEG_COL_FOLD: a block of all inner columns, a divisor of 16, for operators with VCOMBINE"
#endif
    const global T* p = base + lo * SEG_COL_FOLD;
    const ulong n = (hi - lo) * SEG_COL_FOLD;
    SCV_ACC v[4];
#pragma unroll
    for (uint u = 0; u < 4; ++u)
      v[u] = (SCV_ACC)(IDENTITY_VALUE);
    ulong k = 0;
    for (; k + 64 <= n; k += 64) {
#pragma unroll
      for (uint u = 0; u < 4; ++u)
        v[u] = VCOMBINE(v[u], SCV_TO_ACC(*(const global seg_col_load_t*)(p + k + 16 * u)));
    }
    for (; k + 16 <= n; k += 16)
      v[0] = VCOMBINE(v[0], SCV_TO_ACC(*(const global seg_col_load_t*)(p + k)));
    ACC lane[16];
    vstore16(VCOMBINE(VCOMBINE(v[0], v[1]), VCOMBINE(v[2], v[3])), 0, lane);
    for (uint c = 0; c < 16; ++c)
      st[c % SEG_COL_FOLD] = combine_values(st[c % SEG_COL_FOLD], lane[c]);
    for (; k < n; ++k)
      st[k % SEG_COL_FOLD] = combine_values(st[k % SEG_COL_FOLD], to_acc(LOAD_T(p, k)));
  }
#else
  for (ulong l = lo; l < hi; ++l) {
    uint c = 0;
#ifdef SEG_COL_VEC
    const global T* row = base + l * inner;
    for (; c + 16 <= width; c += 16) {
      local SCV_ACC* a = (local SCV_ACC*)(st + c); /* 16-state aligned: st is, c is a multiple */
      *a = VCOMBINE(*a, SCV_TO_ACC(*(const global seg_col_load_t*)(row + c)));
    }
#endif
    const ulong at = (ulong)(base - in) + l * inner;
    for (; c < width; ++c)
      st[c] = st_combine(st[c], SEG_ELEM(at + c, l));
  }
#endif
  for (uint c = 0; c < width; ++c) {
    const ulong r = o * inner + j0 + c;
#if PARTS == 1
    STORE(r, SEG_PUBLIC(st[c], length));
#else
    STORE(r * PARTS + part, st[c]);
#endif
  }
}
#endif

/* seg_finish: segment r's PARTS partials (part_v/part_i at r * PARTS ..), combined in order,
 * into its result. One work-item per segment: global size >= segments, any local size. */
kernel void seg_finish(global const ACC* part_v, global const ulong* part_i, SEG_PARAMS,
                       ulong segments, EMPTY_PARAM OUT_PARAMS RESULT_PARAMS CHECK_PARAM) {
  RETURN_IF_BAD;
  const ulong r = get_global_id(0);
  if (r >= segments) return;
  ulong first, count, step;
  SEG_GEOMETRY(r, first, count, step);
  (void)first;
  (void)step;
  (void)count; /* a user's reduction: SEG_PUBLIC does not read it */
  state_t s = st_identity();
  for (ulong p = 0; p < PARTS; ++p)
    s = st_combine(s, st_load(part_v, part_i, r * PARTS + p));
  SEG_END(r, s, count);
}

#ifdef USER_STATE
/* seg_identity and seg_merge (a user's reduction over host inputs in passes: its states combine
 * on the device only): seg_identity sets states [0, count) of `out` to the identity;
 * seg_merge combines states [0, count) of `piece` into states [first, first + count) of `out`,
 * out's on the left. One work-item per state: global size >= count, any local size. */
kernel void seg_identity(global ACC* out, ulong count) {
  const ulong k = get_global_id(0);
  if (k < count) out[k] = st_identity();
}

kernel void seg_merge(global ACC* out, ulong first, global const ACC* piece, ulong count) {
  const ulong k = get_global_id(0);
  if (k < count) out[first + k] = st_combine(out[first + k], piece[k]);
}
#endif

/* seg_check: flags offsets that do not describe segments of an n-element input: bit 1 when
 * off[0] != 0, bit 2 when an offset is past n, bit 4 when one decreases. One work-item per
 * offset (global size >= segments + 1), any local size; *bad is 0 before the launch. */
kernel void seg_check(global const ulong* off, ulong segments, ulong n, global uint* bad) {
  const ulong k = get_global_id(0);
  if (k > segments) return;
  const ulong o = off[k];
  if (k == 0 && o != 0) atomic_or(bad, 1u);
  if (o > n) atomic_or(bad, 2u);
  if (k > 0 && o < off[k - 1]) atomic_or(bad, 4u);
}
