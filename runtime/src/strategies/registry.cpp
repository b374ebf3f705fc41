// The strategy table: each listed strategy's facts (plan/facts_fast.cpp, plan/seeds/facts_*.cpp)
// paired with its launcher's run hooks, in the facts' order.
#include "strategies/registry.hpp"

#include <algorithm>
#include <vector>

namespace rdx::detail {
namespace {

#define RDX_STRATEGY_ROW(name) StrategyDef{facts_##name(), strategy_##name()},

const std::vector<StrategyDef>& table() {
  static const std::vector<StrategyDef> t = [] {
    std::vector<StrategyDef> all{RDX_STRATEGIES(RDX_STRATEGY_ROW)};
    std::stable_sort(all.begin(), all.end(),
                     [](const StrategyDef& a, const StrategyDef& b) { return a.order < b.order; });
    return all;
  }();
  return t;
}

#undef RDX_STRATEGY_ROW

}  // namespace

std::span<const StrategyDef> strategy_table() {
  return table();
}

const StrategyDef* find_strategy(std::string_view name) {
  for (auto& s : table())
    if (s.info.name == name) return &s;
  return nullptr;
}

}  // namespace rdx::detail
