/* amp_simple.cl: C++ AMP's "simple model" (no tiles, no local memory): repeated launches, each
 * work-item combines a window of WINDOW elements a[idx], a[idx + s], ..., a[idx + (WINDOW-1)*s]
 * into a[idx], with s = m / WINDOW for the m elements still alive; what does not fill a window
 * (the last m - WINDOW*s elements, the "tail") is cut off and combined by the last work-item of
 * the dispatch into a separate tail state.
 * Seed: 003_bf9cce6bb684e25c.txt ("Parallel Reduction using C++ AMP"): WINDOW=2 is
 * reduction_simple_1 (a[idx] = a[idx] + a[idx + s], s halving each launch, tail sum),
 * WINDOW=8 is reduction_simple_2 (a window of eight, ~log8(n) launches, serial tail).
 * Launch rules: any local size; global size >= g = max(s, 1) where s = m / WINDOW; work-items
 * idx >= g return at once. The first launch reads the caller's input (compiled without
 * FROM_PARTIALS) and writes scratch a[0..s), and its last work-item sets the tail state (so the
 * tail needs no initialisation, also for m < WINDOW where there is no window at all); later
 * launches (-DFROM_PARTIALS) run in place on a (in and out are the same buffer: work-item idx < s
 * writes a[idx] and only reads a[idx + i*s] >= a[s], which nobody writes in that launch) and add
 * their tail to the tail state. The host repeats while m >= WINDOW, then combines the last m
 * (< WINDOW) states of a with the tail state on the CPU. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

#ifndef WINDOW
#define WINDOW 2
#endif

kernel void amp_window(IN_PARAMS, ulong m, OUT_PARAMS, global ACC* tail_v,
                       global ulong* tail_i ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  const ulong s = m / WINDOW; /* work-items that own a full window */
  const ulong g = s ? s : 1;  /* work-items in the dispatch */
  const ulong idx = get_global_id(0);
  if (idx >= g) return;
  if (idx < s) {
    state_t x = LOAD(idx);
    for (uint i = 1; i < WINDOW; ++i)
      x = st_combine(x, LOAD(idx + i * s));
    STORE(idx, x);
  }
  if (idx == g - 1) { /* the last work-item of the dispatch: the tail that is cut off */
#ifdef FROM_PARTIALS
    state_t t = st_load(tail_v, tail_i, 0);
#else
    state_t t = st_identity();
#endif
    for (ulong j = WINDOW * s; j < m; ++j)
      t = st_combine(t, LOAD(j));
    st_store(tail_v, tail_i, 0, t);
  }
}
