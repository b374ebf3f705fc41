/* binned_sum.cl: the reproducible float sum of Determinism AnyDevice: ReproBLAS's binned
 * accumulator of fold 3 (Ahrens, Demmel and Nguyen, ACM TOMS 2020; the scheme and the host's
 * copy of every operation: runtime/src/ops/binned_sum.hpp and .cpp). Bins of EXACT_T (float or
 * double, the accumulator's type; the layout's build options of cl/exact_digits.h) and width
 * BIN_W (13, 40). An element x goes into the three bins of its work-item's state by rounding
 * (x | 1) to each bin's grid in turn: fixed by x and the grid, so the bins hold the same value
 * whatever the order, the work-group size, the grid and the split into calls, chunks or devices,
 * once merged and renormed.
 *
 * Not from a seed: CCCL's deterministic reduce (cub::DeviceReduce with a reproducible sum) keeps
 * the same accumulator in each thread and merges the threads' states in a tree.
 *
 * Launch rules. binned_partial: local size WG, global size groups * WG. Each work-item keeps V
 * lanes of bins sharing one index, takes vectors of V elements at i * V, (i + G) * V, ... (G the
 * global size; UNROLL of them loaded before they are deposited; the last n % V elements one each
 * to the first work-items) or, with BLOCKED (CPUs,
 * WG 1), the range [i * per_item, (i + 1) * per_item) in vectors; at most 2^40 elements a
 * work-item, so that the lanes' int carries stay below 2^31; merges its lanes, and its group
 * merges the work-items' states in local memory into states[group * 7 ...]: the primaries' bits
 * (zero-extended), the carries, the flags (7 words, as ops/binned_sum.hpp's binned_words and a
 * Partial keep them; the host merges them where the plan's host_finish says so). binned_finish:
 * one group of WG merges the `groups` states into out, 7 words of the same form.
 * binned_round_out (EXACT_ROUND, for enqueue_reduce): one work-item turns out's state into exact
 * digits and rounds them (exact_round: the host's round_exact bits). */
#ifndef RDX_COMMON_H
#include "common.h"
#endif
#if MANT_BITS > 32
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#pragma OPENCL FP_CONTRACT OFF

#include "exact_digits.h"
#include "group_tree.h"

#ifndef BIN_W
#error "binned_sum.cl: BIN_W (the bins' width) is missing (ops/binned_sum.cpp)"
#endif

#define FOLD 3
#define STATE_WORDS (2 * FOLD + 1) /* a state's words: primaries' bits, carries, flags */
#define M_DIG (MANT_BITS + 1)
#define MAX_EXP (BIAS + 1)
#define MIN_EXP (3 - MAX_EXP)
/* The last bin whose grid is a normal number (ops/binned_sum.cpp's MAX_INDEX says why). */
#define MAX_INDEX ((MAX_EXP - MIN_EXP + 1 - BIN_W) / BIN_W)
#define EXP_BIAS (MAX_EXP - 2)
#define TOP_FIELD (2 * MAX_EXP - 2)
#define EXPAND_BITS (M_DIG - BIN_W + 1)
#define ENDURANCE (1 << (M_DIG - BIN_W - 2))
#define INF_BITS (((BITS_T)EXP_ONES) << MANT_BITS)

/* V lanes per set: LANES (the plan's "lanes": 2, 4, 8 or 16) on GPUs; 64 bytes on CPUs
 * (BLOCKED), whose work-item also keeps two sets of lanes and alternates blocks of 4 vectors
 * between them (lanes_run, or lanes_add_block where a block needs more), so that the adds into
 * a primary do not all wait for the previous vector's. */
#if defined(BLOCKED) && MANT_BITS > 32
#define V 8
#elif defined(BLOCKED)
#define V 16
#elif defined(LANES)
#define V LANES
#else
#error "binned_sum.cl: LANES (the plan's lanes) is missing"
#endif
#ifndef UNROLL
#error "binned_sum.cl: UNROLL (the plan's unroll: GPU loads in flight) is missing"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VE CAT(EXACT_T, V)
#define VB CAT(BITS_T, V)
#define VI CAT(int, V)
#define VLOAD CAT(vload, V)
#define VSTORE CAT(vstore, V)
#define AS_VE CAT(as_, VE)
#define AS_VB CAT(as_, VB)
#define AS_E(b) RDX_AS(EXACT_T, (BITS_T)(b))
#define CONVERT_VE CAT(convert_, VE)
#define CONVERT_VI CAT(convert_, VI)

