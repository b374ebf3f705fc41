/* common.h: the reduction state and its operations, shared by every strategy. The host puts
 * its generated definitions (runtime/src/ops/cl_definitions.cpp) and this file before each .cl
 * file; the operator and the types are defined there, from the host's one descriptor per
 * operator and type, and nowhere in cl/:
 *
 *   OP_SUM ... OP_NANARGMAX  one code per rdx::Op; OP is this program's, VALUE_OP the operator
 *                         on values (argmin/argmax: OP_MIN/OP_MAX; nanargmin/nanargmax:
 *                         OP_NANMIN/OP_NANMAX)
 *   NAN_IGNORED           float states ignore NaN (nanmin ... nanargmax); else NaN propagates
 *   T, T_COMPUTE          an element's type as stored (what input pointers point to) and as
 *                         computed (f16 and bf16: stored as ushort, computed as float)
 *   T_VALUE(x)            a stored element x (a T) as a T_COMPUTE value
 *   T_VALUES(N, x)        a vector of N stored elements as a vector of N T_COMPUTE values
 *   LOAD_T(p, k)          element k of p (global const T*) as a T_COMPUTE value: every kernel
 *                         reads elements through these three, never converting a T itself
 *   ACC                   the accumulator type (OpenCL C name); ACC_BYTES its size
 *   ACC_IS_FLOAT          defined for float accumulators; integers have UACC (unsigned twin,
 *                         wrapping arithmetic), UMUL (the unsigned type products are taken in,
 *                         never narrower than uint) and ACC_IS_SIGNED when signed
 *   NEEDS_FP64            T or ACC needs cl_khr_fp64 (enabled below; any other extension a
 *                         type needs the definitions enable themselves)
 *   INDEXED, ST_PAD       argmin/argmax: the state carries an index after ST_PAD zeroed bytes
 *   PROD_MARK             float products: the bits of the input-infinity mark (below)
 *   COMBINE_VALUES(a, b)  the operator on two ACC values (argmin/argmax: on their values)
 *   IDENTITY_VALUE        what a partial value starts from (float nanmin/nanmax: NaN, ignored)
 *   VCOMBINE(a, b)        the operator on vectors of ACC, where lanes can combine
 * and by the launcher: WG, the work-group size the kernels are compiled for (a power of two).
 *
 * A user's reduction (runtime/src/ops/user_reduction.cpp) defines USER_STATE instead: OP is
 * OP_USER, ACC is the struct rdx_state of the user's fields (so state_t is too), COMBINE_VALUES
 * and IDENTITY_VALUE call the user's combine and identity, T0 .. T3 are the inputs' types (T is
 * T0), USER_MAP_FROM(p, k) maps element k of every input (the first is p, the others and the
 * chunk's first index come as USER_INPUT_PARAMS), and fast.cl's vector forms USER_MAP_AT(k),
 * USER_LOAD_LANES(k) and USER_MAP_LANE(j, idx); a reduction with a vector form also has fast.cl's
 * USER_VECTOR_MAP forms (USER_VMAP_AT(k), USER_VCOMBINE(a, b), USER_VFIELD, USER_FIELD_T,
 * rdx_field_of, rdx_state_of). Every kernel that reads input elements reads
 * them with ELEM(p, k), ends its parameters with ELEM_PARAMS and opens with OPEN_INPUT(p)
 * (below), so the kernels of every strategy that keeps its states on the device run a user's
 * reduction, and read an input at an element offset, unchanged (the host appends the further
 * arguments: exec/exec.cpp, Exec::args).
 *
 * Semantics (docs/semantics.md): integer sum and product wrap modulo 2^bits of the accumulator;
 * NaN propagates through sum, product, min, max, argmin and argmax (argmin/argmax: the first
 * NaN's index), as in NumPy; nanmin, nanmax, nanargmin and nanargmax ignore NaN unless every
 * element is NaN; argmin and argmax return the first index of the extreme value.
 * The state of a reduction is an ACC value, plus its index for argmin and argmax; partial
 * states live in two global arrays, values (ACC) and indices (ulong, unused for other ops). */
#ifndef RDX_COMMON_H
#define RDX_COMMON_H

#ifndef RDX_DEFINITIONS
#error \
    "librdx kernels are built by the host, after its generated definitions (ops/cl_definitions.cpp)"
