/* group_tree.h: the work-group pieces that several local-memory tree kernels share, where their
 * seeds do not differ on purpose (the kernels that differ on purpose, interleaved.cl, strided.cl,
 * pow2_partials.cl, hybrid.cl and the unrolled trees, keep their own). After common.h.
 *
 *   DUAL_LOAD(v, i)        declares state_t v: elements i and i + WG combined while loading, the
 *                          identity past n (seed 001 step 6, "first add during load"); i is this
 *                          work-item's element in its group's 2 * WG. Needs n and the kernel's
 *                          input parameters (LOAD). dualload, unrolled, unrolled_warp, subgroup.
 *   halving_tree(sh, lid)  sh[0 .. WG) combined into sh[0]: sequential addressing, the active
 *                          work-items contiguous (seed 001 step 5, 004's contiguous halving), a
 *                          barrier after each step. Every work-item of the group calls it, after
 *                          a barrier that publishes sh. localtree, dualload, multiseq.
 */
#ifndef RDX_GROUP_TREE_H
#define RDX_GROUP_TREE_H

#define DUAL_LOAD(v, i)                          \
  state_t v = (i) < n ? LOAD(i) : st_identity(); \
  if ((i) + WG < n) v = st_combine(v, LOAD((i) + WG))

inline void halving_tree(local state_t* sh, uint lid) {
  for (uint s = WG / 2; s > 0; s >>= 1) {
    if (lid < s) sh[lid] = st_combine(sh[lid], sh[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

#endif
