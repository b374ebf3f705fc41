/* hybrid.cl: the low levels of the tree in local memory on the device, the top levels on the host.
 * Seed: 000_86fbfdb9e372b1d5.txt (Lawlor, "Parallel Reductions"), last paragraph: "putting the
 * lower levels of the tree summation into GPU __local__ memory, which allows you to use local
 * thread synchronization instead of calling a second kernel, and by running the highest levels of
 * the tree on the CPU". Each work-group runs the seed's top-down loop (topdownAllFloats: stride =
 * (m+1)/2, arr[i] += arr[i+stride], barrier, m = stride) over its slice in local memory, with
 * local barriers instead of global ones; its slice is never padded, m is the slice's real length.
 * Launch rules: ONE launch, local size = WG, global size = ceil(n/WG) * WG; work-group g reduces
 * elements [g*WG, min(n, (g+1)*WG)) and writes partial state g. The host reads the ceil(n/WG)
 * partials and finishes the tree (the same halving) on the CPU. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void hy_local(global const T* in, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in);
  local state_t sh[WG];
  const uint lid = get_local_id(0);
  const ulong base = get_group_id(0) * (ulong)WG;
  /* the slice's length: the same in every work-item of the group, so every one reaches every
   * barrier below */
  uint m = (uint)min((ulong)WG, n - base);
  if (lid < m) sh[lid] = ELEM(in, base + lid);
  barrier(CLK_LOCAL_MEM_FENCE);
  while (m > 1) {
    const uint stride = (m + 1) / 2;
    if (lid + stride < m) sh[lid] = st_combine(sh[lid], sh[lid + stride]);
    barrier(CLK_LOCAL_MEM_FENCE);
    m = stride;
  }
  if (lid == 0) STORE(get_group_id(0), sh[0]);
}
