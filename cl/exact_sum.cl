/* exact_sum.cl: the exact sum of float elements (EXACT_T: float or double, the layout's build
 * options of cl/exact_digits.h) as a fixed-point integer: DIGITS digits of 32 bits, each held in
 * a signed 64-bit word with its carries pending, digit k worth 2^(32k + LSB), LSB the smallest
 * subnormal's exponent (-149, -1074), and flags for NaN, the infinities and "an element other than -0". Integer additions do
 * not depend on their order, so every device, grid and chunking gives the same digits; the host
 * rounds them once (runtime/src/ops/exact_sum.cpp has the layout and the flags' values).
 *
 * Not from a seed: the long accumulator of ExBLAS (Collange, Defour, Graillat, Iakymchuk) and
 * Neal's "small superaccumulator", with digits of 32 bits in 64-bit words so that carries wait:
 * an element adds less than 2^32 to two digits (three for double), and a work-item propagates
 * its carries every CARRY_EVERY additions, long before a word could overflow.
 *
 * EXACT_FOLD (devices with doubles): most elements reach the digits through two double
 * accumulators per lane, exact by construction. A window holds elements below 2^p in magnitude,
 * at most 2^k per lane: a1 starts at s1 = 1.5 * 2^(p+k+2), and a1 + x rounds x to a multiple of
 * a1's ulp 2^q1 with an exact rounding error r = x - ((a1 + x) - a1) (Dekker's Fast2Sum: |a1| >
 * |x|, and a1 stays in its binade); a2 sums the r, each a multiple of 2^q2 when no element has a
 * bit below 2^q2, in under 53 bits. a1's bits less s1's and a2 / 2^q2 are then integers that go
 * into the digits once per window. Vectors of V elements whose magnitudes the window cannot take
 * (inf or NaN, only zeros, bits below 2^q2, a double window beyond the normal range) go element
 * by element. The same integers in any order: the digits do not depend on which path an element
 * took.
 *
 * BLOCKED with WG 1 (CPUs, a work-item per core): a work-item takes blocks of BLOCK elements, the
 * window of each block from its largest magnitude; the elements the window cannot take add their
 * signed significands into bins of their exponents (f32: 4 banks of 256 bins taken in turn, so
 * that neighbours with one exponent do not wait for each other; f64: 256 bins of 8 bit
 * positions, the shifted significand's high and low 30 bits apart), below 2^62 for up to 2^32
 * elements (the host gives a work-item no more), moved into the digits once at the end.
 * Otherwise (GPUs) a work-item keeps one window open across its vectors and reopens it when a
 * vector does not fit or after 2^WINDOW_LOG vectors; what the window cannot take goes into the
 * digits directly.
 *
 * Launch rules. exact_partial: local size WG, global size groups * WG; work-item i of G takes
 * vectors of V elements at i * V, (i + G) * V, ... (GPUs; the last n % V elements one each to
 * the first work-items), or with BLOCKED the range [i * per_item, (i + 1) * per_item) (CPUs; with
 * the bins, at most 2^32 elements); its group sums the digits in local memory, digit by digit,
 * into partial[group * DIGITS + k] and ORs the flags into flags[group]. exact_finish: local size
 * WG, global size DIGITS * WG; group k sums the `groups` partials of digit k into out[k], and
 * group 0 ORs the flags into out[DIGITS]. A group's sum of normalised digits is
 * below WG * 2^32, the finish's below groups * WG * 2^32: 2^63 allows 2^31 / WG groups.
 * exact_round_out (EXACT_ROUND, for enqueue_reduce): one work-item, after exact_finish. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#ifdef EXACT_FOLD
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#pragma OPENCL FP_CONTRACT OFF

/* The bins (below) with BLOCKED on one work-item per group: their private arrays are 8-32 KB,
 * which a CPU's group of many work-items would multiply. */
#if defined(BLOCKED) && WG == 1
#define EXACT_BINS
#endif
#include "exact_digits.h"
#include "group_tree.h"

