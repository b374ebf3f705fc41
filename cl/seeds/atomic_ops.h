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
 * atomics), long/ulong for 64-bit ones (cl_khr_int64_base_atomics), uint/ulong for a float/double
 * (its bits, or for min/max its order-preserving key). The low bits of a wrapping add or a
 * bitwise op on the extended word are those of the narrow result.
 * IWORD: the word that holds an argmin/argmax index (uint unless the host defines IDX64).
 *
 * Which atomic combines a value into a word: the operator's row (runtime/src/ops/operators.hpp)
 * names it in the generated definitions as ATOMIC_FORM_ADD, _MIN, _MAX, _AND, _OR or _XOR (none
 * for products, a user's reduction and argmin/argmax's index pass); whether the device has it,
 * the host decides (runtime/src/strategies/seeds/atomic.cpp, atomic_native) and says so with
 * COMBINE_NATIVE; the device's atomics come as definitions:
 *   RDX_INT64_EXT      cl_khr_int64_extended_atomics (64-bit min/max/and/or/xor);
 *   RDX_PTX_FLOAT_ADD  NVIDIA's OpenCL: inline PTX atom.global.add.f32/.f64, what CUDA's
 *                      atomicAdd compiles to (global memory only).
 * Native forms: on integers each ATOMIC_FORM_ as its atomic; on floats ATOMIC_FORM_MIN/_MAX as
 * atomic_min/atomic_max of the order-preserving key (NaN skipped) and ATOMIC_FORM_ADD through PTX.
 * COMBINE_NATIVE 0 (no form, float adds without PTX, 64-bit forms other than add without the
 * extension): a compare-exchange loop, which
 * the kernels call once per work-item after a run of elements, so its cost stays bounded. A host
 * that claims a native form the definitions do not give is a compile error. */
#if ACC_BYTES == 8 || defined(IDX64)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#ifdef RDX_INT64_EXT
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#endif

#if ACC_BYTES == 8 && defined(ACC_IS_SIGNED)
#define WORD long
#elif ACC_BYTES == 8
#define WORD ulong
#elif defined(ACC_IS_SIGNED)
#define WORD int
#else
#define WORD uint
#endif

#if ACC_BYTES == 8
#define WIDE_WORD 1
#define W_ADD atom_add
#define W_MIN atom_min
#define W_MAX atom_max
#define W_AND atom_and
#define W_OR atom_or
#define W_XOR atom_xor
#define W_CMPXCHG atom_cmpxchg
#else
#define W_ADD atomic_add
#define W_MIN atomic_min
#define W_MAX atomic_max
#define W_AND atomic_and
#define W_OR atomic_or
#define W_XOR atomic_xor
#define W_CMPXCHG atomic_cmpxchg
#endif

#ifdef IDX64
#define IWORD ulong
#define I_CMPXCHG atom_cmpxchg
#define I_MIN atom_min
#else
#define IWORD uint
#define I_CMPXCHG atomic_cmpxchg
#define I_MIN atomic_min
#endif
#define IWORD_NONE ((IWORD)(~(IWORD)0))

/* VALUE_OP: the operator on values; argmin/argmax first find the extreme value with min/max
 * semantics (NaN propagated; nanargmin/nanargmax: ignored unless every element is NaN), then the
 * first index that holds it (a NaN value: the first NaN). */

/* KEYED: float nanmin/nanmax (the rows whose float atomic is ATOMIC_FORM_MIN/MAX) keep the
 * order-preserving key of the value in the word: unsigned order of keys is the order of the floats,
 * so atomic_min/atomic_max combine them. NaN never enters the word; KEY_NONE (no value yet: every
 * element so far was NaN) lies outside every non-NaN key. */
#if defined(ACC_IS_FLOAT) && (defined(ATOMIC_FORM_MIN) || defined(ATOMIC_FORM_MAX)) && \
    (!defined(WIDE_WORD) || defined(RDX_INT64_EXT))
