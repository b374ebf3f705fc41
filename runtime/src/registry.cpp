// The strategy table, in seed order: `clrdx strategies` prints it as it stands.
#include "strategies/registry.hpp"

#include "rdx/errors.hpp"

#include <algorithm>
#include <vector>

namespace rdx::detail {
namespace {

std::uint64_t tree_depth(const Plan& p, const DeviceInfo&) {
  return ceil_log2(p.n);
}

// localtree pads each group to WG leaves: ceil(log2 WG) levels per pass.
std::uint64_t localtree_depth(const Plan& p, const DeviceInfo&) {
  const std::uint64_t per_pass = ceil_log2(p.work_group_size);
  std::uint64_t passes = 0;
  for (std::uint64_t c = p.n; passes == 0 || c > 1;
       c = (c + p.work_group_size - 1) / p.work_group_size)
    ++passes;
  return per_pass * passes;
}

const std::vector<StrategyDef>& table() {
  static const std::vector<StrategyDef> t = [] {
    std::vector<StrategyDef> all;
    for (auto rows : {rows_core, rows_seed001a, rows_seed001b, rows_seeds023, rows_fast})
      for (auto& r : rows())
        all.push_back(r);
    std::stable_sort(all.begin(), all.end(),
                     [](const StrategyDef& a, const StrategyDef& b) { return a.order < b.order; });
    return all;
  }();
  return t;
}

}  // namespace

std::vector<StrategyDef> rows_core() {
  return {
      {1,
       {"bottomup", "bottomup.cl", "000 (Lawlor): bottom-up tree, totalFloats",
        "log2(n) launches, step doubling, pairs combined in global memory"},
       run_bottomup,
       tree_depth},
      {2,
       {"topdown", "topdown.cl", "000 (Lawlor): top-down monokernel, topdownAllFloats",
        "one launch, one work-group halving the active range with a barrier per step"},
       run_topdown,
       tree_depth},
      {105,
       {"localtree", "localtree.cl",
        "001 step 5 (sequential addressing); 002 (Parallel Patterns 3): two-launch reduce; 004 "
        "(Kandasamy): contiguous halving",
        "each work-group reduces its slice in local memory; repeated over the partials"},
       run_localtree,
       localtree_depth,
       nullptr,
       nullptr,
       2},
  };
}

std::uint64_t ceil_log2(std::uint64_t n) {
  std::uint64_t d = 0;
  while ((std::uint64_t{1} << d) < n && d < 64)
    ++d;
  return d;
}

std::span<const StrategyDef> strategy_table() {
  return table();
}

const StrategyDef* find_strategy(std::string_view name) {
  for (auto& s : table())
    if (s.info.name == name) return &s;
  return nullptr;
}

}  // namespace rdx::detail

namespace rdx {

std::span<const StrategyInfo> strategies() {
  static const std::vector<StrategyInfo> infos = [] {
    std::vector<StrategyInfo> v;
    for (auto& s : detail::strategy_table())
      v.push_back(s.info);
    return v;
  }();
  return infos;
}

}  // namespace rdx

namespace rdx {

std::string strategy_form(std::string_view name, const DeviceInfo& dev) {
  const detail::StrategyDef* s = detail::find_strategy(name);
  if (!s) throw ArgumentError("unknown strategy '" + std::string(name) + "'");
  return s->form ? s->form(dev) : std::string();
}

}  // namespace rdx
