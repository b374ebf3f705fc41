// The strategies' facts, from the one list (strategy_list.hpp), in seed order: `clrdx strategies`
// prints them as they stand.
#include "plan/strategy_facts.hpp"

#include "core/text.hpp"

#include <algorithm>
#include <vector>

#include "rdx/errors.hpp"

namespace rdx::detail {
namespace {

#define RDX_FACTS_ROW(name) facts_##name(),

const std::vector<StrategyFacts>& table() {
  static const std::vector<StrategyFacts> t = [] {
    std::vector<StrategyFacts> all{RDX_STRATEGIES(RDX_FACTS_ROW)};
    std::stable_sort(all.begin(), all.end(), [](const StrategyFacts& a, const StrategyFacts& b) {
      return a.order < b.order;
    });
    return all;
  }();
  return t;
}

#undef RDX_FACTS_ROW

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

std::span<const StrategyFacts* const> strategy_facts() {
  return facts();
}

const StrategyFacts* find_facts(std::string_view name) {
  for (const StrategyFacts* f : facts())
    if (f->info.name == name) return f;
  return nullptr;
}

bool is_tunable_name(std::string_view name) {
  for (const StrategyFacts* f : facts())
    for (const ParamSpec& p : f->params)
      if (p.name == name) return true;
  return false;
}

}  // namespace rdx::detail

namespace rdx {

std::span<const StrategyInfo> strategies() {
  static const std::vector<StrategyInfo> infos = [] {
    std::vector<StrategyInfo> v;
    for (const detail::StrategyFacts* f : detail::strategy_facts())
      v.push_back(f->info);
    return v;
  }();
  return infos;
}

std::string strategy_form(std::string_view name, const DeviceInfo& dev) {
  const detail::StrategyFacts* f = detail::find_facts(name);
  if (!f) throw ArgumentError("unknown strategy '" + detail::printable(name) + "'");
  return f->form ? f->form(dev) : std::string();
}

}  // namespace rdx
