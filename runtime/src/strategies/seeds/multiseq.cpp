// Launcher of cl/seeds/multiseq.cl: a fixed number of work-groups (multiseq_groups,
// plan/strategy_shapes.hpp: compute units x 8, fewer when n is small), each work-item combining
// every G-th element (G = the global size); the same kernel, built with -DFROM_PARTIALS, runs
// again on the partials until one is left.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_multiseq(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/multiseq.cl", "ms_reduce", "", multiseq_groups}, "multiseq");
}

StrategyRun strategy_multiseq() {
  return {run_multiseq};
}

}  // namespace rdx::detail
