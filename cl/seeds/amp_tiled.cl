/* amp_tiled.cl: C++ AMP's tiled reductions: each tile (work-group) copies its elements into
 * tile_static (local) memory, reduces them there with a barrier per level and writes one partial
 * per tile; the host relaunches over the partials until at most WG are left and finishes those
 * sequentially on the CPU (the seed's std::accumulate).
 * Seed: 003_bf9cce6bb684e25c.txt ("Parallel Reduction using C++ AMP"), four kernels that differ
 * only in how the tile is reduced:
 *   amp_tiled_1  reduction_tiled_1: stride s doubling, active work-items "tid % (2*s) == 0"
 *                (active work-items scattered over the tile, divergent within a warp)
 *   amp_tiled_2  reduction_tiled_2: stride doubling, but work-item tid works on index 2*s*tid, so
 *                the active work-items are consecutive (less divergence; bank conflicts remain)
 *   amp_tiled_3  reduction_tiled_3: stride halving from WG/2, "tid < s": consecutive work-items
 *                read consecutive local addresses (no bank conflicts). The seed prints the loop
 *                as "s /= 1", a typo for s /= 2.
 *   amp_tiled_4  reduction_tiled_4: half the work-items; each reads two elements of global memory
 *                (tile base + tid and + WG), combines them while storing to local memory, then
 *                the tree of amp_tiled_3
 * Launch rules: local size = WG (a power of two). amp_tiled_1..3: global size = ceil(m/WG) * WG;
 * amp_tiled_4: global size = ceil(m/(2*WG)) * WG. Work-group g writes partial state g; missing
 * elements are the identity. The first launch reads the caller's input, the later ones
 * (-DFROM_PARTIALS) the previous partials (two scratch arrays used alternately, the seed's
 * av_src/av_dst swap). */
#ifndef RDX_COMMON_H
#include "common.h"
#endif

kernel void amp_tiled_1(IN_PARAMS, ulong m, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t tile[WG];
  const uint tid = get_local_id(0);
  const ulong gid = get_global_id(0);
  tile[tid] = gid < m ? LOAD(gid) : st_identity();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG; s *= 2) {
    if (tid % (2 * s) == 0) tile[tid] = st_combine(tile[tid], tile[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), tile[0]);
}

kernel void amp_tiled_2(IN_PARAMS, ulong m, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t tile[WG];
  const uint tid = get_local_id(0);
  const ulong gid = get_global_id(0);
  tile[tid] = gid < m ? LOAD(gid) : st_identity();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = 1; s < WG; s *= 2) {
    const uint index = 2 * s * tid;
    if (index < WG) tile[index] = st_combine(tile[index], tile[index + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), tile[0]);
}

kernel void amp_tiled_3(IN_PARAMS, ulong m, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t tile[WG];
  const uint tid = get_local_id(0);
  const ulong gid = get_global_id(0);
  tile[tid] = gid < m ? LOAD(gid) : st_identity();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s /= 2) {
    if (tid < s) tile[tid] = st_combine(tile[tid], tile[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), tile[0]);
}

kernel void amp_tiled_4(IN_PARAMS, ulong m, OUT_PARAMS ELEM_PARAMS) {
  OPEN_INPUT(in_v);
  local state_t tile[WG];
  const uint tid = get_local_id(0);
  const ulong i = get_group_id(0) * (2 * (ulong)WG) + tid;
  state_t x = i < m ? LOAD(i) : st_identity();
  if (i + WG < m) x = st_combine(x, LOAD(i + WG));
  tile[tid] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = WG / 2; s > 0; s /= 2) {
    if (tid < s) tile[tid] = st_combine(tile[tid], tile[tid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (tid == 0) STORE(get_group_id(0), tile[0]);
}
