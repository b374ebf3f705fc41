/* exact_segments.cl: one exact, correctly rounded float sum per segment (rdx::reduce_segments and
 * rdx::reduce_axis under Determinism AnyDevice and Exact): each segment's elements added into the
 * fixed-point digits of cl/exact_digits.h, integers whose sum does not depend on the order, and
 * rounded once on the device (R_T: the accumulator). The same bits as rdx::reduce of the segment
 * alone.
 *
 * Not from a seed: the digits are cl/exact_sum.cl's (the long accumulator of ExBLAS and Neal's
 * superaccumulator); the grid is cl/segmented.cl's, LANES work-items per segment, without its
 * parts or vector loads. With EXACT_FOLD (devices with doubles) each work-item keeps a running
 * double window over its elements (cl/exact_sum.cl's, element by element, exact by
 * construction), flushed into its digits as two integers; what the window cannot take goes into
 * the digits directly. A segment's LANES work-items then sum the digits any of its group touched
 * in local memory, digit by digit, into its first work-item's, which rounds them.
 *
 * Segment r: OFFSETS: elements off[r] .. off[r+1] - 1 (checked by the host, or by cl/segmented.cl's
 * seg_check with CHECKED: a set flag makes this kernel write nothing); VIEW: the view form,
 * element k at view_first(view, r) + view_step(view, k) (cl/view.h; a user's map takes
 * i = r * count + k); otherwise the axis form, `length` elements from
 * (r / inner) * length * inner + r % inner, `inner` apart.
 *
 * Launch rules: local size WG; global size ceil(segments / (WG / LANES)) * WG; work-item l of
 * group g takes segment g * (WG / LANES) + l / LANES as lane l % LANES (LANES a power of two at
 * most WG; a group smaller than the plan's runs WG lanes). Segment r's value (R_T) goes to byte
 * r * out_stride + out_offset of out: a value array, or a field of a user's states.
 * The build options (runtime/src/ops/exact_sum.cpp's exact_cl_options) give the elements' layout
 * and the result type R_T (cl/exact_digits.h), with EXACT_ROUND; EXACT_FOLD: the windows. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#ifdef EXACT_FOLD
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#pragma OPENCL FP_CONTRACT OFF

#ifndef EXACT_ROUND
#error "exact_segments.cl rounds every segment: EXACT_ROUND and R_T come with the layout's options"
#endif
#include "exact_digits.h"
#include "group_tree.h"

/* A level of a segment's lanes' tree of digits (group_tree.h). */
#define SUM_STEP(h) sum[lid] += sum[lid + (h)];

#ifdef EXACT_FOLD
/* A lane's running window: opened at an element's magnitude plus SEG_HEADROOM binades (larger
 * elements later reopen it less often), always with two accumulators, for at most
 * 2^SEG_WINDOW_LOG elements. */
#define SEG_HEADROOM 4
#define SEG_WINDOW_LOG 10

/* The window's accumulators into the digits (window_add). */
inline void seg_flush(digits_t* acc, const window_t* w, double a1, double a2) {
  window_add(acc, w, as_long(a1) - as_long(w->s1), (long)(a2 * window_scale(w->q2)));
}
#endif

#ifndef LANES
#error "LANES (work-items per segment) is defined by the launcher"
#endif
#if LANES > WG
#define X_LANES WG
#else
#define X_LANES LANES
#endif

/* The segments' geometry, and the offsets' check flag. X_LOAD(at, k): element k of the segment,
 * at index `at` of the input. */
