/* group_tree.h: the work-group reduction every local-memory tree of librdx shares, and the seeds'
 * shared opening. After common.h.
 *
 *   TREE_LEVELS(W, LAST, lane, STEP)
 *                          the levels h = W/2, W/4, ..., LAST (W and LAST powers of two) of a
 *                          tree over W slots with sequential addressing: at each level a barrier
 *                          that publishes the level before, then `lane < h` runs STEP(h), which
 *                          combines slot lane + h into slot lane. The caller writes its slot
 *                          before, and places a barrier after when other work-items read slot 0.
 *                          Every work-item of the group runs it (lane: its place in the tree; a
 *                          group may hold several trees of W lanes). Users: fast.cl (through
 *                          halving_tree), binned_sum.cl (group_sum, one step per bin),
 *                          exact_sum.cl (exact_partial per digit, exact_finish),
 *                          exact_segments.cl (a segment's X_LANES lanes per digit), the seeds'
 *                          localtree, dualload and multiseq (halving_tree), segmented.cl (a
 *                          segment's lanes, levels SEG_LANES/2 .. SEG_LOCAL_LAST, its state kept
 *                          in a register by STEP; warp shuffles take the levels below).
 *   halving_tree(sh, lid)  sh[0 .. WG) combined into sh[0] with st_combine, then a barrier: the
 *                          barrier before each level and the one after are those of the classic
 *                          form (barrier; each level followed by a barrier), the same pairs in the
 *                          same order (seed 001 step 5, 004's contiguous halving). Every work-item
 *                          of the group calls it after writing its slot sh[lid]. fast.cl,
 *                          seeds/localtree.cl, seeds/dualload.cl, seeds/multiseq.cl.
 *   DUAL_LOAD(v, i)        declares state_t v: elements i and i + WG combined while loading, the
 *                          identity past n (seed 001 step 6, "first add during load"); i is this
 *                          work-item's element in its group's 2 * WG. Needs n and the kernel's
 *                          input parameters (LOAD). The seeds dualload, unrolled, unrolled_warp,
 *                          subgroup.
 * The seeds' trees that differ on purpose (interleaved, strided, pow2_partials, hybrid, the
 * unrolled trees, the C++ AMP and Lawlor kernels) keep their own. */
#ifndef RDX_GROUP_TREE_H
#define RDX_GROUP_TREE_H

#define TREE_LEVELS(W, LAST, lane, STEP)                          \
  for (uint tree_h = (W) / 2; tree_h >= (LAST); tree_h /= 2) { \
    barrier(CLK_LOCAL_MEM_FENCE);                                 \
    if ((lane) < tree_h) {                                        \
      STEP(tree_h)                                                \
    }                                                             \
  }

#define HALVING_STEP(h) sh[lid] = st_combine(sh[lid], sh[lid + (h)]);
inline void halving_tree(local state_t* sh, uint lid) {
  TREE_LEVELS(WG, 1, lid, HALVING_STEP)
  barrier(CLK_LOCAL_MEM_FENCE);
}
#undef HALVING_STEP

#define DUAL_LOAD(v, i)                          \
  state_t v = (i) < n ? LOAD(i) : st_identity(); \
  if ((i) + WG < n) v = st_combine(v, LOAD((i) + WG))

#endif
