// Launcher of cl/seeds/localtree.cl: one partial per work-group (contiguous halving), repeated over
// the partials until one is left.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_localtree(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/localtree.cl", "lt_reduce", "", groups_one_per_item},
                    "localtree");
}

StrategyRun strategy_localtree() {
  return {run_localtree};
}

}  // namespace rdx::detail