#define KEYED 1
#define SIGN_BIT ((WORD)1 << (sizeof(WORD) * 8 - 1))
#ifdef ATOMIC_FORM_MIN
#define KEY_NONE (~(WORD)0)
#else
#define KEY_NONE ((WORD)0)
#endif
#endif

#ifdef USER_STATE
/* A user's reduction: its whole state (4 or 8 bytes, zeroed padding included: the host allows no
 * other size) is the word's bits, combined with a compare-exchange loop. */
#if ACC_BYTES != 4 && ACC_BYTES != 8
#error "the atomic strategies combine a user's state of 4 or 8 bytes"
#endif
typedef union {
  ACC s;
  WORD w;
} state_word;
#endif

inline WORD to_word(ACC a) {
#ifdef USER_STATE
  state_word u;
  u.s = a;
  return u.w;
#elif defined(KEYED) && ACC_BYTES == 4
  const uint b = as_uint(a);
  return isnan(a) ? KEY_NONE : (b & SIGN_BIT) ? ~b : (b | SIGN_BIT);
#elif defined(KEYED)
  const ulong b = as_ulong(a);
  return isnan(a) ? KEY_NONE : (b & SIGN_BIT) ? ~b : (b | SIGN_BIT);
#elif defined(ACC_IS_FLOAT) && ACC_BYTES == 4
  return as_uint(a);
#elif defined(ACC_IS_FLOAT)
  return as_ulong(a);
#else
  return (WORD)a;
#endif
}

inline ACC from_word(WORD w) {
#ifdef USER_STATE
  state_word u;
  u.w = w;
  return u.s;
#elif defined(KEYED) && ACC_BYTES == 4
  return w == KEY_NONE ? (ACC)NAN : as_float((w & SIGN_BIT) ? (w & ~SIGN_BIT) : ~w);
#elif defined(KEYED)
  return w == KEY_NONE ? (ACC)NAN : as_double((w & SIGN_BIT) ? (w & ~SIGN_BIT) : ~w);
#elif defined(ACC_IS_FLOAT) && ACC_BYTES == 4
  return as_float(w);
#elif defined(ACC_IS_FLOAT)
  return as_double(w);
#else
  return (ACC)w;
#endif
}

/* The operator on values, and where a word starts (COMBINE_VALUES and IDENTITY_VALUE are those
 * of VALUE_OP). */
inline ACC value_combine(ACC a, ACC b) {
  return COMBINE_VALUES(a, b);
}

inline ACC value_identity(void) {
  return IDENTITY_VALUE;
}

/* CAS_COMBINE(p, x): *p = value_combine(*p, x) with a compare-exchange loop, p a volatile global
 * or local WORD*. The loop stops early when the combination leaves the word unchanged. Its first
 * read is atomic too (a compare-exchange of 0 with 0 changes nothing): a plain read would race
 * with the other work-items' exchanges. */
#define CAS_COMBINE(p, x)                                             \
  do {                                                                \
    WORD old_ = W_CMPXCHG((p), (WORD)0, (WORD)0);                     \
    for (;;) {                                                        \
      const WORD new_ = to_word(value_combine(from_word(old_), (x))); \
      if (new_ == old_) break;                                        \
      const WORD seen_ = W_CMPXCHG((p), old_, new_);                  \
      if (seen_ == old_) break;                                       \
      old_ = seen_;                                                   \
    }                                                                 \
  } while (0)

/* NATIVE_COMBINE(p, x): one hardware atomic, local or global; undefined where there is none.
 * GLOBAL_COMBINE additionally has NVIDIA's float add. */
#if defined(KEYED) && defined(ATOMIC_FORM_MIN)
#define NATIVE_COMBINE(p, x)               \
  do {                                     \
    if (!isnan(x)) W_MIN((p), to_word(x)); \
  } while (0)
#elif defined(KEYED)
#define NATIVE_COMBINE(p, x)               \
  do {                                     \
    if (!isnan(x)) W_MAX((p), to_word(x)); \
  } while (0)
