// Launcher of cl/seeds/topdown.cl: a single work-group, a single launch.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_topdown(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  States s = ex.states((n + 1) / 2);
  Kernel k = ex.kernel("seeds/topdown.cl", "td_reduce");
  ex.args(k, in, n, s.values, s.indices);
  ex.launch(k, k.wg, k.wg);
  return ex.read(s);
}

StrategyRun strategy_topdown() {
  return {run_topdown};
}

}  // namespace rdx::detail
