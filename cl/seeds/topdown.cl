/* topdown.cl: top-down monokernel, one launch with the loop on the device.
 * Seed: 000_86fbfdb9e372b1d5.txt (Lawlor, "Parallel Reductions"): topdownAllFloats,
 * while (n > 1) { stride = (n+1)/2; arr[i] += arr[i+stride]; barrier; n = stride; }.
 * Launch rules: exactly ONE work-group of WG work-items (global size = local size = WG), because
 * barriers do not cross work-groups; each work-item walks the active range in steps of WG, so any
 * n works. The first halving reads the caller's input and writes the scratch states (ceil(n/2)
 * of them), so the input is never written. The result is scratch element 0. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void td_reduce(global const T* in, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in);
  const ulong lid = get_local_id(0);
  ulong stride = (n + 1) / 2;
  for (ulong i = lid; i < stride; i += WG) {
    state_t s = ELEM(in, i);
    if (i + stride < n) s = st_combine(s, ELEM(in, i + stride));
    STORE(i, s);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  ulong m = stride;
  while (m > 1) { /* m is the same in every work-item: every one reaches every barrier */
    stride = (m + 1) / 2;
    for (ulong i = lid; i + stride < m; i += WG)
      STORE(i, st_combine(st_load(out_v, out_i, i), st_load(out_v, out_i, i + stride)));
    barrier(CLK_GLOBAL_MEM_FENCE); /* the seed's "subtle" barrier: read what others wrote */
    m = stride;
  }
}
