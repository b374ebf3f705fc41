// Launcher of cl/interleaved.cl: a local-memory tree with interleaved (divergent) addressing, one
// partial per work-group, repeated over the partials until one is left.
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_interleaved(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"interleaved.cl", "il_reduce", "", groups_one_per_item},
                    "interleaved");
}

StrategyDef strategy_interleaved() {
  return {
      {103,
       {"interleaved", "interleaved.cl",
        "001 step 3 (Shared, interleaved/divergent); 004 (Kandasamy): Figure 1, divergent stride "
        "doubling",
        "local-memory tree, lid % (2*s) == 0 combines lid and lid+s, s doubling: divergent"},
       tree_passes_depth_halvable,
       nullptr,
       nullptr,
       1},
      run_interleaved};
}

}  // namespace rdx::detail
