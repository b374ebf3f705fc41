// Launcher of cl/seeds/strided.cl: a local-memory tree with strided indexing (2*s*lid), one partial
// per work-group, repeated over the partials until one is left.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_strided(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/strided.cl", "sd_reduce", "", groups_one_per_item},
                    "strided");
}

StrategyRun strategy_strided() {
  return {run_strided};
}

}  // namespace rdx::detail
