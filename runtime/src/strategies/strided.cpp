// Launcher of cl/strided.cl: a local-memory tree with strided indexing (2*s*lid), one partial per
// work-group, repeated over the partials until one is left.
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_strided(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"strided.cl", "sd_reduce", "", groups_one_per_item}, "strided");
}

StrategyDef strategy_strided() {
  return {
      {104,
       {"strided", "strided.cl", "001 step 4 (SharedAntiDivergence): strided index 2*s*lid",
        "local-memory tree, work-item lid combines 2*s*lid and 2*s*lid+s: active items contiguous"},
       tree_passes_depth_halvable,
       nullptr,
       nullptr,
       1},
      run_strided};
}

}  // namespace rdx::detail
