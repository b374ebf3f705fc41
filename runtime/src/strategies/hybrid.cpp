// Launcher of cl/hybrid.cl: one launch for the low levels of the tree (a partial per work-group),
// the top levels on the host.
#include <vector>

#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_hybrid(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("hybrid.cl", "hy_local");
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

// A tree of ceil(log2 WG) levels per work-group, then ceil(log2 groups) levels on the host.
std::uint64_t hybrid_depth(const Plan& p, const DeviceInfo&) {
  const std::uint64_t wg = p.work_group_size;
  return ceil_log2(wg) + ceil_log2((p.n + wg - 1) / wg) + 1;
}

StrategyDef strategy_hybrid() {
  return {{3,
           {"hybrid", "hybrid.cl", "000 (Lawlor): last paragraph, local-memory levels + CPU levels",
            "one launch: each work-group halves its slice in local memory; the host finishes the "
            "tree over the partials"},
           hybrid_depth,
           nullptr,
           nullptr,
           1},
          run_hybrid};
}

}  // namespace rdx::detail
