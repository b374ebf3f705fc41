// Internal: the strategy table. A strategy is one unit: its kernel file cl/<file>.cl, and its
// launcher strategies/<name>.cpp, which defines `StrategyDef strategy_<name>()` (its facts and
// its run hook) beside the launcher. Adding a strategy: the .cl file, the launcher with that
// function, and its name in RDX_STRATEGIES (strategies/list.hpp); a listed name without the
// function does not link. CMake picks up new .cl and .cpp files by itself.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "exec/exec.hpp"
#include "strategies/facts.hpp"
#include "strategies/list.hpp"

namespace rdx::detail {

struct StrategyDef : StrategyFacts {
  // Reduces n >= 1 elements of plan.type in `in` (never written) and returns the state.
  Outcome (*run)(Exec& ex, const cl::Buffer& in, std::uint64_t n) = nullptr;
};

#define RDX_DECLARE_STRATEGY(name) StrategyDef strategy_##name();
RDX_STRATEGIES(RDX_DECLARE_STRATEGY)
#undef RDX_DECLARE_STRATEGY

// The table, sorted by `order`; one strategy (null when unknown).
std::span<const StrategyDef> strategy_table();
const StrategyDef* find_strategy(std::string_view name);

}  // namespace rdx::detail
