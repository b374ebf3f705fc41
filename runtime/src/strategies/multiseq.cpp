// Launcher of cl/multiseq.cl: a fixed number of work-groups (compute units x kGroupsPerUnit,
// fewer when n is small), each work-item combining every G-th element (G = the global size);
// the same kernel, built with -DFROM_PARTIALS, runs again on the partials until one is left.
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

#include <algorithm>

namespace rdx::detail {

namespace {

// Work-groups per compute unit: enough resident groups to hide memory latency on a GPU
// (the seed: 96 blocks of 512 on a GTX 680's 8 SMX, i.e. 12); on a CPU, a few per core.
constexpr std::uint64_t kGroupsPerUnit = 8;

// At least 2 * WG elements per work-group, so each launch at least halves the count (with WG = 1
// and count <= cap, one element per group would leave the count where it was).
std::uint64_t groups_for(const DeviceInfo& dev, std::uint64_t count, std::uint64_t wg) {
  const std::uint64_t cap = std::max<std::uint64_t>(1, dev.compute_units) * kGroupsPerUnit;
  return std::max<std::uint64_t>(1, std::min(cap, (count + 2 * wg - 1) / (2 * wg)));
}

}  // namespace

// Per launch: ceil(count / G) sequential combines, then log2(WG) levels.
std::uint64_t multiseq_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  return passes_depth(dev, p.n, wg, groups_for, [&](std::uint64_t count, std::uint64_t groups) {
    return (count + groups * wg - 1) / (groups * wg) + ceil_log2(wg);
  });
}

Outcome run_multiseq(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"multiseq.cl", "ms_reduce", "", groups_for}, "multiseq");
}

StrategyDef strategy_multiseq() {
  return {{110,
           {"multiseq", "multiseq.cl", "001 (A Study in Reduction) step 10: SharedMultiSeq (Brent)",
            "a fixed grid; each work-item combines every G-th element sequentially, then the tree"},
           multiseq_depth,
           nullptr,
           nullptr,
           1},
          run_multiseq};
}

}  // namespace rdx::detail
