/* pow2_partials.cl: two launches of one kernel; per-work-group partials, then ONE work-group over
 * the partials, its size the partial count rounded up to a power of two, padded with the identity.
 * Seed: 002_0d1a8b369643276f.txt ("Parallel Patterns, Part 3"): reduceKernel, launched as
 * <<<gridSize, 256>>> on the input and then <<<1, gridSize2>>> on the intermediate results, where
 * gridSize2 is gridSize rounded up to a power of two; local memory sized at launch (the seed's
 * extern __shared__); the interleaved tree "thread_id % (2 * distance) == 0", distance doubling;
 * any associative operator (st_combine), the missing slots filled with its identity.
 * Difference from the seed: the seed's second launch needs one work-item per first-launch group,
 * which breaks once ceil(n/256) exceeds the device's maximum work-group size. Here the first launch
 * uses a bounded number of groups G (at most the largest power of two <= min(the kernel's and the
 * device's maximum work-group size, local memory / state size, 1024)), and each work-item first
 * combines its share of the input (a grid-stride loop: i = gid, gid + global size, ...), so the
 * partial count G always fits one work-group of the second launch.
 * Launch rules: both launches: local size = L (a power of two), global size = groups * L, the last
 * argument local memory of L states (clSetKernelArg with a size, no pointer). First launch: L = WG,
 * G groups, writes partials 0..G-1. Second launch (-DFROM_PARTIALS): global = local = L =
 * next_pow2(G), reads the G partials and writes state 0, the result. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void p2_reduce(IN_PARAMS, ulong n, OUT_PARAMS, local state_t* sh ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  const uint tid = get_local_id(0);
  const uint size = (uint)get_local_size(0); /* a power of two */
  state_t x = st_identity();
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
    x = st_combine(x, LOAD(i));
  sh[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint distance = 1; distance < size; distance *= 2) {
    if (tid % (2 * distance) == 0) sh[tid] = st_combine(sh[tid], sh[tid + distance]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), sh[0]);
}
