/* exact_digits.h: the exact sum's fixed-point integer (cl/exact_sum.cl's header has the scheme):
 * DIGITS digits of 32 bits, each held in a signed 64-bit word with its carries pending, digit k
 * worth 2^(32k + LSB), LSB the smallest subnormal's exponent of EXACT_T; the flags for NaN, the
 * infinities and "an element other than -0"; adding an element or a scaled integer, carrying,
 * the double windows (EXACT_FOLD: cl/exact_sum.cl's header describes them), (exact_round, with
 * EXACT_ROUND) the correctly rounded value, and AT(k), how both kernels read an element.
 * The host passes the layout as build options generated from the type rows
 * (runtime/src/ops/exact_sum.cpp's exact_cl_options): EXACT_T (the element's float type), BITS_T
 * (the unsigned integer of its bits), DIGITS, MANT_BITS, EXP_ONES (the exponent field's all-ones
 * value), BIAS, LSB, SIGN_SHIFT; with EXACT_ROUND, the rounded type's R_T, R_BITS_T, R_PREC,
 * R_LSB, R_BIAS, R_EXP_ONES.
 * runtime/src/ops/exact_sum.cpp has the same layout and flags on the host. Included by
 * cl/exact_sum.cl and cl/exact_segments.cl. */
#ifndef RDX_EXACT_DIGITS_H
#define RDX_EXACT_DIGITS_H

/* AT(k): element k of the kernel's input `in`. A user's reduction (USER_STATE: a float sum field,
 * runtime/src/strategies/run_exact.cpp) maps element k of every input (cl/common.h's ELEM) and takes
 * its field EXACT_FIELD; its further inputs follow as USER_INPUT_PARAMS. */
#ifdef USER_STATE
#define AT(k) (ELEM(in, (k)).EXACT_FIELD)
#else
#define AT(k) LOAD_T(in, k)
#endif

#if !defined(EXACT_T) || !defined(BITS_T) || !defined(DIGITS) || !defined(MANT_BITS) || \
    !defined(EXP_ONES) || !defined(BIAS) || !defined(LSB) || !defined(SIGN_SHIFT)
#error "exact_digits.h: the layout's build options are missing (ops/exact_sum.cpp)"
#endif
/* DIGITS (exact_layout): an addition touches digits k .. k + 2 with k + 2 < DIGITS (the highest
 * position it starts at, 2070 with f64's bins or 253 with f32's, is in digit 64 or 7).
 * EXACT_WIDE: a significand shifted by up to 31 bits passes 64 bits (f64), so an element reaches
 * three digits, and the bins (cl/exact_sum.cl) hold 8 positions each. */
#if MANT_BITS > 32
#define EXACT_WIDE
#endif
#define RDX_AS_(t, x) as_##t(x)
#define RDX_AS(t, x) RDX_AS_(t, x)
#define AS_BITS(x) RDX_AS(BITS_T, x)
#define F_NAN 1u
#define F_POS_INF 2u
#define F_NEG_INF 4u
#define F_NOT_NEG_ZERO 8u
#define CARRY_EVERY 16777216ul
#define BASE 4294967296l
#define MAG_MASK ((((BITS_T)1) << SIGN_SHIFT) - 1)

/* A work-item's digits: d[k] for k in [lo, hi] (none while lo > hi); the others are not even
 * zeroed until touched. Most work-items touch a few digits, and a GPU keeps this array in
 * off-chip memory, which zeroing, carrying and summing all 68 digits of every work-item would
 * cross several times. */
typedef struct {
  long d[DIGITS];
  int lo, hi;
} digits_t;

/* Digits [k0, k1] in use, those new zeroed first. */
inline void touch(digits_t* a, int k0, int k1) {
  if (a->lo > a->hi) {
    for (int k = k0; k <= k1; ++k)
      a->d[k] = 0;
    a->lo = k0;
    a->hi = k1;
    return;
  }
  for (int k = k0; k < a->lo; ++k)
    a->d[k] = 0;
  for (int k = a->hi + 1; k <= k1; ++k)
    a->d[k] = 0;
  a->lo = min(a->lo, k0);
  a->hi = max(a->hi, k1);
}

/* x's exact value into the digits: its significand shifted to its exponent's bit. */
inline void exact_add(digits_t* a, EXACT_T x, uint* flags) {
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
#ifdef EXACT_WIDE
  long d2 = s ? (long)(m >> (64 - s)) : 0;
#endif
  if (neg) {
    d0 = -d0;
    d1 = -d1;
#ifdef EXACT_WIDE
    d2 = -d2;
#endif
  }
  touch(a, (int)k, (int)k + 2); /* k + 2 < DIGITS: see DIGITS */
  a->d[k] += d0;
  a->d[k + 1] += d1;
#ifdef EXACT_WIDE
  a->d[k + 2] += d2;
#endif
}

