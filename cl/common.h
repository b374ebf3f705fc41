/* common.h: element and accumulator types, the reduction operator, its identity and the
 * reduction state, shared by every strategy. The host prepends this file to each .cl file and
 * specialises it with -D definitions; each has a default below so every file compiles alone.
 *
 *   T_CODE, ACC_CODE  element and accumulator type: 0 i8, 1 u8, 2 i16, 3 u16, 4 i32, 5 u32,
 *                     6 i64, 7 u64, 8 f32, 9 f64 (the order of rdx::Type)
 *   OP                one of the OP_* codes below (the order of rdx::Op)
 *   WG                work-group size the kernels are compiled for (a power of two)
 *
 * Semantics (the README's): integer sum and product wrap modulo 2^bits of the accumulator;
 * NaN propagates through sum and product; min, max, argmin and argmax ignore NaN unless every
 * element is NaN; argmin and argmax return the first index of the extreme value.
 * The state of a reduction is an ACC value, plus its index for argmin and argmax; partial
 * states live in two global arrays, values (ACC) and indices (ulong, unused for other ops). */
#ifndef RDX_COMMON_H
#define RDX_COMMON_H

#define OP_SUM 0
#define OP_PROD 1
#define OP_MIN 2
#define OP_MAX 3
#define OP_AND 4
#define OP_OR 5
#define OP_XOR 6
#define OP_ARGMIN 7
#define OP_ARGMAX 8

#ifndef T_CODE
#define T_CODE 8
#endif
#ifndef ACC_CODE
#define ACC_CODE T_CODE
#endif
#ifndef OP
#define OP OP_SUM
#endif
#ifndef WG
#define WG 256
#endif

#if T_CODE == 9 || ACC_CODE == 9
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#if T_CODE == 0
#define T char
#elif T_CODE == 1
#define T uchar
#elif T_CODE == 2
#define T short
#elif T_CODE == 3
#define T ushort
#elif T_CODE == 4
#define T int
#elif T_CODE == 5
#define T uint
#elif T_CODE == 6
#define T long
#elif T_CODE == 7
#define T ulong
#elif T_CODE == 8
#define T float
#elif T_CODE == 9
#define T double
#endif

/* ACC: the accumulator; UACC: its unsigned twin (wrapping arithmetic); UMUL: the unsigned type a
 * product is computed in, at least as wide as int so narrow operands never promote to signed int.
 */
#if ACC_CODE == 0
#define ACC char
#define UACC uchar
#define UMUL uint
#define ACC_MIN CHAR_MIN
#define ACC_MAX CHAR_MAX
#elif ACC_CODE == 1
#define ACC uchar
#define UACC uchar
#define UMUL uint
#define ACC_MIN 0
#define ACC_MAX UCHAR_MAX
#elif ACC_CODE == 2
#define ACC short
#define UACC ushort
#define UMUL uint
#define ACC_MIN SHRT_MIN
#define ACC_MAX SHRT_MAX
#elif ACC_CODE == 3
#define ACC ushort
#define UACC ushort
#define UMUL uint
#define ACC_MIN 0
#define ACC_MAX USHRT_MAX
#elif ACC_CODE == 4
#define ACC int
#define UACC uint
#define UMUL uint
#define ACC_MIN INT_MIN
#define ACC_MAX INT_MAX
#elif ACC_CODE == 5
#define ACC uint
#define UACC uint
#define UMUL uint
#define ACC_MIN 0
#define ACC_MAX UINT_MAX
#elif ACC_CODE == 6
#define ACC long
#define UACC ulong
#define UMUL ulong
#define ACC_MIN LONG_MIN
#define ACC_MAX LONG_MAX
#elif ACC_CODE == 7
#define ACC ulong
#define UACC ulong
#define UMUL ulong
#define ACC_MIN 0
#define ACC_MAX ULONG_MAX
#elif ACC_CODE == 8
#define ACC float
#define ACC_IS_FLOAT 1
#elif ACC_CODE == 9
#define ACC double
#define ACC_IS_FLOAT 1
#endif

#if OP == OP_ARGMIN || OP == OP_ARGMAX
#define INDEXED 1
#endif

