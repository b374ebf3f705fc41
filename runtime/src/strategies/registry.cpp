// The strategy table, from the one list (list.hpp), in seed order: `clrdx strategies` prints
// it as it stands.
#include "strategies/registry.hpp"

#include "core/text.hpp"
#include "rdx/errors.hpp"

#include <algorithm>
#include <vector>

namespace rdx::detail {
namespace {

#define RDX_STRATEGY_ROW(name) strategy_##name(),

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

const std::vector<const StrategyFacts*>& facts() {
  static const std::vector<const StrategyFacts*> f = [] {
    std::vector<const StrategyFacts*> v;
    for (auto& s : table())
      v.push_back(&s);
    return v;
  }();
  return f;
}

}  // namespace

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

std::span<const StrategyFacts* const> strategy_facts() {
  return facts();
}

bool is_tunable_name(std::string_view name) {
  for (const StrategyFacts* f : facts())
    for (const ParamSpec& p : f->params)
      if (p.name == name) return true;
  return false;
}

const StrategyFacts* find_facts(std::string_view name) {
  return find_strategy(name);
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
  if (!s) throw ArgumentError("unknown strategy '" + detail::printable(name) + "'");
  return s->form ? s->form(dev) : std::string();
}

}  // namespace rdx