/* v * 2^pos (v signed, |v| < 2^63; pos as exact_add's) into the digits. */
inline void exact_add_scaled(digits_t* a, long v, uint pos) {
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
  touch(a, (int)k, (int)k + 2);
  a->d[k] += d0;
  a->d[k + 1] += d1;
  a->d[k + 2] += d2;
}

/* Every digit but the last into [0, 2^32), its carry into the next: the same value. */
inline void exact_carry(digits_t* a) {
  if (a->lo > a->hi) return;
  if (a->hi < DIGITS - 1) touch(a, a->lo, a->hi + 1);
  for (int k = a->lo; k < a->hi; ++k) {
    const long low = a->d[k] & (BASE - 1);
    const long carry = (a->d[k] - low) / BASE; /* exact: a multiple of 2^32 */
    a->d[k] = low;
    a->d[k + 1] += carry;
  }
}

#ifdef EXACT_FOLD
/* A window (the file's header): elements below 2^p, at most 2^k per lane, none with a bit below
 * 2^q2. A plain one sums in a2 alone: every lane's sums are multiples of 2^q2 below 2^(q2+53). */
typedef struct {
  int p, q1, q2;
  int plain;
  double s1; /* 1.5 * 2^(p+k+2) */
} window_t;

/* |x| < 2^top_of(bits of |x|). */
inline int top_of(BITS_T mag) {
  return max((int)(mag >> MANT_BITS), 1) - BIAS + 1;
}
/* The lowest bit a nonzero x can have, as a power of two: its exponent's unit in the last place. */
inline int low_of(BITS_T mag) {
  return max((int)(mag >> MANT_BITS), 1) - BIAS - MANT_BITS;
}

/* A window for elements below 2^p: plain when none has a bit below 2^(p+k-53) (low, the lowest
 * bit of the elements it opens for, says), else two accumulators. */
inline void window_open(window_t* w, int p, int k, int low) {
  const int j1 = p + k + 2;
  w->p = p;
  w->plain = low >= p + k - 53;
  w->q1 = j1 - 52;
  w->q2 = w->plain ? max(p + k - 53, LSB)
                   : max(p + 2 * k - 103, LSB); /* |a2| <= 2^k * 2^(q1-1) = 2^(q2+52) */
  w->s1 = as_double(((ulong)(j1 + 1023) << 52) | (1ul << 51));
}

/* Whether w takes a vector whose largest magnitude has bits mx (finite, not 0) and smallest
 * nonzero one mn: below its top, no bit below 2^q2, and its doubles normal and finite. */
inline bool window_takes(const window_t* w, BITS_T mx, BITS_T mn) {
  return top_of(mx) <= w->p && low_of(mn) >= w->q2 && w->q2 >= -1022 &&
         (w->plain ? w->q2 + 53 <= 1023 : w->q1 + 52 <= 1023);
}

/* 2^-q for a window's q (q2 >= -1022: a normal double). */
inline double window_scale(int q) {
  return as_double((ulong)(1023 - q) << 52);
}

/* A window's sums into the digits, exact: v2, a2 in multiples of 2^q2 (below 2^53 in each lane),
 * and v1, a1's ulps (2^q1) above s1 (0 for a plain window). */
inline void window_add(digits_t* acc, const window_t* w, long v1, long v2) {
  exact_add_scaled(acc, v2, (uint)(w->q2 - LSB));
  int q1 = w->q1;
  if (q1 < LSB) { /* every element is a multiple of 2^LSB, so v1 * 2^q1 is too */
    v1 /= (long)1 << (LSB - q1);
    q1 = LSB;
  }
  exact_add_scaled(acc, v1, (uint)(q1 - LSB));
}

/* The same test per lane, for vector compares: an open window takes a finite magnitude m when
 * m < window_top_bits(w) (top_of(m) <= p) and, when m is not 0, m >= window_low_bits(w)
 * (low_of(m) >= q2). */
inline BITS_T window_top_bits(const window_t* w) {
  const int e = w->p + BIAS; /* exponent fields below e */
  return e < 2 ? 0 : e >= EXP_ONES ? (BITS_T)EXP_ONES << MANT_BITS : (BITS_T)e << MANT_BITS;
}
inline BITS_T window_low_bits(const window_t* w) {
  const int e = w->q2 + BIAS + MANT_BITS; /* exponent fields from e */
  return e <= 1 ? 1 : e >= EXP_ONES ? ~(BITS_T)0 : (BITS_T)e << MANT_BITS;
}
#endif

#ifdef EXACT_ROUND
/* The rounded result's type R_T: precision R_PREC, smallest subnormal's exponent R_LSB, bias
 * R_BIAS and all-ones exponent field R_EXP_ONES (ulong), from the build options. */
