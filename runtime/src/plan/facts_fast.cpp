// The facts of fast_strided and fast_blocked (the strategies behind auto): their rows and depth.
// Their tunables and grid are plan/fast_tuning.cpp's; their launcher is strategies/fast.cpp.
#include <algorithm>

#include "plan/fast_tuning.hpp"
#include "plan/strategy_facts.hpp"

namespace rdx::detail {
namespace {

std::uint64_t fast_depth(const Plan& p, const DeviceInfo&) {
  const FastGrid g = fast_grid(p);
  const std::uint64_t vw = g.vector_width ? g.vector_width : 1;
  const std::uint64_t wg = p.work_group_size ? p.work_group_size : 1;
  const std::uint64_t items = std::max<std::uint64_t>(g.groups, 1) * wg;
  const std::uint64_t per_item = (p.n + items - 1) / items;
  std::uint64_t lane;  // sequential combines in one vector lane of one work-item
  // Kahan over the block totals of a built-in float sum (a user's reduction has none). Op::Sum
  // itself, not the row's combine: the kernel's own test is `OP == OP_SUM` (cl/fast.cl).
  if (g.blocked && p.reduction.empty() && p.op == Op::Sum && is_float(p.acc))
    lane = std::min<std::uint64_t>(per_item, kFastBlock) / vw + 3;
  else
    lane = per_item / vw + 1;
  const std::uint64_t last = (std::max<std::uint64_t>(g.groups, 1) + wg - 1) / wg;
  return lane + ceil_log2(vw) + 2 * ceil_log2(wg) + last + 1;
}

}  // namespace

StrategyFacts facts_fast_strided() {
  return {900,
          {"fast_strided", "fast.cl",
           "001 step 10 (multi-sequential) + ArrayFire's last-group finish; not a seed",
           "auto on GPUs: one launch, a grid of CUs x 8 groups reading neighbouring vectors "
           "(NVIDIA, inputs of 4 GiB or more: CUs x 32 groups of 512), the last work-group to "
           "finish reduces the partials (the host does for a grid of at most work-group-size "
           "groups)"},
          fast_depth,
          nullptr,
          nullptr,
          1,
          kFastStridedParams,
          tune_fast_strided};
}

StrategyFacts facts_fast_blocked() {
  return {901,
          {"fast_blocked", "fast.cl",
           "001 step 10 (multi-sequential) + ArrayFire's last-group finish; not a seed",
           "auto on CPUs: one launch, each work-item reads one contiguous range with wide "
           "vectors (Kahan over block totals for float sums), the last group finishes"},
          fast_depth,
          nullptr,
          nullptr,
          1,
          kFastBlockedParams,
          tune_fast_blocked};
}

}  // namespace rdx::detail
