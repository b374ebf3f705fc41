/* amp_cascade.cl: a fixed number of tiles; each work-item combines the input elements gid,
 * gid + G*WG, gid + 2*G*WG, ... (grid stride), then the tile reduces its WG states in local memory
 * (sequential addressing, "tid < s") and writes one partial; the host combines the G partials.
 * Seed: 003_bf9cce6bb684e25c.txt ("Parallel Reduction using C++ AMP"): reduction_cascade, "the
 * predefined number of tiles is scheduled. Each thread in each tile repetitively reads and reduces
 * ... elements from the input with a stride equal to the number of tiles times tile size", the
 * tile result as in reduction_tiled_4, "the final result is the reduction of this structure
 * performed on the CPU". Each work-item accumulates in a register and stores once to local memory
 * (the seed accumulates in its tile_static slot; the same combine order).
 * Launch rules: ONE launch, local size = WG, global size = G * WG with G fixed by the host
 * (8 tiles per compute unit, fewer when n is small); writes partial states 0..G-1. */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void amp_cascade(global const T* in, ulong n, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in);
  local state_t tile[WG];
  const uint tid = get_local_id(0);
  state_t x = st_identity();
  for (ulong i = get_global_id(0); i < n; i += get_global_size(0))
    x = st_combine(x, ELEM(in, i));
  tile[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s /= 2) {
    if (tid < s) tile[tid] = st_combine(tile[tid], tile[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), tile[0]);
}