/* No index: the value of an identity state of argmin/argmax. */
#define NO_INDEX ULONG_MAX

#ifdef INDEXED
/* The value, explicit zeroed padding up to the index (ST_PAD bytes), the index: a copy of a
 * state never copies uninitialised bytes (Oclgrind --uninitialized checks every kernel). */
#if ACC_CODE == 6 || ACC_CODE == 7 || ACC_CODE == 9
#define ST_PAD 0
#elif ACC_CODE == 4 || ACC_CODE == 5 || ACC_CODE == 8
#define ST_PAD 4
#elif ACC_CODE == 2 || ACC_CODE == 3
#define ST_PAD 6
#else
#define ST_PAD 7
#endif
typedef struct {
  ACC v;
#if ST_PAD
  uchar pad[ST_PAD];
#endif
  ulong i;
} state_t;
#if ST_PAD
#define ST_ZERO_PAD(s)                 \
  do {                                 \
    for (int k_ = 0; k_ < ST_PAD; ++k_) \
      (s).pad[k_] = 0;                 \
  } while (0)
#else
#define ST_ZERO_PAD(s) ((void)0)
#endif
#else
typedef ACC state_t;
#endif

#if OP == OP_PROD && defined(ACC_IS_FLOAT)
/* Float products: a zero factor gives 0 unless the input holds NaN or an infinity. An infinity
 * of the input enters the state as INF_MARK, a quiet NaN with a payload of its own and the
 * infinity's sign, so that it stays apart from an infinity that a product overflowed to: a zero
 * absorbs an overflow (the exact product is 0) but not an input infinity (0 * inf is NaN). NaNs
 * of the input enter as the canonical NaN, so none can look like the mark. The host turns a
 * final INF_MARK back into an infinity (runtime/src/float_prod.hpp has the same rule). */
#if ACC_CODE == 8
#define PROD_BITS uint
#define PROD_AS_BITS as_uint
#define PROD_FROM_BITS as_float
#define PROD_SIGN 0x80000000u
#define PROD_MARK 0x7fc1f000u
#else
#define PROD_BITS ulong
#define PROD_AS_BITS as_ulong
#define PROD_FROM_BITS as_double
#define PROD_SIGN 0x8000000000000000ul
#define PROD_MARK 0x7ff801f000000000ul
#endif

inline bool is_inf_mark(ACC a) {
  return (PROD_AS_BITS(a) & ~PROD_SIGN) == PROD_MARK;
}

/* The sign of a * b on a value of magnitude `bits` (PROD_MARK, or 0 for a zero). */
inline ACC prod_signed(PROD_BITS bits, ACC a, ACC b) {
  return PROD_FROM_BITS(bits | ((PROD_AS_BITS(a) ^ PROD_AS_BITS(b)) & PROD_SIGN));
}

inline ACC prod_combine(ACC a, ACC b) {
  const bool ma = is_inf_mark(a), mb = is_inf_mark(b);
  if (ma || mb) {
    if ((isnan(a) && !ma) || (isnan(b) && !mb)) return (ACC)NAN;
    if ((ma ? b : a) == (ACC)0) return (ACC)NAN; /* 0 * an input infinity */
    return prod_signed(PROD_MARK, a, b);
  }
  const ACC r = a * b;
  /* NaN from two non-NaN factors is 0 * an overflowed product: the exact product is 0. */
  return isnan(r) && !isnan(a) && !isnan(b) ? prod_signed(0, a, b) : r;
}
#endif

/* to_acc: an input element as an accumulator value (a conversion; float products mark an input
 * infinity, above). Every kernel reads elements through it. */
inline ACC to_acc(T x) {
#if OP == OP_PROD && defined(ACC_IS_FLOAT)
  const ACC v = (ACC)x;
  if (isnan(v)) return (ACC)NAN;
  if (isinf(v)) return PROD_FROM_BITS(PROD_MARK | (PROD_AS_BITS(v) & PROD_SIGN));
  return v;
#else
  return (ACC)x;
#endif
}

