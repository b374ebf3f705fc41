// Launcher of cl/seeds/bottomup.cl: one pairing launch, then log2 launches with the step doubling.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_bottomup(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const std::uint64_t m = (n + 1) / 2;
  States s = ex.states(m);
  Kernel first = ex.kernel("seeds/bottomup.cl", "bu_first");
  ex.args(first, in, n, s.values, s.indices);
  ex.launch(first, m, first.wg);
  Kernel step = ex.kernel("seeds/bottomup.cl", "bu_step");
  for (std::uint64_t st = 2; st / 2 < m; st *= 2) {
    ex.args(step, s.values, s.indices, m, st);
    ex.launch(step, (m + st - 1) / st, step.wg);
  }
  return ex.read(s);
}

StrategyRun strategy_bottomup() {
  return {run_bottomup};
}

}  // namespace rdx::detail
