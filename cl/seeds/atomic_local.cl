/* atomic_local.cl: every work-item combines its element into its work-group's accumulator in
 * local memory with an atomic operation, then one work-item per group combines that into ONE
 * global accumulator with a global atomic. The order is arbitrary, so float results depend on
 * timing.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", step 2 "AtomicShared":
 * reduceAtomicShared, atomicAdd(&x, in) on a __shared__ x, then thread 0 atomicAdd(result, x)).
 * Differences from the seed: work-items past n skip the atomic but still reach both barriers (any
 * n works); every operator and type, through the device's native atomics where it has them and
 * compare-exchange loops otherwise (see atomic_ops.h; a group's loop has at most WG contenders,
 * the global one a work-item per group); argmin/argmax take two passes, since
 * (value, index) does not fit one atomic word: the extreme value first, then the smallest index
 * that holds it; a user's reduction (USER_STATE) whose state is 4 or 8 bytes: the state's bits
 * are the word, combined with the loops.
 * Launch rules (in order, one queue): al_init with 1 work-item; al_values with global size
 * ceil(n/WG) * WG and local size WG; for argmin/argmax al_indices likewise; al_finish with 1
 * work-item, which writes the result as state 0 of OUT_PARAMS. 64-bit accumulators and -DIDX64
 * (indices past 2^32 - 2) need cl_khr_int64_base_atomics. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#include "seeds/atomic_ops.h"

kernel void al_init(global WORD* acc, global IWORD* best_i) {
  acc[0] = to_word(value_identity());
  best_i[0] = IWORD_NONE;
}

kernel void al_values(global const T* in, ulong n, volatile global WORD* acc ELEM_PARAMS) {
  OPEN_INPUT(in);
  local volatile WORD part;
  const ulong gid = get_global_id(0);
  const bool first = get_local_id(0) == 0;
  if (first) part = to_word(value_identity());
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n) LOCAL_COMBINE(&part, ELEM_VALUE(in, gid));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first) GLOBAL_COMBINE(acc, from_word(part));
}

#ifndef USER_STATE
/* argmin/argmax, second pass: the smallest index whose element holds the extreme value. */
kernel void al_indices(global const T* in, ulong n, global const WORD* acc,
                       volatile global IWORD* best_i IN_OFFSET_PARAM) {
  OPEN_FIRST_INPUT(in);
  local volatile IWORD part;
  const ulong gid = get_global_id(0);
  const bool first = get_local_id(0) == 0;
  if (first) part = IWORD_NONE;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gid < n && holds_best(to_acc(LOAD_T(in, gid)), from_word(acc[0]))) {
    const IWORD i = (IWORD)gid;
    ATOMIC_MIN_INDEX(&part, i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (first && part != IWORD_NONE) {
    const IWORD i = part;
    ATOMIC_MIN_INDEX(best_i, i);
  }
}
#endif

kernel void al_finish(global const T* in, global const WORD* acc, global const IWORD* best_i,
                      OUT_PARAMS IN_OFFSET_PARAM) {
  OPEN_FIRST_INPUT(in);
#ifdef INDEXED
  const ulong i = best_i[0];
  STORE(0, st_make(to_acc(LOAD_T(in, i)), i));
#else
  STORE(0, from_word(acc[0]));
#endif
}