#endif
#ifndef WG
#error "WG (the work-group size) is defined by the launcher"
#endif

#ifdef NEEDS_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#define RDX_CAT_(a, b) a##b
#define RDX_CAT(a, b) RDX_CAT_(a, b)

/* An f16 element's bits (a ushort) as a float, one and N at a time: f16's T_VALUE and T_VALUES
 * (its type row). vload_half is core OpenCL C: no cl_khr_fp16 is needed. */
inline float rdx_f16_value(ushort x) {
  return vload_half(0, (const __private half*)&x);
}
inline float2 rdx_f16_values2(ushort2 x) {
  return vload_half2(0, (const __private half*)&x);
}
inline float4 rdx_f16_values4(ushort4 x) {
  return vload_half4(0, (const __private half*)&x);
}
inline float8 rdx_f16_values8(ushort8 x) {
  return vload_half8(0, (const __private half*)&x);
}
inline float16 rdx_f16_values16(ushort16 x) {
  return vload_half16(0, (const __private half*)&x);
}

/* No index: the value of an identity state of argmin/argmax. */
#define NO_INDEX ULONG_MAX

#ifdef INDEXED
/* The value, explicit zeroed padding up to the index (ST_PAD bytes), the index: a copy of a
 * state never copies uninitialised bytes (Oclgrind --uninitialized checks every kernel). */
typedef struct {
  ACC v;
#if ST_PAD
  uchar pad[ST_PAD];
#endif
  ulong i;
} state_t;
#if ST_PAD
#define ST_ZERO_PAD(s)                  \
  do {                                  \
    for (int k_ = 0; k_ < ST_PAD; ++k_) \
      (s).pad[k_] = 0;                  \
  } while (0)
#else
#define ST_ZERO_PAD(s) ((void)0)
#endif
#else
typedef ACC state_t;
#endif

#if OP == OP_PROD && defined(ACC_IS_FLOAT)
/* Float products: a zero factor gives 0 unless the input holds NaN or an infinity. An infinity
 * of the input enters the state as PROD_MARK, a quiet NaN with a payload of its own and the
 * infinity's sign, so that it stays apart from an infinity that a product overflowed to: a zero
 * absorbs an overflow (the exact product is 0) but not an input infinity (0 * inf is NaN). NaNs
 * of the input enter as the canonical NaN, so none can look like the mark. The host turns a
 * final PROD_MARK back into an infinity (runtime/src/ops/float_prod.hpp has the same rule). */
#if ACC_BYTES == 4
#define PROD_BITS uint
#define PROD_AS_BITS as_uint
#define PROD_FROM_BITS as_float
#else
#define PROD_BITS ulong
#define PROD_AS_BITS as_ulong
#define PROD_FROM_BITS as_double
#endif
#define PROD_SIGN ((PROD_BITS)1 << (ACC_BYTES * 8 - 1))

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

/* to_acc: an input element's value (LOAD_T, T_VALUE) as an accumulator value (a conversion;
 * float products mark an input infinity, above). Every kernel reads elements through it. */
#ifndef USER_STATE /* a user's map reads its elements (USER_MAP_AT) */
inline ACC to_acc(T_COMPUTE x) {
#if OP == OP_PROD && defined(ACC_IS_FLOAT)
  const ACC v = (ACC)x;
  if (isnan(v)) return (ACC)NAN;
  if (isinf(v)) return PROD_FROM_BITS(PROD_MARK | (PROD_AS_BITS(v) & PROD_SIGN));
  return v;
#else
  return (ACC)x;
#endif
}
#endif

/* RDX_INLINE: inlined whatever its size. A user's state is a struct: PoCL's LLVM left a large
 * combine (minmax's) a call per element, the states passed through memory (minmax of 2^24 f32
 * elements on 2 cores: 349 ms a call, 75 inlined). */
#define RDX_INLINE inline __attribute__((always_inline))

/* combine_values: the operator on two accumulator values (argmin/argmax: on their values). */
RDX_INLINE ACC combine_values(ACC a, ACC b) {
  return COMBINE_VALUES(a, b);
}

/* The state a partial reduction starts from. argmin/argmax: no index (value 0, never compared);
 * the others: IDENTITY_VALUE. The host reports +inf / -inf for an empty float min / max. */