/* 2^e as EXACT_T (a normal exponent). */
inline EXACT_T pow2(int e) {
  return AS_E(((BITS_T)(e + BIAS)) << MANT_BITS);
}

/* Bin k's exponent field and base 1.5 * 2^(field - BIAS). */
inline int base_field(int k) {
  k = min(k, MAX_INDEX);
  return k == 0 ? TOP_FIELD : MAX_EXP + M_DIG - BIN_W - k * BIN_W + BIAS;
}
inline EXACT_T base_of(int k) {
  return AS_E((((BITS_T)base_field(k)) << MANT_BITS) | (((BITS_T)1) << (MANT_BITS - 1)));
}
inline int field_of(EXACT_T x) {
  return (int)((AS_BITS(x) >> MANT_BITS) & (BITS_T)EXP_ONES);
}
/* The index of a state whose first primary is p0. */
inline int index_of(EXACT_T p0) {
  return ((MAX_EXP + M_DIG - BIN_W + 1 + EXP_BIAS) - field_of(p0)) / BIN_W;
}
/* The smallest index a state needs for a magnitude with bits mag (finite, not zero). */
inline int index_for(BITS_T mag) {
  const int e = (int)(mag >> MANT_BITS);
  if (e == 0) {
    const int fe = (int)(8 * sizeof(BITS_T)) - (int)clz(mag) + 1 - BIAS - MANT_BITS;
    return min((MAX_EXP - fe) / BIN_W, MAX_INDEX);
  }
  return ((MAX_EXP + EXP_BIAS) - e) / BIN_W;
}
/* The smallest magnitude's bits whose index is below `index` (index_for(mag) < index when
 * mag >= the bound; 1 where subnormals may be: index_for decides). */
inline BITS_T bound_of(int index) {
  const int f = TOP_FIELD - BIN_W * index + 1;
  return f >= 1 ? ((BITS_T)f) << MANT_BITS : (BITS_T)1;
}

/* One state as the groups' scratch and the finish's output hold it: renormed primaries and
 * carries (ReproBLAS's binned floats). */
typedef struct {
  EXACT_T p[FOLD];
  long c[FOLD];
} bstate_t;

/* The same state as integers, for merging: bin i of index `index` (NO_INDEX: no element) holds
 * k[i] ulps of its primary above its base and c[i] carries of 2^R_BITS ulps (a carry's unit,
 * 2^(e - 2), over a primary's ulp, 2^(e - MANT_BITS)). A renormed primary has k < 2^R_BITS, so
 * after istate_normal (the carries of k moved into c) the value of every bin has one form: the
 * state a merge and renorm of the binned floats gives (ReproBLAS's binned_dmdmadd; the host's
 * add_binned), with integer adds in place of float ones. */
#define R_BITS (MANT_BITS - 2)
#define NO_INDEX 0x7fffffff
typedef struct {
  int index;
  long k[FOLD], c[FOLD];
} istate_t;

inline istate_t istate_empty(void) {
  istate_t s;
  s.index = NO_INDEX;
  for (int i = 0; i < FOLD; ++i)
    s.k[i] = s.c[i] = 0;
  return s;
}

/* A renormed state's integers (its primaries and their bases share a binade). */
inline istate_t istate_of(const bstate_t* t) {
  if (t->p[0] == 0) return istate_empty();
  istate_t s;
  s.index = index_of(t->p[0]);
  for (int i = 0; i < FOLD; ++i) {
    s.k[i] = (long)(AS_BITS(t->p[i]) - AS_BITS(base_of(s.index + i)));
    s.c[i] = t->c[i];
  }
  return s;
}

/* s moved to index `to` (at most its own): its bins shift down, those past the fold drop. */
inline void istate_align(istate_t* s, int to) {
  if (s->index == NO_INDEX) {
    s->index = to;
    return;
  }
  const int shift = s->index - to;
  for (int i = FOLD - 1; i >= 0; --i) {
    s->k[i] = i >= shift ? s->k[i - shift] : 0;
    s->c[i] = i >= shift ? s->c[i - shift] : 0;
  }
  s->index = to;
}

