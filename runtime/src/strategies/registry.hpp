// Internal: the table that ties each strategy's name to its kernel file, seed and launcher.
// Adding a strategy: its cl/<name>.cl, its launcher in strategies/<name>.cpp, one row in
// registry.cpp.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "rdx/plan.hpp"
#include "rdx/strategies.hpp"
#include "strategies/exec.hpp"

namespace rdx::detail {

struct StrategyDef {
  StrategyInfo info;
  // Reduces n >= 1 elements of plan.type in `in` (never written) and returns the state.
  Outcome (*run)(Exec& ex, const cl::Buffer& in, std::uint64_t n);
  // The most operations on any path from an element to the result, for the float error bound.
  std::uint64_t (*depth)(const Plan& plan, const DeviceInfo& dev);
  // Why the strategy cannot run this request on this device; empty when it can. May be null.
  std::string (*unsupported)(const DeviceInfo& dev, Type type, Type acc, Op op) = nullptr;
};

std::span<const StrategyDef> strategy_table();
const StrategyDef* find_strategy(std::string_view name);

// ceil(log2(n)) for n >= 1: the depth of a pairwise tree over n leaves.
std::uint64_t ceil_log2(std::uint64_t n);

Outcome run_bottomup(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_topdown(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_localtree(Exec&, const cl::Buffer&, std::uint64_t);

}  // namespace rdx::detail