RDX_INLINE state_t st_identity(void) {
#ifdef INDEXED
  state_t s;
  s.v = (ACC)0;
  ST_ZERO_PAD(s);
  s.i = NO_INDEX;
  return s;
#else
  return IDENTITY_VALUE;
#endif
}

RDX_INLINE state_t st_make(ACC v, ulong i) {
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

/* argmin/argmax: an identity state loses; NaN wins over a number (nanargmin/nanargmax: loses);
 * ties go to the lower index. */
RDX_INLINE state_t st_combine(state_t a, state_t b) {
#ifdef INDEXED
  if (b.i == NO_INDEX) return a;
  if (a.i == NO_INDEX) return b;
#ifdef ACC_IS_FLOAT
  if (isnan(a.v) || isnan(b.v)) {
#ifdef NAN_IGNORED
    if (!isnan(b.v)) return b;
    if (!isnan(a.v)) return a;
#else
    if (!isnan(b.v)) return a;
    if (!isnan(a.v)) return b;
#endif
    return b.i < a.i ? b : a;
  }
#endif
#if VALUE_OP == OP_MIN || VALUE_OP == OP_NANMIN
  if (b.v < a.v) return b;
  if (a.v < b.v) return a;
#elif VALUE_OP == OP_MAX || VALUE_OP == OP_NANMAX
  if (b.v > a.v) return b;
  if (a.v > b.v) return a;
#else
#error "INDEXED is defined for argmin, argmax, nanargmin and nanargmax only"
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

/* ELEM(p, k): the state of input element k, p the kernel's pointer to the (first) input; a user's
 * reduction maps element k of every input. ELEM_PARAMS ends the parameters of a kernel that reads
 * input elements: empty, or a user's reduction's further inputs (USER_INPUT_PARAMS). */
#ifdef USER_STATE
#define ELEM(p, k) USER_MAP_FROM(p, k)
#else
#define ELEM(p, k) st_make(to_acc(LOAD_T(p, k)), (k))
#define USER_INPUT_PARAMS
#define USER_INPUT_ARGS
#define USER_OPEN_INPUTS
#endif
/* An input at an element offset (rdx::BufferAt): built with -DIN_OFFSET (the host adds it to
 * every kernel of a call whose input has one), ELEM_PARAMS begins with the offset, and
 * OPEN_INPUT(p), the first statement of a kernel that reads input elements, moves the kernel's
 * input pointer p (and a user's further inputs, USER_OPEN_INPUTS) there. Element k and index k
 * below count from the offset. A kernel that reads input elements without ELEM_PARAMS (the
 * atomic strategies' index passes) takes IN_OFFSET_PARAM and opens with OPEN_FIRST_INPUT(p).
 * Without IN_OFFSET both are empty: the kernels of inputs at offset 0 are the same as before. */
#ifdef IN_OFFSET
#define IN_OFFSET_PARAM , ulong rdx_in_off
#define OPEN_FIRST_INPUT(p) (p) += rdx_in_off
#define IN_ELEMENT_OFFSET rdx_in_off /* what an aligned load's address counts from */
#else
#define IN_OFFSET_PARAM
#define OPEN_FIRST_INPUT(p) (void)0
#define IN_ELEMENT_OFFSET 0
#endif
#ifdef FROM_PARTIALS
#define ELEM_PARAMS
#define OPEN_INPUT(p)
#else
#define ELEM_PARAMS IN_OFFSET_PARAM USER_INPUT_PARAMS
#define OPEN_INPUT(p) \
  OPEN_FIRST_INPUT(p); \
  USER_OPEN_INPUTS
#endif

/* A kernel that reads either the input elements or earlier partial states takes IN_PARAMS (and
 * ends its parameters with ELEM_PARAMS) and reads with LOAD(k); the host compiles it with
 * -DFROM_PARTIALS for the second form. */
#ifdef FROM_PARTIALS
#define IN_PARAMS global const ACC *in_v, global const ulong *in_i
#define LOAD(k) st_load(in_v, in_i, (k))
#else
#define IN_PARAMS global const T *in_v, global const ulong *in_i
#define LOAD(k) ELEM(in_v, k)
#endif
#define OUT_PARAMS global ACC *out_v, global ulong *out_i
#define STORE(k, s) st_store(out_v, out_i, (k), (s))

#endif /* RDX_COMMON_H */