inline void istate_normal(istate_t* s) {
  for (int i = 0; i < FOLD; ++i) {
    s->c[i] += s->k[i] >> R_BITS;
    s->k[i] &= (1l << R_BITS) - 1;
  }
}

/* y += x: both at the smaller index, bin by bin, then normal. */
inline void istate_add(istate_t* y, istate_t x) {
  if (x.index == NO_INDEX) return;
  const int to = min(y->index, x.index);
  istate_align(y, to);
  istate_align(&x, to);
  for (int i = 0; i < FOLD; ++i) {
    y->k[i] += x.k[i];
    y->c[i] += x.c[i];
  }
  istate_normal(y);
}

/* A normal state's binned floats. */
inline bstate_t bstate_of(const istate_t* s) {
  bstate_t t;
  for (int i = 0; i < FOLD; ++i) {
    t.p[i] = s->index == NO_INDEX ? 0 : AS_E(AS_BITS(base_of(s->index + i)) + (BITS_T)s->k[i]);
    t.c[i] = s->index == NO_INDEX ? 0 : s->c[i];
  }
  return t;
}

/* The per-vector path, inlined into the kernel's loops whatever the compiler's inliner decides:
 * a lanes_t whose address escapes into a call (PoCL 3.1 and 5 kept the rare lanes_widen out of
 * line) lives in memory, and each of its bins' adds then waits for a store and a load. */
#define LANES_INLINE inline __attribute__((always_inline))

/* A work-item's lanes: V states sharing one index (-1: no element yet). */
typedef struct {
  VE p0, p1, p2;
  VI c0, c1, c2; /* below 2^31: at most 2^40 elements a work-item (the host's grid) */
  int index;
  BITS_T bound; /* index_for(mag) < index from here up */
  uint since;   /* deposits since the last renorm */
} lanes_t;

LANES_INLINE void lanes_renorm(lanes_t* s) {
  if (s->index < 0) return;
#define RENORM_LANE(p, c)                                                       \
  do {                                                                          \
    VB b_ = AS_VB(p);                                                           \
    (c) += CONVERT_VI((b_ >> (VB)(MANT_BITS - 2)) & (VB)3) - (VI)2;             \
    b_ = (b_ & (VB)(~(((BITS_T)1) << (MANT_BITS - 2)))) |                       \
         (VB)(((BITS_T)1) << (MANT_BITS - 1));                                  \
    (p) = AS_VE(b_);                                                            \
  } while (0)
  RENORM_LANE(s->p0, s->c0);
  RENORM_LANE(s->p1, s->c1);
  RENORM_LANE(s->p2, s->c2);
  s->since = 0;
}

/* The lanes ready for a magnitude of index x (binned_dmdupdate on every lane). */
LANES_INLINE void lanes_update(lanes_t* s, int x) {
  const int shift = s->index < 0 ? FOLD : s->index - x;
  if (shift <= 0) return;
  if (shift == 1) {
    s->p2 = s->p1;
    s->c2 = s->c1;
    s->p1 = s->p0;
    s->c1 = s->c0;
  } else if (shift == 2) {
    s->p2 = s->p0;
    s->c2 = s->c0;
    s->p1 = (VE)base_of(x + 1);
    s->c1 = (VI)0;
  } else {
    s->p2 = (VE)base_of(x + 2);
    s->c2 = (VI)0;
    s->p1 = (VE)base_of(x + 1);
    s->c1 = (VI)0;
  }
  s->p0 = (VE)base_of(x);
  s->c0 = (VI)0;
  s->index = x;
  s->bound = x == 0 ? INF_BITS : bound_of(x);
}

LANES_INLINE VE or_one(VE x) {
  return AS_VE(AS_VB(x) | (VB)1);
}

/* x rounded to the grid of the bins p (the |1 keeps the rounding from ties), the rest left in x. */
LANES_INLINE void deposit_level(VE* p, VE* x) {
  VE m = *p;
  VE q = or_one(*x);
  q += m;
  *p = q;
  m -= q;
  *x += m;
}

/* x into bins p0, p1 and p2 below the top one (binned_dmddeposit's last levels lane by lane). */
LANES_INLINE void deposit_bins(VE* p0, VE* p1, VE* p2, VE x) {
  deposit_level(p0, &x);
  deposit_level(p1, &x);
  *p2 += or_one(x);
}

