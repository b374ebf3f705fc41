/* exact_sum.cl: the exact sum of float elements (T float, or double with EXACT_F64) as a
 * fixed-point integer: DIGITS digits of 32 bits, each held in a signed 64-bit word with its
 * carries pending, digit k worth 2^(32k + LSB), LSB the smallest subnormal's exponent (-149,
 * -1074), and flags for NaN, the infinities and "an element other than -0". Integer additions do
 * not depend on their order, so every device, grid and chunking gives the same digits; the host
 * rounds them once (runtime/src/ops/exact_sum.cpp has the layout and the flags' values).
 *
 * Not from a seed: the long accumulator of ExBLAS (Collange, Defour, Graillat, Iakymchuk) and
 * Neal's "small superaccumulator", with digits of 32 bits in 64-bit words so that carries wait:
 * an element adds less than 2^32 to two digits (three for double), and a work-item propagates
 * its carries every CARRY_EVERY elements, long before a word could overflow.
 *
 * BLOCKED with WG 1 (CPUs, a work-item per core): a work-item first adds each element's signed
 * significand into a bin of its exponent (f32: 4 banks of 256 bins taken in turn, so that
 * neighbours with one exponent do not wait for each other; f64: 256 bins of 8 bit positions, the
 * shifted significand's high and low 30 bits apart), below 2^62 for up to 2^32 elements (the host
 * gives a work-item no more), then moves the bins into the digits once. Otherwise (GPUs) each
 * element goes into the digits directly.
 *
 * Launch rules. exact_partial: local size WG, global size groups * WG; work-item i of G takes
 * elements i, i + G, ... (GPUs), or with BLOCKED the range [i * per_item, (i + 1) * per_item)
 * (CPUs; with the bins, at most 2^32 elements); its group sums the digits in local memory, digit by
 * digit, into partial[group * DIGITS + k] and ORs the flags into flags[group]. exact_finish: one
 * work-item per digit (global size >= DIGITS, any local size) sums the `groups` partials of digit k
 * into out[k]; work-item 0 ORs the flags into out_flags[0]. A group's sum of normalised digits is
 * below WG * 2^32, the finish's below groups * WG * 2^32: 2^63 allows 2^31 / WG groups. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#ifdef EXACT_F64
#define DIGITS 68
#define MANT_BITS 52
#define EXP_ONES 0x7FF
#define BITS_T ulong
#define AS_BITS as_ulong
#define SIGN_SHIFT 63
#else
#define DIGITS 11
#define MANT_BITS 23
#define EXP_ONES 0xFF
#define BITS_T uint
#define AS_BITS as_uint
#define SIGN_SHIFT 31
#endif
/* The bins (below) with BLOCKED on one work-item per group: their private arrays are 8-32 KB,
 * which a CPU's group of many work-items would multiply. */
#if defined(BLOCKED) && WG == 1
#define EXACT_BINS
#endif
#define F_NAN 1u
#define F_POS_INF 2u
#define F_NEG_INF 4u
#define F_NOT_NEG_ZERO 8u
#define CARRY_EVERY 16777216ul
#define BASE 4294967296l

/* x's exact value into the digits: its significand shifted to its exponent's bit. */
inline void exact_add(long* acc, T x, uint* flags) {
  const BITS_T b = AS_BITS(x);
  const uint e = (uint)(b >> MANT_BITS) & EXP_ONES;
  const BITS_T frac = b & ((((BITS_T)1) << MANT_BITS) - 1);
  const bool neg = (b >> SIGN_SHIFT) != 0;
  if (b != (((BITS_T)1) << SIGN_SHIFT)) *flags |= F_NOT_NEG_ZERO;
  if (e == EXP_ONES) {
    *flags |= frac ? F_NAN : neg ? F_NEG_INF : F_POS_INF;
    return;
  }
  const ulong m = (ulong)(e ? frac | (((BITS_T)1) << MANT_BITS) : frac);
  const uint pos = e ? e - 1 : 0; /* bit of m's lowest bit above LSB */
  const uint k = pos >> 5, s = pos & 31;
  const ulong lo = m << s;
  long d0 = (long)(lo & 0xFFFFFFFFul), d1 = (long)(lo >> 32);
#ifdef EXACT_F64
  long d2 = s ? (long)(m >> (64 - s)) : 0;
#endif
  if (neg) {
    d0 = -d0;
    d1 = -d1;
#ifdef EXACT_F64
    d2 = -d2;
#endif
  }
  acc[k] += d0;
  acc[k + 1] += d1;
#ifdef EXACT_F64
  acc[k + 2] += d2;
#endif
}

/* v * 2^pos (v signed, |v| < 2^63; pos as exact_add's) into the digits. */
inline void exact_add_scaled(long* acc, long v, uint pos) {
  if (v == 0) return;
  const uint k = pos >> 5, s = pos & 31;
  const ulong u = v < 0 ? (ulong)(-v) : (ulong)v;
  const ulong lo = u << s;
  long d0 = (long)(lo & 0xFFFFFFFFul), d1 = (long)(lo >> 32), d2 = s ? (long)(u >> (64 - s)) : 0;
  if (v < 0) {
    d0 = -d0;
    d1 = -d1;
    d2 = -d2;
  }
  acc[k] += d0;
  acc[k + 1] += d1;
  acc[k + 2] += d2;
}

