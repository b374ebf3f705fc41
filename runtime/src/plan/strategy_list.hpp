// Internal: the one list of librdx's strategies. Each X(name) is a strategy with two halves: its
// facts, `StrategyFacts facts_<name>()` (plan/strategy_facts.hpp, defined in plan/facts_fast.cpp,
// plan/seeds/facts_*.cpp: what the planner reads), and its launcher, `StrategyRun
// strategy_<name>()` (strategies/registry.hpp, defined in strategies/<launcher>.cpp: how it runs).
// A listed strategy without either definition fails to link. The tables' order is each facts row's
// `order`.
#pragma once

// clang-format off
#define RDX_STRATEGIES(X) \
  X(bottomup) \
  X(topdown) \
  X(hybrid) \
  X(atomic_global) \
  X(atomic_local) \
  X(interleaved) \
  X(strided) \
  X(localtree) \
  X(dualload) \
  X(unrolled_warp) \
  X(unrolled) \
  X(subgroup) \
  X(multiseq) \
  X(pow2_partials) \
  X(amp_sequential) \
  X(amp_halving) \
  X(amp_window8) \
  X(amp_tiled_modulo) \
  X(amp_tiled_consecutive) \
  X(amp_tiled_conflictfree) \
  X(amp_tiled_twoload) \
  X(amp_cascade) \
  X(fast_strided) \
  X(fast_blocked)
// clang-format on
