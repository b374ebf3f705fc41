// Launcher of cl/pow2_partials.cl: a bounded number of work-groups writes partials, then ONE
// work-group of next_pow2(partials) work-items combines them.
#include <algorithm>

#include "core/cl_check.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

std::uint64_t floor_pow2(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

// Bytes of one state_t in local memory: the (value, index) struct of argmin/argmax is 16 bytes,
// a user's reduction's its rdx_state.
std::uint64_t state_bytes(Type acc, Op op) {
  return is_index_op(op) ? 16 : size_of(acc);
}
std::uint64_t state_bytes(const Exec& ex) {
  return ex.user ? ex.user->state_bytes : state_bytes(ex.plan.acc, ex.plan.op);
}

// The most partials the second launch takes in one work-group, from what the device allows;
// `kernel_max` is the kernel's CL_KERNEL_WORK_GROUP_SIZE where known.
std::uint64_t max_partials(const DeviceInfo& dev, std::uint64_t sb, std::uint64_t kernel_max) {
  const std::uint64_t by_local = dev.local_mem / sb;
  return floor_pow2(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>({kernel_max, dev.max_work_group, by_local, 1024})));
}

std::uint64_t groups_for(std::uint64_t n, std::uint64_t wg, std::uint64_t max_groups) {
  return std::max<std::uint64_t>(1, std::min((n + wg - 1) / wg, max_groups));
}

}  // namespace

Outcome run_pow2_partials(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const std::uint64_t sb = state_bytes(ex);
  Kernel first = ex.kernel("pow2_partials.cl", "p2_reduce");
  while (first.wg > 1 && first.wg * sb > ex.ctx.info.local_mem)
    first.wg /= 2;
  Kernel last = ex.kernel("pow2_partials.cl", "p2_reduce", "-DFROM_PARTIALS");
  std::size_t kernel_max = 0;
  RDX_CHECK(last.kernel.getWorkGroupInfo(ex.ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &kernel_max));
  const std::uint64_t groups = groups_for(n, first.wg, max_partials(ex.ctx.info, sb, kernel_max));
  States partials = ex.states(groups);
  ex.args(first, in, in, n, partials.values, partials.indices,
          cl::Local(static_cast<std::size_t>(first.wg * sb)));
  ex.launch(first, groups * first.wg, first.wg);

  // The seed's bit trick: the partial count rounded up to a power of two.
  std::uint64_t size = groups - 1;
  for (int shift = 1; shift < 64; shift *= 2)
    size |= size >> shift;
  ++size;
  States result = ex.states(1);
  ex.args(last, partials.values, partials.indices, groups, result.values, result.indices,
          cl::Local(static_cast<std::size_t>(size * sb)));
  ex.launch(last, size, static_cast<std::size_t>(size));
  return ex.read(result);
}

// Each work-item's loop over its share, then the tree of each launch.
std::uint64_t pow2_partials_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  const std::uint64_t groups =
      groups_for(p.n, wg, max_partials(dev, state_bytes(p.acc, p.op), 1024));
  const std::uint64_t share = (p.n + groups * wg - 1) / (groups * wg);
  return share + ceil_log2(wg) + ceil_log2(groups);
}

StrategyDef strategy_pow2_partials() {
  return {
      {202,
       {"pow2_partials", "pow2_partials.cl",
        "002 (Parallel Patterns 3): reduceKernel twice, <<<1, next_pow2(gridSize)>>>",
        "bounded groups write partials (interleaved tree); one work-group of next_pow2(partials) "
        "finishes"},
       pow2_partials_depth,
       nullptr,
       nullptr,
       1},
      run_pow2_partials};
}

}  // namespace rdx::detail
