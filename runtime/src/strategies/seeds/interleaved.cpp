// Launcher of cl/seeds/interleaved.cl: a local-memory tree with interleaved (divergent) addressing,
// one partial per work-group, repeated over the partials until one is left.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_interleaved(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/interleaved.cl", "il_reduce", "", groups_one_per_item},
                    "interleaved");
}

StrategyRun strategy_interleaved() {
  return {run_interleaved};
}

}  // namespace rdx::detail
