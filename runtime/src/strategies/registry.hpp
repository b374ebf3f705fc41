// Internal: the table that ties each strategy's name to its kernel file, seed and launcher.
// Adding a strategy: its cl/<name>.cl, its launcher in strategies/<name>.cpp, one row in one of
// the rows_*.cpp tables (grouped by seed). CMake picks up new .cl and .cpp files by itself.
#pragma once
#include <algorithm>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exec/exec.hpp"
#include "rdx/plan.hpp"
#include "rdx/strategies.hpp"

namespace rdx::detail {

struct StrategyDef {
  // Position in `clrdx strategies` and bench tables: seed * 100 + step (seed 001 step 3: 103).
  int order;
  StrategyInfo info;
  // Reduces n >= 1 elements of plan.type in `in` (never written) and returns the state.
  Outcome (*run)(Exec& ex, const cl::Buffer& in, std::uint64_t n);
  // The most operations on any path from an element to the result, for the float error bound.
  std::uint64_t (*depth)(const Plan& plan, const DeviceInfo& dev);
  // Why the strategy cannot run this request on this device; empty when it can. May be null.
  std::string (*unsupported)(const DeviceInfo& dev, Type type, Type acc, Op op) = nullptr;
  // Which form of the strategy this device gets (e.g. "sub-group shuffle" or "barrier
  // fallback: no cl_khr_subgroups"); null when there is only one form.
  std::string (*form)(const DeviceInfo& dev) = nullptr;
  // The smallest work-group size the strategy terminates with (a tree needs 2 to shrink).
  std::size_t min_work_group = 1;
};

// The rows of each group, concatenated and sorted by `order` into the table.
std::vector<StrategyDef> rows_core();      // registry.cpp: bottomup, topdown, localtree
std::vector<StrategyDef> rows_seed001a();  // rows_seed001a.cpp: seed 001 steps 1-5
std::vector<StrategyDef> rows_seed001b();  // rows_seed001b.cpp: seed 001 steps 6-10
std::vector<StrategyDef> rows_seeds023();  // rows_seeds023.cpp: seed 000 hybrid, seeds 002, 003
std::vector<StrategyDef> rows_fast();      // fast.cpp: the strategy behind auto

std::span<const StrategyDef> strategy_table();
const StrategyDef* find_strategy(std::string_view name);

// Elements per block of a BLOCKED `fast` work-item (the -DBLOCK of cl/fast.cl).
inline constexpr std::uint64_t kFastBlock = 4096;

// The build options of cl/fast.cl's kernel for plan p (a fast_* plan) over n elements.
std::string fast_build_options(const Plan& p, std::uint64_t n);

// ceil(log2(n)) for n >= 1: the depth of a pairwise tree over n leaves.
std::uint64_t ceil_log2(std::uint64_t n);

Outcome run_bottomup(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_topdown(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_localtree(Exec&, const cl::Buffer&, std::uint64_t);

}  // namespace rdx::detail
