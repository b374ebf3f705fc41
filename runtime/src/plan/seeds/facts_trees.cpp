// The facts of the tree strategies (seeds 000, 001 and 002): their rows and depths. Their
// launchers are strategies/<name>.cpp; the grids both read are plan/strategy_shapes.hpp's.
#include <algorithm>
#include <string>

#include "plan/strategy_facts.hpp"
#include "plan/strategy_shapes.hpp"

namespace rdx::detail {
namespace {

// A tree of ceil(log2 WG) levels per work-group, then ceil(log2 groups) levels on the host.
std::uint64_t hybrid_depth(const Plan& p, const DeviceInfo&) {
  const std::uint64_t wg = p.work_group_size;
  return ceil_log2(wg) + ceil_log2((p.n + wg - 1) / wg) + 1;
}

// ceil(log2 WG) levels per pass of one state per work-item (localtree).
std::uint64_t tree_passes_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = std::max<std::uint64_t>(p.work_group_size, 1);
  return passes_depth(dev, p.n, wg, groups_one_per_item,
                      [&](std::uint64_t, std::uint64_t) { return ceil_log2(wg); });
}

// The same, the worse of WG and WG / 2 (interleaved, strided).
std::uint64_t tree_passes_depth_halvable(const Plan& p, const DeviceInfo& dev) {
  Plan half = p;  // Exec::kernel may halve the work-group size to fit the device
  half.work_group_size = std::max<std::size_t>(p.work_group_size / 2, 1);
  return std::max(tree_passes_depth(p, dev), tree_passes_depth(half, dev));
}

// One combine at the load, then ceil(log2 WG) levels per pass (dualload, unrolled_warp,
// unrolled).
std::uint64_t dual_passes_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = std::max<std::uint64_t>(p.work_group_size, 1);
  return passes_depth(dev, p.n, wg, groups_two_per_item,
                      [&](std::uint64_t, std::uint64_t) { return 1 + ceil_log2(wg); });
}

std::string unrolled_warp_form(const DeviceInfo& dev) {
  if (dev.subgroups)
    return "sub-group (cl_khr_subgroups): the last steps in sub-group 0, ordered by "
           "sub_group_barrier";
  return "barriers (no cl_khr_subgroups on this device): the steps from 32 down written out, each "
         "with a work-group barrier";
}

// Per pass: the combine at the load, then log2(WG) levels; the shuffle form one more where the
// sub-group size is not a power of two. The order of sub_group_reduce_add/min/max is unspecified
// (PoCL: sequential), so the built-in form counts a whole work-group.
std::uint64_t subgroup_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t per_pass = 1 + ceil_log2(wg);
  switch (subgroup_path(dev, p.acc, p.op)) {
    case SubgroupPath::Shuffle:
      per_pass += 1;
      break;
    case SubgroupPath::Builtin:
      per_pass += wg;
      break;
    case SubgroupPath::Fallback:
      break;
  }
  return passes_depth(dev, p.n, wg, groups_two_per_item,
                      [&](std::uint64_t, std::uint64_t) { return per_pass; });
}

std::string subgroup_form(const DeviceInfo& dev) {
  if (!dev.subgroups) return "fallback: local-memory tree (no cl_khr_subgroups on this device)";
  if (subgroup_has_shuffle(dev))
    return "sub-group shuffle (cl_khr_subgroups + cl_khr_subgroup_shuffle): every type and "
           "operator";
  return "sub-group reduce built-ins (cl_khr_subgroups, no cl_khr_subgroup_shuffle) for "
         "sum/min/max of i32/u32/i64/u64 and sum of f32/f64; every other type/operator: "
         "fallback local-memory tree";
}

// Per launch: ceil(count / G) sequential combines, then log2(WG) levels.
std::uint64_t multiseq_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  return passes_depth(dev, p.n, wg, multiseq_groups,
                      [&](std::uint64_t count, std::uint64_t groups) {
                        return (count + groups * wg - 1) / (groups * wg) + ceil_log2(wg);
                      });
}

// Each work-item's loop over its share, then the tree of each launch.
std::uint64_t pow2_partials_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  const std::uint64_t groups =
      pow2_groups(p.n, wg, pow2_max_partials(dev, pow2_state_bytes(p.acc, p.op), 1024));
  const std::uint64_t share = (p.n + groups * wg - 1) / (groups * wg);
  return share + ceil_log2(wg) + ceil_log2(groups);
}

}  // namespace