/* A level of the digits' trees (group_tree.h): exact, so any order gives the same sum. */
#define SUM_STEP(h) sum[lid] += sum[lid + (h)];

#ifdef EXACT_FOLD
/* V elements a vector: 16 on a CPU's work-item (its blocks), else 32 bytes. */
#ifdef EXACT_BINS
#define V 16
#define BLOCK 1024 /* elements: 64 vectors, so k = 6 */
#define BLOCK_LOG_VECTORS 6
#elif defined(EXACT_WIDE)
#define V 4
#else
#define V 8
#endif
#define WINDOW_LOG 10 /* GPUs: a window takes at most 2^10 vectors */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VE CAT(EXACT_T, V)
#define VD CAT(double, V)
#define VB CAT(BITS_T, V)
#define VL CAT(long, V)
#define VLOAD CAT(vload, V)
#define AS_VB CAT(as_, VB)
#define AS_VL CAT(as_, VL)
#define CONVERT_VD CAT(convert_, VD)
#define CONVERT_VL CAT(convert_, VL)

/* The largest and smallest lane of a VB, the sum of a VL's lanes. */
#define HORIZONTAL(name, S, op) \
  inline S name(CAT(S, V) v) {  \
    S lane[V];                  \
    CAT(vstore, V)(v, 0, lane); \
    S r = lane[0];              \
    for (int j = 1; j < V; ++j) \
      r = op(r, lane[j]);       \
    return r;                   \
  }
#define PLUS(a, b) ((a) + (b))
HORIZONTAL(lanes_max, BITS_T, max)
HORIZONTAL(lanes_min, BITS_T, min)
HORIZONTAL(lanes_sum, long, PLUS)

/* The largest magnitude's bits of a vector, and the smallest nonzero one's (all ones for none). */
inline VB magnitudes(VE x) {
  return AS_VB(x) & (VB)MAG_MASK;
}
inline VB nonzero_or_ones(VB mag) {
  return select(mag, (VB)(~(BITS_T)0), mag == (VB)0);
}

/* Elements [s, s + V): one load, or a user's mapped values lane by lane. */
inline VE load_vector(global const T* in, ulong s USER_INPUT_PARAMS) {
#ifdef USER_STATE
  EXACT_T lane[V];
  for (int j = 0; j < V; ++j)
    lane[j] = AT(s + j);
  return VLOAD(0, lane);
#else
  return T_VALUES(V, VLOAD(0, in + s));
#endif
}

/* x into the window's accumulators: a1 keeps x rounded to its ulp, a2 the exact rest (a plain
 * window: a2 takes x). */
#define FOLD(w, a1, a2, x)     \
  do {                         \
    const VD x_ = (x);         \
    if ((w).plain) {           \
      (a2) += x_;              \
    } else {                   \
      const VD t_ = (a1) + x_; \
      const VD d_ = t_ - (a1); \
      (a1) = t_;               \
      (a2) += x_ - d_;         \
    }                          \
  } while (0)

/* The window's accumulators into the digits: the lanes' two sums of integers (window_add). */
inline void window_flush(digits_t* acc, const window_t* w, VD a1, VD a2) {
  const long v2 = lanes_sum(CONVERT_VL(a2 * window_scale(w->q2)));
  const long v1 = w->plain ? 0 : lanes_sum(AS_VL(a1) - (VL)as_long(w->s1));
  window_add(acc, w, v1, v2);
}
#endif

#ifdef EXACT_BINS
#define ONE_BIT(k) (((BITS_T)1) << (k))
#ifdef EXACT_WIDE
/* Elements [i, e) into WIDE_BINS bins of 8 bit positions: an element at position pos (as
 * exact_add's) goes to bin pos / 8 as its significand shifted by pos % 8 (f64: under 2^60), its
 * high and low 30 bits apart; bin WIDE_BINS takes the infinities' and NaNs', and is not read. */
