/* atomic_global.cl: every work-item combines its element into ONE global accumulator with an
 * atomic operation; the order of the combinations is arbitrary, so float results depend on timing.
 * Seed: 001_d08aa7e3f066d68b.txt ("A Study in Reduction", step 1 "AtomicGlobal":
 * reduceAtomicGlobal, atomicAdd(result, input[id])). Differences from the seed: work-items past n
 * do nothing (any n works); every operator and type, through the device's native atomics where it
 * has them (COMBINE_NATIVE, see atomic_ops.h: one atomic per element, as in the seed); where only
 * a compare-exchange loop exists, a bounded grid in which each work-item first combines a
 * grid-stride run of elements, so the loop runs once per work-item and not once per element
 * (per element, a million work-items contending for one word did not finish in minutes on an
 * H200); argmin/argmax take two passes, since (value, index) does not fit one atomic word: the
 * extreme value first, then the smallest index that holds it; a user's reduction (USER_STATE)
 * whose state is 4 or 8 bytes: the state's bits are the word, combined with the loop.
 * Launch rules (in order, one queue): ag_init with 1 work-item; ag_values over n work-items
 * (COMBINE_NATIVE) or over the host's bounded grid (any local size); for argmin/argmax
 * ag_indices over n work-items; ag_finish with 1 work-item, which writes the result as state 0
 * of OUT_PARAMS. 64-bit accumulators and -DIDX64 (indices past
 * 2^32 - 2) need cl_khr_int64_base_atomics. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#include "seeds/atomic_ops.h"

kernel void ag_init(global WORD* acc, global IWORD* best_i) {
  acc[0] = to_word(value_identity());
  best_i[0] = IWORD_NONE;
}

kernel void ag_values(global const T* in, ulong n, volatile global WORD* acc ELEM_PARAMS) {
  OPEN_INPUT(in);
  const ulong gid = get_global_id(0);
  if (gid >= n) return;
#if COMBINE_NATIVE
  GLOBAL_COMBINE(acc, ELEM_VALUE(in, gid));
#else
  const ulong stride = get_global_size(0);
  ACC s = ELEM_VALUE(in, gid);
  for (ulong i = gid + stride; i < n; i += stride)
    s = value_combine(s, ELEM_VALUE(in, i));
  GLOBAL_COMBINE(acc, s);
#endif
}

#ifndef USER_STATE
/* argmin/argmax, second pass: the smallest index whose element holds the extreme value. */
kernel void ag_indices(global const T* in, ulong n, global const WORD* acc,
                       volatile global IWORD* best_i IN_OFFSET_PARAM) {
  OPEN_FIRST_INPUT(in);
  const ulong gid = get_global_id(0);
  if (gid < n && holds_best(to_acc(LOAD_T(in, gid)), from_word(acc[0]))) {
    const IWORD i = (IWORD)gid;
    ATOMIC_MIN_INDEX(best_i, i);
  }
}
#endif

kernel void ag_finish(global const T* in, global const WORD* acc, global const IWORD* best_i,
                      OUT_PARAMS IN_OFFSET_PARAM) {
  OPEN_FIRST_INPUT(in);
#ifdef INDEXED
  const ulong i = best_i[0];
  STORE(0, st_make(to_acc(LOAD_T(in, i)), i));
#else
  STORE(0, from_word(acc[0]));
#endif
}