StrategyFacts facts_bottomup() {
  return {1,
          {"bottomup", "seeds/bottomup.cl", "000 (Lawlor): bottom-up tree, totalFloats",
           "log2(n) launches, step doubling, pairs combined in global memory"},
          log2_n_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_topdown() {
  return {2,
          {"topdown", "seeds/topdown.cl", "000 (Lawlor): top-down monokernel, topdownAllFloats",
           "one launch, one work-group halving the active range with a barrier per step"},
          log2_n_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_hybrid() {
  return {3,
          {"hybrid", "seeds/hybrid.cl",
           "000 (Lawlor): last paragraph, local-memory levels + CPU levels",
           "one launch: each work-group halves its slice in local memory; the host finishes the "
           "tree over the partials"},
          hybrid_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_interleaved() {
  return {103,
          {"interleaved", "seeds/interleaved.cl",
           "001 step 3 (Shared, interleaved/divergent); 004 (Kandasamy): Figure 1, divergent "
           "stride doubling",
           "local-memory tree, lid % (2*s) == 0 combines lid and lid+s, s doubling: divergent"},
          tree_passes_depth_halvable,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_strided() {
  return {
      104,
      {"strided", "seeds/strided.cl", "001 step 4 (SharedAntiDivergence): strided index 2*s*lid",
       "local-memory tree, work-item lid combines 2*s*lid and 2*s*lid+s: active items "
       "contiguous"},
      tree_passes_depth_halvable,
      nullptr,
      nullptr,
      1};
}

StrategyFacts facts_localtree() {
  return {105,
          {"localtree", "seeds/localtree.cl",
           "001 step 5 (sequential addressing); 002 (Parallel Patterns 3): two-launch reduce; 004 "
           "(Kandasamy): contiguous halving",
           "each work-group reduces its slice in local memory; repeated over the partials"},
          tree_passes_depth,
          nullptr,
          nullptr,
          2};
}

StrategyFacts facts_dualload() {
  return {106,
          {"dualload", "seeds/dualload.cl", "001 (A Study in Reduction) step 6: SharedDualLoad",
           "each work-item combines two elements while loading, then the local-memory tree"},
          dual_passes_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_unrolled_warp() {
  return {107,
          {"unrolled_warp", "seeds/unrolled_warp.cl",
           "001 (A Study in Reduction) step 7: SharedUnrolledLast",
           "the last tree steps unrolled: in one sub-group (sub_group_barrier) where the device "
           "has sub-groups, else with barriers (the seed's warp-synchronous form is not portable)"},
          dual_passes_depth,
          nullptr,
          unrolled_warp_form,
          1};
}

StrategyFacts facts_unrolled() {
  return {108,
          {"unrolled", "seeds/unrolled.cl", "001 (A Study in Reduction) step 8: SharedUnrolledAll",
           "the whole tree written out for the compile-time work-group size, a barrier per step"},
          dual_passes_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_subgroup() {
  return {109,
          {"subgroup", "seeds/subgroup.cl", "001 (A Study in Reduction) step 9: SharedShuffle",
           "the tree finishes in registers with sub-group shuffles or reduce built-ins; a "
           "local-memory tree where the device or the type/operator has none"},
          subgroup_depth,
          nullptr,
          subgroup_form,
          1};
}

StrategyFacts facts_multiseq() {
  return {110,
          {"multiseq", "seeds/multiseq.cl",
           "001 (A Study in Reduction) step 10: SharedMultiSeq (Brent)",
           "a fixed grid; each work-item combines every G-th element sequentially, then the tree"},
          multiseq_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_pow2_partials() {
  return {
      202,
      {"pow2_partials", "seeds/pow2_partials.cl",
       "002 (Parallel Patterns 3): reduceKernel twice, <<<1, next_pow2(gridSize)>>>",
       "bounded groups write partials (interleaved tree); one work-group of next_pow2(partials) "
       "finishes"},
      pow2_partials_depth,
      nullptr,
      nullptr,
      1};
}

}  // namespace rdx::detail