#define WIDE_BINS ((EXP_ONES + 6) / 8) /* positions 0 .. EXP_ONES - 2: f64's 256 */
inline void bins_range(global const T* in, ulong i, ulong e, long* hi, long* lo, uint* f,
                       uint* not_neg_zero USER_INPUT_PARAMS) {
  for (; i < e; ++i) {
    const BITS_T bits = AS_BITS(AT(i));
    const uint ex = (uint)(bits >> MANT_BITS) & EXP_ONES;
    const BITS_T frac = bits & (ONE_BIT(MANT_BITS) - 1);
    *not_neg_zero |= bits != ONE_BIT(SIGN_SHIFT);
    *f |= ex == EXP_ONES ? (frac ? F_NAN : (bits >> SIGN_SHIFT) ? F_NEG_INF : F_POS_INF) : 0u;
    const uint pos = ex ? ex - 1 : 0;
    const uint j = ex == EXP_ONES ? WIDE_BINS : pos >> 3;
    const ulong m = (ulong)(ex ? frac | ONE_BIT(MANT_BITS) : frac) << (pos & 7);
    const long sign = (bits >> SIGN_SHIFT) ? -1 : 1;
    hi[j] += sign * (long)(m >> 30);
    lo[j] += sign * (long)(m & 0x3FFFFFFFul);
  }
}
#else
/* Elements [i, e) into four banks of a bin per exponent, element i into bank i % 4; bin EXP_ONES
 * takes the infinities' and NaNs' significands, and is not read. */
#define EXACT_BIN(bank, x)                                                                     \
  do {                                                                                         \
    const BITS_T bits_ = AS_BITS(x);                                                           \
    const uint ex_ = (uint)(bits_ >> MANT_BITS) & EXP_ONES;                                    \
    const BITS_T frac_ = bits_ & (ONE_BIT(MANT_BITS) - 1);                                     \
    *not_neg_zero |= bits_ != ONE_BIT(SIGN_SHIFT);                                             \
    *f |= ex_ == EXP_ONES ? (frac_ ? F_NAN : (bits_ >> SIGN_SHIFT) ? F_NEG_INF : F_POS_INF)   \
                          : 0u;                                                                \
    const long m_ = (long)(ex_ ? frac_ | ONE_BIT(MANT_BITS) : frac_);                          \
    bank[ex_] += (bits_ >> SIGN_SHIFT) ? -m_ : m_;                                             \
  } while (0)
inline void bins_range(global const T* in, ulong i, ulong e, long* b0, long* b1, long* b2, long* b3,
                       uint* f, uint* not_neg_zero USER_INPUT_PARAMS) {
  for (; i + 4 <= e; i += 4) {
    EXACT_BIN(b0, AT(i));
    EXACT_BIN(b1, AT(i + 1));
    EXACT_BIN(b2, AT(i + 2));
    EXACT_BIN(b3, AT(i + 3));
  }
  for (; i < e; ++i)
    EXACT_BIN(b0, AT(i));
}
#endif
#endif

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void exact_partial(
    global const T* in, ulong n, ulong per_item, global long* partial,
    global uint* flags ELEM_PARAMS) {
  OPEN_INPUT(in);
  local long sum[WG];
  local uint group_flags;
  local int group_lo, group_hi;
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0), items = get_global_size(0);
  digits_t digits;
  digits_t* acc = &digits;
  acc->lo = DIGITS;
  acc->hi = -1;
  uint f = 0;
#ifdef BLOCKED
  const ulong b = min(n, gid * per_item), e = min(n, b + per_item);
  (void)items;
#else
  (void)per_item;
#endif
#ifdef EXACT_BINS
  uint not_neg_zero = 0;
#ifdef EXACT_WIDE
  long hi[WIDE_BINS + 1], lo[WIDE_BINS + 1];
  for (int k = 0; k <= WIDE_BINS; ++k)
    hi[k] = lo[k] = 0;
