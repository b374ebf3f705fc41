// Internal: the one list of librdx's strategies. Each X(name) is a strategy whose unit,
// strategies/<launcher>.cpp, defines `StrategyDef strategy_<name>()` (registry.hpp): a listed
// strategy without that definition fails to link. The table's order is each row's `order`.
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
