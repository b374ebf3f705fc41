// Launcher of cl/localtree.cl: one partial per work-group (contiguous halving), repeated over the
// partials until one is left.
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_localtree(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"localtree.cl", "lt_reduce", "", groups_one_per_item}, "localtree");
}

StrategyDef strategy_localtree() {
  return {{105,
           {"localtree", "localtree.cl",
            "001 step 5 (sequential addressing); 002 (Parallel Patterns 3): two-launch reduce; 004 "
            "(Kandasamy): contiguous halving",
            "each work-group reduces its slice in local memory; repeated over the partials"},
           tree_passes_depth,
           nullptr,
           nullptr,
           2},
          run_localtree};
}

}  // namespace rdx::detail