/* A vector of finite elements into the lanes (binned_dmddeposit lane by lane). */
LANES_INLINE void lanes_deposit(lanes_t* s, VE x) {
  VE m, q;
  if (s->index == 0) {
    m = s->p0;
    q = or_one(x * pow2(-EXPAND_BITS));
    q += m;
    s->p0 = q;
    m -= q;
    m *= pow2(EXPAND_BITS - 1);
    x += m;
    x += m;
    deposit_level(&s->p1, &x);
    s->p2 += or_one(x);
  } else {
    deposit_bins(&s->p0, &s->p1, &s->p2, x);
  }
  if (++s->since == ENDURANCE) lanes_renorm(s);
}

/* The largest lane, by halves. */
LANES_INLINE BITS_T lanes_max(VB v) {
#if V == 16
  const CAT(BITS_T, 8) h8 = max(v.lo, v.hi);
#elif V == 8
  const CAT(BITS_T, 8) h8 = v;
#endif
#if V >= 8
  const CAT(BITS_T, 4) h4 = max(h8.lo, h8.hi);
#elif V == 4
  const CAT(BITS_T, 4) h4 = v;
#endif
#if V >= 4
  const CAT(BITS_T, 2) h2 = max(h4.lo, h4.hi);
#else
  const CAT(BITS_T, 2) h2 = v;
#endif
  return max(h2.lo, h2.hi);
}

/* The rare vector with a magnitude at or past the lanes' bound: its non-finite lanes into the
 * flags (and out of the vector), then the lanes ready for the largest magnitude left. */
LANES_INLINE VE lanes_widen(lanes_t* s, VE x, uint* flags) {
  VB mag = AS_VB(x) & (VB)MAG_MASK;
  BITS_T mx = lanes_max(mag);
  if (mx >= INF_BITS) {
    EXACT_T lane[V];
    VSTORE(x, 0, lane);
    for (int j = 0; j < V; ++j) {
      const BITS_T b = AS_BITS(lane[j]);
      if ((b & MAG_MASK) >= INF_BITS) {
        *flags |= (b & MAG_MASK) > INF_BITS ? F_NAN : (b >> SIGN_SHIFT) ? F_NEG_INF : F_POS_INF;
        lane[j] = 0;
      }
    }
    x = VLOAD(0, lane);
    mag = AS_VB(x) & (VB)MAG_MASK;
    mx = lanes_max(mag);
  }
  if (mx != 0 && mx >= s->bound) lanes_update(s, index_for(mx));
  return x;
}

/* A vector of elements (as bins' values) into the lanes; `all_bits` ANDs the elements' bits (a
 * lane's sign bit stays set while its elements are all -0, or non-finite, or nonzero: see
 * binned_partial) until these lanes open bins, after which the result is not -0 anyway (one
 * vector operation less per vector). Zeros before the first nonzero element open no bins. */
LANES_INLINE void lanes_add(lanes_t* s, VE x, VB* all_bits, uint* flags) {
  if (s->index < 0) *all_bits &= AS_VB(x);
  if (any((AS_VB(x) & (VB)MAG_MASK) >= (VB)s->bound)) x = lanes_widen(s, x, flags);
  if (s->index >= 0) lanes_deposit(s, x);
}

/* The lanes' sum as integers: they share one index, so their bins add as they are. */
/* (By value: the loop's lanes_t never has its address taken, so it stays in registers.) */
inline istate_t lanes_state(lanes_t t) {
  lanes_t* s = &t;
  istate_t r = istate_empty();
  if (s->index < 0) return r;
  lanes_renorm(s);
  r.index = s->index;
  BITS_T k0[V], k1[V], k2[V];
  int c0[V], c1[V], c2[V];
  VSTORE(AS_VB(s->p0) - (VB)AS_BITS(base_of(r.index)), 0, k0);
  VSTORE(AS_VB(s->p1) - (VB)AS_BITS(base_of(r.index + 1)), 0, k1);
  VSTORE(AS_VB(s->p2) - (VB)AS_BITS(base_of(r.index + 2)), 0, k2);
  CAT(vstore, V)(s->c0, 0, c0);
  CAT(vstore, V)(s->c1, 0, c1);
  CAT(vstore, V)(s->c2, 0, c2);
  for (int j = 0; j < V; ++j) {
    r.k[0] += (long)k0[j];
    r.k[1] += (long)k1[j];
    r.k[2] += (long)k2[j];
    r.c[0] += c0[j];
    r.c[1] += c1[j];
    r.c[2] += c2[j];
  }
  istate_normal(&r);
  return r;
}