#define BINS hi, lo
#else
  long b0[EXP_ONES + 1], b1[EXP_ONES + 1], b2[EXP_ONES + 1], b3[EXP_ONES + 1];
  for (int k = 0; k <= EXP_ONES; ++k)
    b0[k] = b1[k] = b2[k] = b3[k] = 0;
#define BINS b0, b1, b2, b3
#endif
  ulong i = b;
#ifdef EXACT_FOLD
  /* Blocks: the window of the block's largest magnitude, or the bins. */
  for (; i + BLOCK <= e; i += BLOCK) {
    VB mx = (VB)0, mn = (VB)(~(BITS_T)0);
    for (uint j = 0; j < BLOCK; j += V) {
      const VB mag = magnitudes(load_vector(in, i + j USER_INPUT_ARGS));
      mx = max(mx, mag);
      mn = min(mn, nonzero_or_ones(mag));
    }
    const BITS_T top = lanes_max(mx), low = lanes_min(mn);
    if (top != 0 && (top >> MANT_BITS) != EXP_ONES) {
      window_t w;
      window_open(&w, top_of(top), BLOCK_LOG_VECTORS, low_of(low));
      if (window_takes(&w, top, low)) {
        VD a1 = (VD)w.s1, a2 = (VD)0;
        if (w.plain) {
          for (uint j = 0; j < BLOCK; j += V)
            a2 += CONVERT_VD(load_vector(in, i + j USER_INPUT_ARGS));
        } else {
          for (uint j = 0; j < BLOCK; j += V)
            FOLD(w, a1, a2, CONVERT_VD(load_vector(in, i + j USER_INPUT_ARGS)));
        }
        window_flush(acc, &w, a1, a2);
        not_neg_zero = 1;
        continue;
      }
    }
    bins_range(in, i, i + BLOCK, BINS, &f, &not_neg_zero USER_INPUT_ARGS);
  }
#endif
  bins_range(in, i, e, BINS, &f, &not_neg_zero USER_INPUT_ARGS);
#ifdef EXACT_WIDE
  for (uint j = 0; j < WIDE_BINS; ++j) {
    exact_add_scaled(acc, lo[j], 8 * j);
    exact_add_scaled(acc, hi[j], 8 * j + 30);
  }
#else
  for (uint ex = 0; ex < EXP_ONES; ++ex)
    exact_add_scaled(acc, b0[ex] + b1[ex] + b2[ex] + b3[ex], ex ? ex - 1 : 0);
#endif
#undef BINS
  if (not_neg_zero) f |= F_NOT_NEG_ZERO;
#else /* not EXACT_BINS: the digits directly, through a window with EXACT_FOLD */
  ulong since = 0;
#ifdef EXACT_FOLD
#ifdef BLOCKED
  /* Vectors from b while whole, then the rest of [b, e) one each. */
  const ulong first = b, step = V, stop = e;
  const ulong rest = b + (e - b) / V * V, rest_end = e, rest_step = 1;
#else
  /* Vectors gid, gid + items, ... of the whole ones; the last n % V elements one each. */
  const ulong first = gid * V, step = items * V, stop = n;
  const ulong rest = n / V * V + gid, rest_end = n, rest_step = items;
