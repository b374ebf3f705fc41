// Internal: the strategy table. A strategy is one unit: its kernel file cl/<file>.cl, its facts
// row `StrategyFacts facts_<name>()` (plan/facts_fast.cpp, plan/seeds/facts_*.cpp: what the planner
// reads), and its launcher strategies/<name>.cpp, which defines `StrategyRun strategy_<name>()`
// (its run hooks) beside the launcher. Adding a strategy: the .cl file, the facts row, the launcher
// with that function, and its name in RDX_STRATEGIES (plan/strategy_list.hpp); a listed name
// without either function does not link. CMake picks up new .cl files and launchers by itself.
// Beside them sit the launchers of forms that are not in the table, run by a plan's form instead
// of its name: the reproducible sums (run_exact, run_binned: Plan::state) and the segmented
// kernels (run_segmented: rdx::SegmentedPlan).
#pragma once
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "exec/exec.hpp"
#include "exec/user_inputs.hpp"
#include "plan/strategy_facts.hpp"
#include "plan/strategy_list.hpp"

namespace rdx::detail {

// How a strategy runs: its launcher's half of the row.
struct StrategyRun {
  // Reduces n >= 1 elements of plan.type in `in` (never written) and returns the state.
  Outcome (*run)(Exec& ex, const cl::Buffer& in, std::uint64_t n) = nullptr;
  // run in two steps (the device group enqueues every device's work from one thread before it
  // waits for any, api/multi.cpp): enqueues the work and the read of its state and returns
  // without waiting; the function waits and gives run's Outcome. The Exec outlives the function,
  // which is called at most once. Null: the strategy runs synchronously only.
  std::function<Outcome()> (*enqueue)(Exec& ex, const cl::Buffer& in, std::uint64_t n) = nullptr;
  // A user's reduction (dispatch/run_user.cpp). user_plan: the strategy's changes to its plan for
  // one (null: none). run_user: runs it over every chunk of the inputs itself, and with `target`
  // only enqueues it (rdx::enqueue_reduce); null: `run` per chunk, the chunks' states folded on the
  // device (Exec::fold), and no asynchronous form.
  void (*user_plan)(const DeviceInfo& dev, const Prepared& prep, const Options& opts,
                    const TuningTable& tuning, Plan& plan) = nullptr;
  StateResult (*run_user)(Context& ctx, const Reduction& r, const Prepared& prep,
                          const UserInputs& in, std::uint64_t n, Exec& ex,
                          const AsyncTarget* target) = nullptr;
};

// A strategy's row: its facts (facts_<name>()) and its run hooks (strategy_<name>()).
struct StrategyDef : StrategyFacts, StrategyRun {};

#define RDX_DECLARE_STRATEGY(name) StrategyRun strategy_##name();
RDX_STRATEGIES(RDX_DECLARE_STRATEGY)
#undef RDX_DECLARE_STRATEGY

// The table, sorted by `order` (as strategy_facts()); one strategy (null when unknown).
std::span<const StrategyDef> strategy_table();
const StrategyDef* find_strategy(std::string_view name);

}  // namespace rdx::detail
