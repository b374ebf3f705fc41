// Launcher of cl/topdown.cl: a single work-group, a single launch.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_topdown(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  States s = ex.states((n + 1) / 2);
  Kernel k = ex.kernel("topdown.cl", "td_reduce");
  ex.args(k, in, n, s.values, s.indices);
  ex.launch(k, k.wg, k.wg);
  return ex.read(s);
}

StrategyDef strategy_topdown() {
  return {{2,
           {"topdown", "topdown.cl", "000 (Lawlor): top-down monokernel, topdownAllFloats",
            "one launch, one work-group halving the active range with a barrier per step"},
           log2_n_depth,
           nullptr,
           nullptr,
           1},
          run_topdown};
}

}  // namespace rdx::detail
