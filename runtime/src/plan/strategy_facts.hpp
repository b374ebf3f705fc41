// Internal: what the planner knows of each strategy, apart from how it runs (its facts row,
// `facts_<name>()`, in plan/facts_fast.cpp, plan/seeds/facts_*.cpp; strategies/registry.hpp pairs
// it with the launcher's run hooks). Pure: no OpenCL types, so plan/plan.cpp and its unit tests
// need no executor.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "plan/strategy_list.hpp"
#include "rdx/device_info.hpp"
#include "rdx/plan.hpp"
#include "rdx/strategies.hpp"

namespace rdx::detail {

// One tunable of a strategy: its name (in Options::tuning, the tuning table and the tuning
// file), its default, and what it means.
struct ParamSpec {
  std::string_view name;
  std::uint64_t default_value;
  std::string_view meaning;
};

struct StrategyFacts {
  // Position in `clrdx strategies` and bench tables: seed * 100 + step (seed 001 step 3: 103).
  int order = 0;
  StrategyInfo info;
  // The most operations on any path from an element to the result, for the float error bound.
  std::uint64_t (*depth)(const Plan& plan, const DeviceInfo& dev) = nullptr;
  // Why the strategy cannot run this request on this device; empty when it can. May be null.
  std::string (*unsupported)(const DeviceInfo& dev, Type type, Type acc, Op op) = nullptr;
  // Which form of the strategy this device gets (e.g. "sub-group shuffle" or "barrier
  // fallback: no cl_khr_subgroups"); null when there is only one form.
  std::string (*form)(const DeviceInfo& dev) = nullptr;
  // The smallest work-group size the strategy terminates with (a tree needs 2 to shrink).
  std::size_t min_work_group = 1;
  // The strategy's tunables (empty: none), and how a plan takes them: from Options::tuning, the
  // tuning table, then these defaults, into Plan::params (and Plan::work_group_size). Null when
  // the strategy has no tunables.
  std::span<const ParamSpec> params = {};
  void (*tune)(const DeviceInfo& dev, Plan& plan, const Options& opts,
               const TuningTable& tuning) = nullptr;
  // Why the strategy cannot run a user's reduction (rdx/custom.hpp) whose state is
  // `state_bytes` bytes on this device; empty when it can. Null when it always can: its kernels
  // read elements with ELEM and any host-side finish folds on the device (Exec::fold).
  std::string (*user_unsupported)(const DeviceInfo& dev, std::size_t state_bytes) = nullptr;
};

// Each listed strategy's facts (plan/strategy_list.hpp): a listed name without its row does not
// link.
#define RDX_DECLARE_FACTS(name) StrategyFacts facts_##name();
RDX_STRATEGIES(RDX_DECLARE_FACTS)
#undef RDX_DECLARE_FACTS

// The tunables' names of every strategy that has them (for the tuning file's keys).
bool is_tunable_name(std::string_view name);

// Every strategy's facts, sorted by `order`; the facts of one strategy (null when unknown).
std::span<const StrategyFacts* const> strategy_facts();
const StrategyFacts* find_facts(std::string_view name);

// ceil(log2(n)) for n >= 1: the depth of a pairwise tree over n leaves.
std::uint64_t ceil_log2(std::uint64_t n);

// A pairwise tree over all n elements (bottomup, topdown).
inline std::uint64_t log2_n_depth(const Plan& p, const DeviceInfo&) {
  return ceil_log2(p.n);
}

}  // namespace rdx::detail
