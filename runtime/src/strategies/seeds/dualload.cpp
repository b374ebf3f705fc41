// Launcher of cl/seeds/dualload.cl, and the pass loop that the dual-load strategies of seed 001
// (dualload, unrolled_warp, unrolled, subgroup) share: each work-group reduces a 2*WG slice to
// one partial state; the same kernel, built with -DFROM_PARTIALS, runs again on the partials
// until one state is left.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_dualload(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/dualload.cl", "dl_reduce", "", groups_two_per_item},
                    "dualload");
}

StrategyRun strategy_dualload() {
  return {run_dualload};
}

}  // namespace rdx::detail