#endif
  window_t w;
  window_open(&w, 0, WINDOW_LOG, 0);
  bool open = false;
  uint count = 0;
  VD a1 = (VD)0, a2 = (VD)0;
  VB top_bits = (VB)0, low_bits = (VB)0; /* the open window's bounds, for lane compares */
  for (ulong s = first; s + V <= stop; s += step) {
    const VE x = load_vector(in, s USER_INPUT_ARGS);
    const VB mag = magnitudes(x);
    /* Most vectors: the open window takes every lane, one not 0 (no lane reductions). */
    if (open && count < (1u << WINDOW_LOG) &&
        all((mag < top_bits) & ((mag >= low_bits) | (mag == (VB)0))) && any(mag != (VB)0)) {
      FOLD(w, a1, a2, CONVERT_VD(x));
      ++count;
      f |= F_NOT_NEG_ZERO;
      continue;
    }
    const BITS_T top = lanes_max(mag), low = lanes_min(nonzero_or_ones(mag));
    bool fold = top != 0 && (top >> MANT_BITS) != EXP_ONES;
    if (fold && !(open && count < (1u << WINDOW_LOG) && window_takes(&w, top, low))) {
      if (open) {
        window_flush(acc, &w, a1, a2);
        since += 2;
      }
      window_open(&w, top_of(top), WINDOW_LOG, low_of(low));
      open = fold = window_takes(&w, top, low);
      count = 0;
      a1 = (VD)w.s1;
      a2 = (VD)0;
      top_bits = (VB)window_top_bits(&w);
      low_bits = (VB)window_low_bits(&w);
    }
    if (fold) {
      FOLD(w, a1, a2, CONVERT_VD(x));
      ++count;
      f |= F_NOT_NEG_ZERO;
    } else {
      for (uint j = 0; j < V; ++j)
        exact_add(acc, AT(s + j), &f);
      since += V;
    }
    if (since >= CARRY_EVERY) {
      exact_carry(acc);
      since = 0;
    }
  }
  if (open) window_flush(acc, &w, a1, a2);
  for (ulong i = rest; i < rest_end; i += rest_step)
    exact_add(acc, AT(i), &f);
#else
#ifdef BLOCKED
  for (ulong i = b; i < e; ++i) {
#else
  for (ulong i = gid; i < n; i += items) {
#endif
    exact_add(acc, AT(i), &f);
    if (++since == CARRY_EVERY) {
      exact_carry(acc);
      since = 0;
    }
  }
#endif
#endif
  exact_carry(acc);
  /* The group's digits: only those some work-item touched go through the tree. */
  if (lid == 0) {
    group_flags = 0;
    group_lo = DIGITS;
    group_hi = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (f) atomic_or(&group_flags, f);
  if (acc->lo <= acc->hi) {
    atomic_min(&group_lo, acc->lo);
    atomic_max(&group_hi, acc->hi);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int glo = group_lo, ghi = group_hi;
  for (int k = 0; k < DIGITS; ++k) {
    if (k < glo || k > ghi) { /* the same for the whole group */
      if (lid == 0) partial[get_group_id(0) * DIGITS + k] = 0;
      continue;
    }
    sum[lid] = k >= acc->lo && k <= acc->hi ? acc->d[k] : 0;
    TREE_LEVELS(WG, 1, lid, SUM_STEP)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) partial[get_group_id(0) * DIGITS + k] = sum[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* sum[0] is read before the next digit overwrites it */
  }
  if (lid == 0) flags[get_group_id(0)] = group_flags;
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void exact_finish(global const long* partial,
                                                                         global const uint* flags,
                                                                         ulong groups,
                                                                         global long* out) {
  local long sum[WG];
  local uint all_flags;
  const uint lid = get_local_id(0);
  const ulong k = get_group_id(0);
  long s = 0;
  for (ulong g = lid; g < groups; g += WG)
    s += partial[g * DIGITS + k];
  sum[lid] = s;
  TREE_LEVELS(WG, 1, lid, SUM_STEP)
  if (lid == 0) out[k] = sum[0];
  if (k != 0) return;
  if (lid == 0) all_flags = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint f = 0;
  for (ulong g = lid; g < groups; g += WG)
    f |= flags[g];
  if (f) atomic_or(&all_flags, f);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) out[DIGITS] = all_flags;
}

#ifdef EXACT_ROUND
/* enqueue_reduce: one work-item rounds exact_finish's digits and flags (`sums`, DIGITS + 1
 * words) of `count` elements into result[index] (R_T: the rounded type's option). */
kernel void exact_round_out(global const long* sums, ulong count, global R_T* result, ulong index) {
  digits_t a;
  a.lo = 0;
  a.hi = DIGITS - 1;
  for (int k = 0; k < DIGITS; ++k)
    a.d[k] = sums[k];
  result[index] = exact_round(&a, (uint)sums[DIGITS], count);
}
#endif