#if !defined(R_T) || !defined(R_BITS_T) || !defined(R_PREC) || !defined(R_LSB) || \
    !defined(R_BIAS) || !defined(R_EXP_ONES)
#error "exact_digits.h: EXACT_ROUND without the rounded type's build options (ops/exact_sum.cpp)"
#endif
#define R_AS(b) RDX_AS(R_T, (R_BITS_T)(b))

/* Bit i of a magnitude whose digits [lo, hi] are in [0, 2^32) (the others 0), i below 32 * (hi +
 * 1). */
inline ulong exact_bit(const digits_t* a, int i) {
  return i < 0 || (i >> 5) < a->lo ? 0ul : ((ulong)a->d[i >> 5] >> (i & 31)) & 1ul;
}

/* The digits' value (count elements) rounded to nearest, ties to even, in R_T: NaN when an
 * element was NaN or both infinities occurred, else the infinity that occurred, else the rounded
 * value (an infinity past R_T's range); an exact zero is -0 only when every element was -0
 * (count > 0). The same rules as round_exact on the host (runtime/src/ops/exact_sum.cpp). */
inline R_T exact_round(digits_t* a, uint flags, ulong count) {
  if ((flags & F_NAN) || ((flags & F_POS_INF) && (flags & F_NEG_INF))) return (R_T)NAN;
  if (flags & F_POS_INF) return (R_T)INFINITY;
  if (flags & F_NEG_INF) return -(R_T)INFINITY;
  if (a->lo > a->hi) return count > 0 && !(flags & F_NOT_NEG_ZERO) ? -(R_T)0 : (R_T)0;
  /* Only the digits touched, [lo, hi]: the others are 0. Carried, the top one holds the sign. */
  int hi = a->hi;
  for (int k = a->lo; k < hi; ++k) {
    const long low = a->d[k] & (BASE - 1);
    a->d[k + 1] += (a->d[k] - low) / BASE;
    a->d[k] = low;
  }
  const bool neg = a->d[hi] < 0;
  if (neg) {
    for (int k = a->lo; k <= hi; ++k)
      a->d[k] = -a->d[k];
    for (int k = a->lo; k < hi; ++k) {
      const long low = a->d[k] & (BASE - 1);
      a->d[k + 1] += (a->d[k] - low) / BASE;
      a->d[k] = low;
    }
  }
  if (a->d[hi] >= BASE) { /* below 2^63: one more digit holds its carry (hi + 1 < DIGITS) */
    touch(a, hi + 1, hi + 1);
    a->d[hi + 1] = a->d[hi] / BASE;
    a->d[hi] &= BASE - 1;
    ++hi;
  }
  int t = hi;
  while (t >= a->lo && a->d[t] == 0)
    --t;
  if (t < a->lo) return count > 0 && !(flags & F_NOT_NEG_ZERO) ? -(R_T)0 : (R_T)0;
  /* The highest set bit, then the result's last bit as a bit index (above LSB): the top's
   * R_PREC-th bit, or R_T's smallest subnormal's. */
  const int top = 32 * t + 63 - (int)clz((ulong)a->d[t]);
  const int shift = max(top - (R_PREC - 1), R_LSB - LSB);
  ulong q = 0;
  for (int i = top; i >= max(shift, 0); --i)
    q = (q << 1) | exact_bit(a, i);
  int e = max(shift, 0) + LSB; /* the value is q * 2^e, plus the bits below shift */
  if (shift > 0) {
    bool sticky = false;
    for (int i = 32 * a->lo; i < shift - 1 && !sticky; i += 32) {
      const int bits = min(32, shift - 1 - i);
      const ulong mask = bits == 32 ? 0xFFFFFFFFul : (1ul << bits) - 1;
      sticky = ((ulong)a->d[i >> 5] & mask) != 0;
    }
    if (exact_bit(a, shift - 1) && (sticky || (q & 1))) ++q;
  }
  if (q >> R_PREC) { /* rounded up to 2^R_PREC */
    q >>= 1;
    ++e;
  }
  while (!(q >> (R_PREC - 1)) && e > R_LSB) { /* R_T reaches further down than EXACT_T */
    q <<= 1;
    --e;
  }
  ulong b;
  if (q >> (R_PREC - 1)) { /* normal */
    const long field = (long)e + (R_PREC - 1) + R_BIAS;
    b = field >= (long)R_EXP_ONES
            ? R_EXP_ONES << (R_PREC - 1)
            : ((ulong)field << (R_PREC - 1)) | (q & ((1ul << (R_PREC - 1)) - 1));
  } else { /* subnormal: e is R_LSB */
    b = q;
  }
  const R_T v = R_AS(b);
  return neg ? -v : v;
}
#endif

#endif