#ifdef OFFSETS
#define X_GEOMETRY global const ulong *off,
#elif defined(VIEW)
#include "view.h"
#define X_GEOMETRY global const long *view,
#else
#define X_GEOMETRY ulong length, ulong inner,
#endif
#if defined(VIEW) && defined(EXACT_FIELD)
#define X_LOAD(at, k) (USER_MAP_FROM_AT(in, (at), seg * count + (k)).EXACT_FIELD)
#else
#define X_LOAD(at, k) AT(at)
#endif
#ifdef CHECKED
#define X_CHECK , global const uint* bad
#else
#define X_CHECK
#endif

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void exact_segments(
    global const T* in, X_GEOMETRY ulong segments, global uchar* out, ulong out_stride,
    ulong out_offset X_CHECK ELEM_PARAMS) {
  OPEN_INPUT(in);
#ifdef CHECKED
  if (*bad) return; /* the same for every work-item: none reaches a barrier */
#endif
  const uint lid = get_local_id(0), lane = lid % X_LANES;
  const ulong seg = get_group_id(0) * (WG / X_LANES) + lid / X_LANES;
  const bool live = seg < segments;
  ulong first = 0, count = 0, stride = 1;
  if (live) {
#ifdef OFFSETS
    first = off[seg];
    count = off[seg + 1] - first;
#elif defined(VIEW)
    first = view_first(view, seg);
    count = view_length(view);
    (void)stride;
#else
    first = seg / inner * length * inner + seg % inner;
    count = length;
    stride = inner;
#endif
  }
  digits_t digits;
  digits_t* acc = &digits;
  acc->lo = DIGITS;
  acc->hi = -1;
  uint f = 0;
  ulong since = 0;
#ifdef EXACT_FOLD
  window_t w;
  bool open = false;
  uint in_window = 0;
  double a1 = 0, a2 = 0;
#endif
  for (ulong j = lane; j < count; j += X_LANES) {
#ifdef VIEW
    const EXACT_T x = X_LOAD(first + view_step(view, j), j);
#else
    const EXACT_T x = X_LOAD(first + j * stride, j);
#endif
#ifdef EXACT_FOLD
    /* Finite and not zero: into the window, reopened for a larger element or a full window. */
    const BITS_T mag = AS_BITS(x) & MAG_MASK;
    if (mag != 0 && (mag >> MANT_BITS) != EXP_ONES) {
      if (open && (top_of(mag) > w.p || in_window == (1u << SEG_WINDOW_LOG))) {
        seg_flush(acc, &w, a1, a2);
        since += 2;
        open = false;
      }
      if (!open) {
        window_open(&w, top_of(mag) + SEG_HEADROOM, SEG_WINDOW_LOG, INT_MIN / 2);
        open = window_takes(&w, mag, mag);
        in_window = 0;
        a1 = w.s1;
        a2 = 0;
      }
      if (open && low_of(mag) >= w.q2) {
        const double xd = (double)x, t = a1 + xd;
        a2 += xd - (t - a1);
        a1 = t;
        ++in_window;
        f |= F_NOT_NEG_ZERO;
        continue;
      }
    }
#endif
    exact_add(acc, x, &f);
    if (++since >= CARRY_EVERY) {
      exact_carry(acc);
      since = 0;
    }
  }
#ifdef EXACT_FOLD
  if (open) seg_flush(acc, &w, a1, a2);
#endif
  exact_carry(acc);
#if X_LANES > 1
  local long sum[WG];
  local uint seg_flags[WG / X_LANES];
  local int group_lo, group_hi;
  if (lid == 0) {
    group_lo = DIGITS;
    group_hi = -1;
  }
  if (lane == 0) seg_flags[lid / X_LANES] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (f) atomic_or(&seg_flags[lid / X_LANES], f);
  if (acc->lo <= acc->hi) {
    atomic_min(&group_lo, acc->lo);
    atomic_max(&group_hi, acc->hi);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int glo = group_lo, ghi = group_hi;
  for (int k = glo; k <= ghi; ++k) { /* the same range for the whole group */
    sum[lid] = k >= acc->lo && k <= acc->hi ? acc->d[k] : 0;
    TREE_LEVELS(X_LANES, 1, lane, SUM_STEP)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 0) {
      touch(acc, k, k);
      acc->d[k] = sum[lid];
    }
    barrier(CLK_LOCAL_MEM_FENCE); /* sum[lid] is read before the next digit overwrites it */
  }
  f = seg_flags[lid / X_LANES];
#endif
  if (lane == 0 && live)
    *(global R_T*)(out + seg * out_stride + out_offset) = exact_round(acc, f, count);
}
