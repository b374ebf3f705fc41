// The pass loop of the tree strategies (see passes.hpp).
#include "strategies/passes.hpp"

#include "core/format.hpp"

#include <algorithm>

#include "rdx/errors.hpp"

namespace rdx::detail {

std::uint64_t groups_one_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg) {
  return (count + wg - 1) / wg;
}

std::uint64_t groups_two_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg) {
  return (count + 2 * wg - 1) / (2 * wg);
}

std::uint64_t tree_passes_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = std::max<std::uint64_t>(p.work_group_size, 1);
  return passes_depth(dev, p.n, wg, groups_one_per_item,
                      [&](std::uint64_t, std::uint64_t) { return ceil_log2(wg); });
}

std::uint64_t tree_passes_depth_halvable(const Plan& p, const DeviceInfo& dev) {
  Plan half = p;  // Exec::kernel may halve the work-group size to fit the device
  half.work_group_size = std::max<std::size_t>(p.work_group_size / 2, 1);
  return std::max(tree_passes_depth(p, dev), tree_passes_depth(half, dev));
}

std::uint64_t dual_passes_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = std::max<std::uint64_t>(p.work_group_size, 1);
  return passes_depth(dev, p.n, wg, groups_two_per_item,
                      [&](std::uint64_t, std::uint64_t) { return 1 + ceil_log2(wg); });
}

Outcome run_passes(Exec& ex, const cl::Buffer& in, std::uint64_t n, const PassKernel& pk,
                   const char* who) {
  Kernel k = ex.kernel(pk.file, pk.name, pk.extra);
  if (pk.groups == groups_one_per_item && k.wg < 2)
    throw UnsupportedError(detail::format("{}: needs work-groups of at least 2 work-items", who));
  const std::string again = pk.extra.empty() ? "-DFROM_PARTIALS" : pk.extra + " -DFROM_PARTIALS";
  States src = Exec::input(in, n);
  std::uint64_t count = n;
  do {
    const std::uint64_t groups = pk.groups(ex.ctx.info, count, k.wg);
    States dst = ex.states(groups);
    ex.args(k, src.values, src.indices, count, dst.values, dst.indices);
    ex.launch(k, groups * k.wg, k.wg);
    src = dst;
    count = groups;
    if (count > 1) k = ex.kernel(pk.file, pk.name, again);
  } while (count > 1);
  return ex.read(src);
}

}  // namespace rdx::detail
