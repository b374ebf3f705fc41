/* bottomup.cl: bottom-up multi-launch tree.
 * Seed: 000_86fbfdb9e372b1d5.txt (Lawlor, "Parallel Reductions"): totalFloats, log2(n) launches,
 * step doubling; arr[step*i] += arr[step*i + step/2].
 * Launch rules: bu_first once, global size >= ceil(n/2), any work-group size: it pairs input
 * elements 2i and 2i+1 into scratch element i (the seed's step 2, reading the caller's input so
 * that it is never written). Then bu_step for step = 2, 4, ... while step/2 < m, where m =
 * ceil(n/2), in place on the scratch states, global size >= ceil(m/step). No barriers, no local
 * memory: launch boundaries are the only synchronisation. The result is scratch element 0. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void bu_first(global const T* in, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in);
  const ulong i = get_global_id(0);
  const ulong src = 2 * i;
  if (src >= n) return;
  state_t s = ELEM(in, src);
  if (src + 1 < n) s = st_combine(s, ELEM(in, src + 1));
  STORE(i, s);
}

kernel void bu_step(OUT_PARAMS, ulong m, ulong step) {
  const ulong dst = step * get_global_id(0);
  const ulong src = dst + step / 2;
  if (src < m) STORE(dst, st_combine(st_load(out_v, out_i, dst), st_load(out_v, out_i, src)));
}
