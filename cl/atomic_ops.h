/* atomic_ops.h: combining an ACC value into one global or local word atomically, for the
 * atomic strategies of seed 001 (steps 1 and 2). Included by their .cl files; the host resolves
 * the #include from cl/ when it builds a program. */
#ifndef RDX_ATOMIC_OPS_H
#define RDX_ATOMIC_OPS_H
#ifndef RDX_COMMON_H
#include "common.h"
#endif

/* ---- Atomic helpers shared by atomic_global.cl and atomic_local.cl ----
 * WORD: the atomic word that holds an ACC value: int/uint for accumulators of 8 to 32 bits (an
 * 8- or 16-bit value lives sign- or zero-extended in a 32-bit word: OpenCL has no narrower
 * atomics), long/ulong for 64-bit ones (cl_khr_int64_base_atomics), uint/ulong holding the bits of
 * a float/double. Native atomics where OpenCL 1.2 has them (add; and/or/xor/min/max on 32-bit
 * words); a compare-exchange loop otherwise (products, floats, 64-bit min/max/and/or/xor). The
 * low bits of a wrapping add or a bitwise op on the extended word are those of the narrow result.
 * IWORD: the word that holds an argmin/argmax index (uint unless the host defines IDX64). */
#if ACC_CODE == 6 || ACC_CODE == 7 || ACC_CODE == 9 || defined(IDX64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif

#if ACC_CODE == 0 || ACC_CODE == 2 || ACC_CODE == 4
#define WORD int
#elif ACC_CODE == 1 || ACC_CODE == 3 || ACC_CODE == 5 || ACC_CODE == 8
#define WORD uint
#elif ACC_CODE == 6
#define WORD long
#else
#define WORD ulong
#endif

#if ACC_CODE == 6 || ACC_CODE == 7 || ACC_CODE == 9
#define W_ADD atom_add
#define W_CMPXCHG atom_cmpxchg
#else
#define W_ADD atomic_add
#define W_CMPXCHG atomic_cmpxchg
#define W_NATIVE_BITS 1 /* atomic_and/or/xor/min/max on this word */
#endif

#ifdef IDX64
#define IWORD ulong
#define I_CMPXCHG atom_cmpxchg
#else
#define IWORD uint
#define I_CMPXCHG atomic_cmpxchg
#endif
#define IWORD_NONE ((IWORD)(~(IWORD)0))

inline WORD to_word(ACC a) {
#if ACC_CODE == 8
  return as_uint(a);
#elif ACC_CODE == 9
  return as_ulong(a);
#else
  return (WORD)a;
#endif
}

inline ACC from_word(WORD w) {
#if ACC_CODE == 8
  return as_float(w);
#elif ACC_CODE == 9
  return as_double(w);
#else
  return (ACC)w;
#endif
}

/* The operator on values; argmin/argmax first find the extreme value with min/max semantics
 * (NaN ignored unless every element is NaN), then the first index that holds it. */
#if OP == OP_ARGMIN
#define VOP OP_MIN
#elif OP == OP_ARGMAX
#define VOP OP_MAX
#else
#define VOP OP
#endif

inline ACC value_combine(ACC a, ACC b) {
#if VOP == OP_MIN
#ifdef ACC_IS_FLOAT
  return isnan(a) ? b : isnan(b) ? a : (b < a ? b : a);
#else
  return b < a ? b : a;
#endif
#elif VOP == OP_MAX
#ifdef ACC_IS_FLOAT
  return isnan(a) ? b : isnan(b) ? a : (b > a ? b : a);
#else
  return b > a ? b : a;
#endif
#else
  return combine_values(a, b);
#endif
}

inline ACC value_identity(void) {
#if VOP == OP_MIN || VOP == OP_MAX
#ifdef ACC_IS_FLOAT
  return (ACC)NAN;
#elif VOP == OP_MIN
  return (ACC)ACC_MAX;
#else
  return (ACC)ACC_MIN;
#endif
#else
  return st_identity();
#endif
}

/* ATOMIC_COMBINE(p, x): *p = value_combine(*p, x) atomically, p a volatile global or local WORD*.
 * The compare-exchange loop stops early when the combination leaves the word unchanged. */
#define CAS_COMBINE(p, x)                                             \
  do {                                                                \
    WORD old_ = *(p);                                                 \
    for (;;) {                                                        \
      const WORD new_ = to_word(value_combine(from_word(old_), (x))); \
      if (new_ == old_) break;                                        \
      const WORD seen_ = W_CMPXCHG((p), old_, new_);                  \
      if (seen_ == old_) break;                                       \
      old_ = seen_;                                                   \
    }                                                                 \
  } while (0)

#if !defined(ACC_IS_FLOAT) && VOP == OP_SUM
#define ATOMIC_COMBINE(p, x) W_ADD((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && defined(W_NATIVE_BITS) && VOP == OP_MIN
#define ATOMIC_COMBINE(p, x) atomic_min((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && defined(W_NATIVE_BITS) && VOP == OP_MAX
#define ATOMIC_COMBINE(p, x) atomic_max((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && defined(W_NATIVE_BITS) && VOP == OP_AND
#define ATOMIC_COMBINE(p, x) atomic_and((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && defined(W_NATIVE_BITS) && VOP == OP_OR
#define ATOMIC_COMBINE(p, x) atomic_or((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && defined(W_NATIVE_BITS) && VOP == OP_XOR
#define ATOMIC_COMBINE(p, x) atomic_xor((p), to_word(x))
#else
#define ATOMIC_COMBINE(p, x) CAS_COMBINE(p, x)
#endif

/* ATOMIC_MIN_INDEX(p, i): *p = min(*p, i) atomically (a loop: 64-bit atom_min is an extension of
 * its own, cl_khr_int64_extended_atomics). */
#define ATOMIC_MIN_INDEX(p, i)                       \
  do {                                               \
    IWORD old_ = *(p);                               \
    while ((i) < old_) {                             \
      const IWORD seen_ = I_CMPXCHG((p), old_, (i)); \
      if (seen_ == old_) break;                      \
      old_ = seen_;                                  \
    }                                                \
  } while (0)

/* argmin/argmax: does element value v hold the extreme value `best`? (-0.0 == +0.0, as in the
 * operator's comparisons; all-NaN input: the first NaN.) */
inline bool holds_best(ACC v, ACC best) {
#ifdef ACC_IS_FLOAT
  return isnan(best) ? isnan(v) : v == best;
#else
  return v == best;
#endif
}
/* ---- end of the atomic helpers ---- */
#endif /* RDX_ATOMIC_OPS_H */
