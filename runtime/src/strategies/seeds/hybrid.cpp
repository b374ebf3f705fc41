// Launcher of cl/seeds/hybrid.cl: one launch for the low levels of the tree (a partial per
// work-group), the top levels on the host.
#include <vector>

#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_hybrid(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("seeds/hybrid.cl", "hy_local");
  const std::uint64_t groups = (n + k.wg - 1) / k.wg;
  States p = ex.states(groups);
  ex.args(k, in, n, p.values, p.indices);
  ex.launch(k, groups * k.wg, k.wg);
  if (ex.user) return ex.fold(p, 0, groups);  // a user's reduction: the device combines
  std::vector<Outcome> v = ex.read_all(p, groups);
  // The top levels: the same halving as the kernel's, on the CPU.
  for (std::uint64_t m = groups; m > 1;) {
    const std::uint64_t stride = (m + 1) / 2;
    for (std::uint64_t i = 0; i + stride < m; ++i)
      v[i] = ex.combine(v[i], v[i + stride]);
    m = stride;
  }
  return v[0];
}

StrategyRun strategy_hybrid() {
  return {run_hybrid};
}

}  // namespace rdx::detail