#elif !defined(ACC_IS_FLOAT) && defined(ATOMIC_FORM_ADD)
#define NATIVE_COMBINE(p, x) W_ADD((p), to_word(x))
#elif !defined(ACC_IS_FLOAT) && (!defined(WIDE_WORD) || defined(RDX_INT64_EXT))
#if defined(ATOMIC_FORM_MIN)
#define NATIVE_COMBINE(p, x) W_MIN((p), to_word(x))
#elif defined(ATOMIC_FORM_MAX)
#define NATIVE_COMBINE(p, x) W_MAX((p), to_word(x))
#elif defined(ATOMIC_FORM_AND)
#define NATIVE_COMBINE(p, x) W_AND((p), to_word(x))
#elif defined(ATOMIC_FORM_OR)
#define NATIVE_COMBINE(p, x) W_OR((p), to_word(x))
#elif defined(ATOMIC_FORM_XOR)
#define NATIVE_COMBINE(p, x) W_XOR((p), to_word(x))
#endif
#endif

#if defined(RDX_PTX_FLOAT_ADD) && defined(ACC_IS_FLOAT) && defined(ATOMIC_FORM_ADD)
inline void ptx_float_add(volatile global WORD* p, ACC x) {
  ACC old;
#if ACC_BYTES == 4
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(x) : "memory");
#else
  asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(old) : "l"(p), "d"(x) : "memory");
#endif
}
#define GLOBAL_NATIVE_COMBINE(p, x) ptx_float_add((p), (x))
#elif defined(NATIVE_COMBINE)
#define GLOBAL_NATIVE_COMBINE(p, x) NATIVE_COMBINE(p, x)
#endif

/* GLOBAL_COMBINE: what the host chose (COMBINE_NATIVE). LOCAL_COMBINE: native where a local
 * atomic exists, else the loop (its contention is bounded by the work-group's size). */
#if COMBINE_NATIVE
#ifndef GLOBAL_NATIVE_COMBINE
#error "COMBINE_NATIVE: this accumulator and operator have no native atomic with these definitions"
#endif
#define GLOBAL_COMBINE(p, x) GLOBAL_NATIVE_COMBINE(p, x)
#else
#define GLOBAL_COMBINE(p, x) CAS_COMBINE(p, x)
#endif
#ifdef NATIVE_COMBINE
#define LOCAL_COMBINE(p, x) NATIVE_COMBINE(p, x)
#else
#define LOCAL_COMBINE(p, x) CAS_COMBINE(p, x)
#endif

/* ATOMIC_MIN_INDEX(p, i): *p = min(*p, i) atomically: atomic_min on a 32-bit index, atom_min on a
 * 64-bit one with cl_khr_int64_extended_atomics, a compare-exchange loop otherwise (it stops as
 * soon as the word holds a smaller index). */
#if !defined(IDX64) || defined(RDX_INT64_EXT)
#define ATOMIC_MIN_INDEX(p, i) I_MIN((p), (i))
#else
#define ATOMIC_MIN_INDEX(p, i)                       \
  do {                                               \
    IWORD old_ = I_CMPXCHG((p), (IWORD)0, (IWORD)0); \
    while ((i) < old_) {                             \
      const IWORD seen_ = I_CMPXCHG((p), old_, (i)); \
      if (seen_ == old_) break;                      \
      old_ = seen_;                                  \
    }                                                \
  } while (0)
#endif

/* ELEM_VALUE(p, k): the value element k enters the word with (a user's reduction: its mapped
 * state). */
#ifdef USER_STATE
#define ELEM_VALUE(p, k) ELEM(p, k)
#else
#define ELEM_VALUE(p, k) to_acc(LOAD_T(p, k))

/* argmin/argmax: does element value v hold the extreme value `best`? (-0.0 == +0.0, as in the
 * operator's comparisons; all-NaN input: the first NaN.) */
inline bool holds_best(ACC v, ACC best) {
#ifdef ACC_IS_FLOAT
  return isnan(best) ? isnan(v) : v == best;
#else
  return v == best;
#endif
}
#endif /* USER_STATE */
/* ---- end of the atomic helpers ---- */
#endif /* RDX_ATOMIC_OPS_H */