/* The group's states summed into a normal state, which every work-item returns. Local scratch:
 * `index` (the group's smallest), and each work-item's index, FOLD k and FOLD c. Each work-item
 * stores its state before the first barrier and works on local memory after it (its private
 * state is not live across barriers). */
inline istate_t group_sum(local int* index, local int* li, local long* lk, local long* lc,
                          istate_t mine, uint lid) {
  li[lid] = mine.index;
  for (int i = 0; i < FOLD; ++i) {
    lk[lid * FOLD + i] = mine.k[i];
    lc[lid * FOLD + i] = mine.c[i];
  }
  if (lid == 0) *index = NO_INDEX;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (li[lid] != NO_INDEX) atomic_min(index, li[lid]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int to = *index;
  /* This work-item's bins moved to the group's index (empty ones hold zeros already). */
  const int shift = li[lid] == NO_INDEX ? 0 : li[lid] - to;
  for (int i = FOLD - 1; i >= 0; --i) {
    lk[lid * FOLD + i] = i >= shift ? lk[lid * FOLD + i - shift] : 0;
    lc[lid * FOLD + i] = i >= shift ? lc[lid * FOLD + i - shift] : 0;
  }
  /* One step per bin: below 2^(R_BITS + 1) each, normal after every step. */
#define BIN_STEP(h)                                                  \
  for (int i = 0; i < FOLD; ++i) {                                   \
    const long k = lk[lid * FOLD + i] + lk[(lid + (h)) * FOLD + i];  \
    lk[lid * FOLD + i] = k & ((1l << R_BITS) - 1);                   \
    lc[lid * FOLD + i] += lc[(lid + (h)) * FOLD + i] + (k >> R_BITS); \
  }
  TREE_LEVELS(WG, 1, lid, BIN_STEP)
#undef BIN_STEP
  barrier(CLK_LOCAL_MEM_FENCE);
  istate_t r;
  r.index = to;
  for (int i = 0; i < FOLD; ++i) {
    r.k[i] = lk[i];
    r.c[i] = lc[i];
  }
  return r;
}

inline VE load_vector(global const T* in, ulong s) {
  return CONVERT_VE(T_VALUES(V, VLOAD(0, in + s)));
}

/* One element as a vector, the other lanes -0: they add nothing and leave the -0 flag alone. */
inline VE one_element(EXACT_T x) {
  VE v = (VE)(-(EXACT_T)0);
  v.s0 = x;
  return v;
}

#ifdef BLOCKED
/* CPUs: BLOCK vectors from element i into the lanes, their magnitudes checked against the bound
 * once (a vector max each, one lane reduction per block) instead of any() per vector, which
 * PoCL expands for 16 lanes into some 35 instructions and 8 branches. A block with a magnitude
 * at or past the bound (rare: a new largest magnitude, a non-finite element) goes vector by
 * vector through lanes_add; a block before the lanes' first nonzero element is all +-0. */
#define BLOCK 4
LANES_INLINE void lanes_add_block(lanes_t* s, global const T* in, ulong i, VB* all_bits,
                                  uint* flags) {
  VE x[BLOCK];
  VB mag = (VB)0;
#pragma unroll
  for (int b = 0; b < BLOCK; ++b) {
    x[b] = load_vector(in, i + b * V);
    mag = max(mag, AS_VB(x[b]) & (VB)MAG_MASK);
  }
  if (lanes_max(mag) >= s->bound) {
#pragma unroll
    for (int b = 0; b < BLOCK; ++b)
      lanes_add(s, x[b], all_bits, flags);
  } else if (s->index < 0) {
#pragma unroll
    for (int b = 0; b < BLOCK; ++b)
      *all_bits &= AS_VB(x[b]);
  } else {
#pragma unroll
    for (int b = 0; b < BLOCK; ++b)
      lanes_deposit(s, x[b]);
  }
}

/* CPUs: the common case as a loop whose bins are plain variables, which the compiler keeps in
 * registers (through lanes_t, PoCL 3.1 kept them on the stack, each add behind a store and a
 * load). Pairs of blocks from element i, the first into s and the second into s2, while both
 * sets hold bins below the top one (index > 0), every magnitude of the pair is below both
 * bounds, and neither set reaches ENDURANCE deposits: the same deposits and renorms, in the same
 * order, as lanes_add_block on each. Returns where it stopped: e, or a pair that needs
 * lanes_add_block, or the end of the last whole pair. */
LANES_INLINE ulong lanes_run(lanes_t* s, lanes_t* s2, global const T* in, ulong i, ulong e) {
  const BITS_T bound = min(s->bound, s2->bound);
  while (i + 2 * BLOCK * V <= e) {
    const uint room = ENDURANCE - max(s->since, s2->since);
    ulong pairs = min((e - i) / (2 * BLOCK * V), (ulong)(room / BLOCK));
    if (pairs == 0) return i; /* a renorm falls inside the next block */
    VE a0 = s->p0, a1 = s->p1, a2 = s->p2, b0 = s2->p0, b1 = s2->p1, b2 = s2->p2;
    ulong done = 0;
    for (; done < pairs; ++done, i += 2 * BLOCK * V) {
      VE x[2 * BLOCK];
      VB mag = (VB)0;
#pragma unroll
      for (int k = 0; k < 2 * BLOCK; ++k) {
        x[k] = load_vector(in, i + k * V);
        mag = max(mag, AS_VB(x[k]) & (VB)MAG_MASK);
      }
      if (lanes_max(mag) >= bound) break;
#pragma unroll
      for (int k = 0; k < BLOCK; ++k) {
        deposit_bins(&a0, &a1, &a2, x[k]);
        deposit_bins(&b0, &b1, &b2, x[BLOCK + k]);
      }
    }
    s->p0 = a0;
    s->p1 = a1;
    s->p2 = a2;
    s2->p0 = b0;
    s2->p1 = b1;
    s2->p2 = b2;
    s->since += (uint)done * BLOCK;
    s2->since += (uint)done * BLOCK;
    if (s->since == ENDURANCE) lanes_renorm(s);
    if (s2->since == ENDURANCE) lanes_renorm(s2);
    if (done < pairs) return i;
  }
  return i;
}
#endif

/* A merged state as STATE_WORDS words at out: its primaries' bits (zero-extended), its carries
 * and `flags`. */
inline void store_state(global long* out, const istate_t* sum, uint flags) {
  const bstate_t t = bstate_of(sum);
  for (int k = 0; k < FOLD; ++k) {
    out[k] = (long)AS_BITS(t.p[k]);
    out[FOLD + k] = t.c[k];
  }
  out[2 * FOLD] = flags;
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void binned_partial(
    global const T* in, ulong n, ulong per_item, global long* states ELEM_PARAMS) {
  OPEN_INPUT(in);
  local long lk[FOLD * WG], lc[FOLD * WG];
  local int li[WG], group_index;
  local uint group_flags;
  const uint lid = get_local_id(0);
  const ulong gid = get_global_id(0), items = get_global_size(0);
  if (lid == 0) group_flags = 0;
  lanes_t s;
  s.index = -1;
  s.bound = 1;
  s.since = 0;
  s.p0 = s.p1 = s.p2 = (VE)0;
  s.c0 = s.c1 = s.c2 = (VI)0;
  VB all_bits = (VB)(~(BITS_T)0);
  uint f = 0;
#ifdef BLOCKED
  lanes_t s2 = s;
  const ulong b = min(n, gid * per_item), e = min(n, b + per_item);
  ulong i = b;
  while (i + 2 * BLOCK * V <= e) {
    if (s.index > 0 && s2.index > 0) {
      i = lanes_run(&s, &s2, in, i, e);
      if (i + 2 * BLOCK * V > e) break;
    }
    /* The pair the run stopped at (or no run: a set without bins, or the top bin) */
    lanes_add_block(&s, in, i, &all_bits, &f);
    lanes_add_block(&s2, in, i + BLOCK * V, &all_bits, &f);
    i += 2 * BLOCK * V;
  }
  for (; i + 2 * V <= e; i += 2 * V) {
    lanes_add(&s, load_vector(in, i), &all_bits, &f);
    lanes_add(&s2, load_vector(in, i + V), &all_bits, &f);
  }
  for (; i + V <= e; i += V)
    lanes_add(&s, load_vector(in, i), &all_bits, &f);
  for (; i < e; ++i)
    lanes_add(&s, one_element((EXACT_T)LOAD_T(in, i)), &all_bits, &f);
#else
  (void)per_item;
  /* UNROLL vectors loaded, then deposited: the loads in flight that keep a GPU's memory busy. */
  ulong i = gid * V;
  for (; i + ((UNROLL - 1) * items + 1) * V <= n; i += UNROLL * items * V) {
    VE x[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      x[u] = load_vector(in, i + u * items * V);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      lanes_add(&s, x[u], &all_bits, &f);
  }
  for (; i + V <= n; i += items * V)
    lanes_add(&s, load_vector(in, i), &all_bits, &f);
  for (ulong i = (n / V) * V + gid; i < n; i += items)
    lanes_add(&s, one_element((EXACT_T)LOAD_T(in, i)), &all_bits, &f);
#endif
  /* An element other than -0: a nonzero one opened bins, or a +0 cleared a sign bit. */
  if (s.index >= 0 || any(AS_VB(all_bits) < (VB)(((BITS_T)1) << SIGN_SHIFT))) f |= F_NOT_NEG_ZERO;
  istate_t mine = lanes_state(s);
#ifdef BLOCKED
  if (s2.index >= 0) f |= F_NOT_NEG_ZERO;
  istate_add(&mine, lanes_state(s2));
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  if (f) atomic_or(&group_flags, f);
  const istate_t sum = group_sum(&group_index, li, lk, lc, mine, lid);
  if (lid == 0) {
    store_state(states + get_group_id(0) * STATE_WORDS, &sum, group_flags);
  }
}

kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void binned_finish(
    global const long* states, ulong groups, global long* out) {
  local long lk[FOLD * WG], lc[FOLD * WG];
  local int li[WG], group_index;
  local uint all_flags;
  const uint lid = get_local_id(0);
  if (lid == 0) all_flags = 0;
  istate_t mine = istate_empty();
  uint f = 0;
  for (ulong g = lid; g < groups; g += WG) {
    global const long* w = states + g * STATE_WORDS;
    bstate_t x;
    for (int k = 0; k < FOLD; ++k) {
      x.p[k] = AS_E(w[k]);
      x.c[k] = w[FOLD + k];
    }
    istate_add(&mine, istate_of(&x));
    f |= (uint)w[2 * FOLD];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (f) atomic_or(&all_flags, f);
  const istate_t sum = group_sum(&group_index, li, lk, lc, mine, lid);
  if (lid == 0) {
    store_state(out, &sum, all_flags);
  }
}

#ifdef EXACT_ROUND
/* v * 2^pos, pos from the layout's LSB (may be negative only for v == 0). */
inline void add_at(digits_t* a, long v, int pos) {
  if (v != 0) exact_add_scaled(a, v, (uint)pos);
}

/* A finite x * 2^extra into the digits. */
inline void add_value(digits_t* a, EXACT_T x, int extra) {
  const BITS_T b = AS_BITS(x);
  const int e = (int)((b >> MANT_BITS) & (BITS_T)EXP_ONES);
  const BITS_T frac = b & ((((BITS_T)1) << MANT_BITS) - 1);
  const long m = (long)(e ? frac | (((BITS_T)1) << MANT_BITS) : frac);
  const int low = max(e, 1) - BIAS - MANT_BITS;
  add_at(a, (b >> SIGN_SHIFT) ? -m : m, low + extra - LSB);
}

/* enqueue_reduce: one work-item rounds binned_finish's state (`state`, 7 words) of `count`
 * elements into result[index] (R_T: the rounded type's option), as binned_exact and round_exact
 * do on the host. */
kernel void binned_round_out(global const long* state, ulong count, global R_T* result,
                             ulong index) {
  digits_t a;
  a.lo = DIGITS;
  a.hi = -1;
  EXACT_T p[FOLD];
  for (int k = 0; k < FOLD; ++k)
    p[k] = AS_E(state[k]);
  if (p[0] != 0) {
    const int top = index_of(p[0]);
    for (int k = 0; k < FOLD; ++k) {
      const int extra = top == 0 && k == 0 ? EXPAND_BITS : 0;
      add_at(&a, state[FOLD + k], base_field(top + k) - BIAS - 2 + extra - LSB);
      add_value(&a, p[k] - base_of(top + k), extra);
    }
  }
  result[index] = exact_round(&a, (uint)state[2 * FOLD], count);
}
#endif