/* combine_values: the operator on two accumulator values (not used by argmin/argmax). */
inline ACC combine_values(ACC a, ACC b) {
#if OP == OP_SUM
#ifdef ACC_IS_FLOAT
  return a + b;
#else
  return (ACC)((UACC)a + (UACC)b);
#endif
#elif OP == OP_PROD
#ifdef ACC_IS_FLOAT
  return prod_combine(a, b);
#else
  return (ACC)((UMUL)(UACC)a * (UMUL)(UACC)b);
#endif
#elif OP == OP_MIN
#ifdef ACC_IS_FLOAT
  return isnan(a) ? b : isnan(b) ? a : (b < a ? b : a);
#else
  return b < a ? b : a;
#endif
#elif OP == OP_MAX
#ifdef ACC_IS_FLOAT
  return isnan(a) ? b : isnan(b) ? a : (b > a ? b : a);
#else
  return b > a ? b : a;
#endif
#elif OP == OP_AND
  return a & b;
#elif OP == OP_OR
  return a | b;
#elif OP == OP_XOR
  return a ^ b;
#else
  return a;
#endif
}

/* The operator's identity. Float min and max use NaN, which they ignore, so that an all-NaN
 * input gives NaN; the host reports +inf / -inf for empty input. */
inline state_t st_identity(void) {
#ifdef INDEXED
  state_t s;
  s.v = (ACC)0;
  ST_ZERO_PAD(s);
  s.i = NO_INDEX;
  return s;
#elif OP == OP_SUM || OP == OP_OR || OP == OP_XOR
  return (ACC)0;
#elif OP == OP_PROD
  return (ACC)1;
#elif OP == OP_AND
  return (ACC)(~(UACC)0);
#elif (OP == OP_MIN || OP == OP_MAX) && defined(ACC_IS_FLOAT)
  return (ACC)NAN;
#elif OP == OP_MIN
  return (ACC)ACC_MAX;
#else
  return (ACC)ACC_MIN;
#endif
}

inline state_t st_make(ACC v, ulong i) {
#ifdef INDEXED
  state_t s;
  s.v = v;
  ST_ZERO_PAD(s);
  s.i = i;
  return s;
#else
  return v;
#endif
}

/* argmin/argmax: an identity state loses; NaN loses to a number; ties go to the lower index. */
inline state_t st_combine(state_t a, state_t b) {
#ifdef INDEXED
  if (b.i == NO_INDEX) return a;
  if (a.i == NO_INDEX) return b;
#ifdef ACC_IS_FLOAT
  if (isnan(a.v) || isnan(b.v)) {
    if (!isnan(b.v)) return b;
    if (!isnan(a.v)) return a;
    return b.i < a.i ? b : a;
  }
#endif
#if OP == OP_ARGMIN
  if (b.v < a.v) return b;
  if (a.v < b.v) return a;
#else
  if (b.v > a.v) return b;
  if (a.v > b.v) return a;
#endif
  return b.i < a.i ? b : a;
#else
  return combine_values(a, b);
#endif
}

inline state_t st_load(global const ACC* v, global const ulong* ix, ulong k) {
#ifdef INDEXED
  return st_make(v[k], ix[k]);
#else
  return v[k];
#endif
}

inline void st_store(global ACC* v, global ulong* ix, ulong k, state_t s) {
#ifdef INDEXED
  v[k] = s.v;
  ix[k] = s.i;
#else
  v[k] = s;
#endif
}

/* A kernel that reads either the input elements or earlier partial states takes IN_PARAMS and
 * reads with LOAD(k); the host compiles it with -DFROM_PARTIALS for the second form. */
#ifdef FROM_PARTIALS
#define IN_PARAMS global const ACC *in_v, global const ulong *in_i
#define LOAD(k) st_load(in_v, in_i, (k))
#else
#define IN_PARAMS global const T *in_v, global const ulong *in_i
#define LOAD(k) st_make(to_acc(in_v[(k)]), (k))
#endif
#define OUT_PARAMS global ACC *out_v, global ulong *out_i
#define STORE(k, s) st_store(out_v, out_i, (k), (s))

#endif /* RDX_COMMON_H */