/* Every digit but the last into [0, 2^32), its carry into the next: the same value. */
inline void exact_carry(long* acc) {
  for (int k = 0; k < DIGITS - 1; ++k) {
    const long low = acc[k] & (BASE - 1);
    const long carry = (acc[k] - low) / BASE; /* exact: a multiple of 2^32 */
    acc[k] = low;
    acc[k + 1] += carry;
  }
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void exact_partial(global const T* in,
                                                                          ulong n, ulong per_item,
                                                                          global long* partial,
                                                                          global uint* flags) {
  local long sum[WG];
  local uint group_flags;
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0), items = get_global_size(0);
  long acc[DIGITS];
  for (int k = 0; k < DIGITS; ++k)
    acc[k] = 0;
  uint f = 0;
  ulong since = 0;
#ifdef BLOCKED
  const ulong b = min(n, gid * per_item), e = min(n, b + per_item);
  (void)items;
#else
  /* A grid stride: the range is [gid, n) in steps of items. */
  const ulong b = gid, e = n;
  (void)per_item;
#endif
#ifdef EXACT_BINS
  (void)since;
  uint not_neg_zero = 0;
#ifdef EXACT_F64
  /* 256 bins of 8 bit positions: an element at position pos (as exact_add's) goes to bin
   * pos / 8 as its significand shifted by pos % 8 (under 2^60), its high and low 30 bits apart;
   * bin 256 takes the infinities' and NaNs', and is not read. */
  long hi[257], lo[257];
  for (int k = 0; k < 257; ++k)
    hi[k] = lo[k] = 0;
  for (ulong i = b; i < e; ++i) {
    const ulong bits = as_ulong(in[i]);
    const uint ex = (uint)(bits >> 52) & 0x7FF;
    const ulong frac = bits & 0xFFFFFFFFFFFFFul;
    not_neg_zero |= bits != 0x8000000000000000ul;
    f |= ex == EXP_ONES ? (frac ? F_NAN : (bits >> 63) ? F_NEG_INF : F_POS_INF) : 0u;
    const uint pos = ex ? ex - 1 : 0;
    const uint j = ex == EXP_ONES ? 256 : pos >> 3;
    const ulong m = (ex ? frac | 0x10000000000000ul : frac) << (pos & 7);
    const long sign = (bits >> 63) ? -1 : 1;
    hi[j] += sign * (long)(m >> 30);
    lo[j] += sign * (long)(m & 0x3FFFFFFFul);
  }
  for (uint j = 0; j < 256; ++j) {
    exact_add_scaled(acc, lo[j], 8 * j);
    exact_add_scaled(acc, hi[j], 8 * j + 30);
  }
#else
  /* Four banks, element i into bank i % 4; bin EXP_ONES takes the infinities' and NaNs'
   * significands, and is not read. */
  long b0[EXP_ONES + 1], b1[EXP_ONES + 1], b2[EXP_ONES + 1], b3[EXP_ONES + 1];
  for (int k = 0; k <= EXP_ONES; ++k)
    b0[k] = b1[k] = b2[k] = b3[k] = 0;
#define EXACT_BIN(bank, x)                                                               \
  do {                                                                                   \
    const uint bits_ = as_uint(x);                                                       \
    const uint ex_ = (bits_ >> 23) & 0xFF, frac_ = bits_ & 0x7FFFFF;                     \
    not_neg_zero |= bits_ != 0x80000000u;                                                \
    f |= ex_ == EXP_ONES ? (frac_ ? F_NAN : (bits_ >> 31) ? F_NEG_INF : F_POS_INF) : 0u; \
    const long m_ = (long)(ex_ ? frac_ | 0x800000u : frac_);                             \
    bank[ex_] += (bits_ >> 31) ? -m_ : m_;                                               \
  } while (0)
  ulong i = b;
  for (; i + 4 <= e; i += 4) {
    EXACT_BIN(b0, in[i]);
    EXACT_BIN(b1, in[i + 1]);
    EXACT_BIN(b2, in[i + 2]);
    EXACT_BIN(b3, in[i + 3]);
  }
  for (; i < e; ++i)
    EXACT_BIN(b0, in[i]);
  for (uint ex = 0; ex < EXP_ONES; ++ex)
    exact_add_scaled(acc, b0[ex] + b1[ex] + b2[ex] + b3[ex], ex ? ex - 1 : 0);
#endif
  if (not_neg_zero) f |= F_NOT_NEG_ZERO;
  exact_carry(acc);
#else
#ifdef BLOCKED
  for (ulong i = b; i < e; ++i) {
#else
  for (ulong i = b; i < e; i += items) {
#endif
    exact_add(acc, in[i], &f);
    if (++since == CARRY_EVERY) {
      exact_carry(acc);
      since = 0;
    }
  }
  exact_carry(acc);
#endif
  if (lid == 0) group_flags = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (f) atomic_or(&group_flags, f);
  for (int k = 0; k < DIGITS; ++k) {
    sum[lid] = acc[k];
    for (uint h = WG / 2; h > 0; h /= 2) {
      barrier(CLK_LOCAL_MEM_FENCE);
      if (lid < h) sum[lid] += sum[lid + h];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) partial[get_group_id(0) * DIGITS + k] = sum[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* sum[0] is read before the next digit overwrites it */
  }
  if (lid == 0) flags[get_group_id(0)] = group_flags;
}

kernel void exact_finish(global const long* partial, global const uint* flags, ulong groups,
                         global long* out, global uint* out_flags) {
  const ulong k = get_global_id(0);
  if (k >= DIGITS) return;
  long s = 0;
  for (ulong g = 0; g < groups; ++g)
    s += partial[g * DIGITS + k];
  out[k] = s;
  if (k == 0) {
    uint f = 0;
    for (ulong g = 0; g < groups; ++g)
      f |= flags[g];
    out_flags[0] = f;
  }
}
