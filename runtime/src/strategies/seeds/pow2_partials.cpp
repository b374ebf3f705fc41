// Launcher of cl/seeds/pow2_partials.cl: a bounded number of work-groups writes partials, then ONE
// work-group of next_pow2(partials) work-items combines them.
#include "core/cl_check.hpp"
#include "plan/strategy_shapes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

// Bytes of one state_t in local memory: a built-in operator's (plan/strategy_shapes.hpp), a user's
// reduction's its rdx_state.
std::uint64_t state_bytes(const Exec& ex) {
  return ex.user ? ex.user->state_bytes : pow2_state_bytes(ex.plan.acc, ex.plan.op);
}

}  // namespace

Outcome run_pow2_partials(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const std::uint64_t sb = state_bytes(ex);
  Kernel first = ex.kernel("seeds/pow2_partials.cl", "p2_reduce");
  while (first.wg > 1 && first.wg * sb > ex.ctx.info.local_mem)
    first.wg /= 2;
  Kernel last = ex.kernel("seeds/pow2_partials.cl", "p2_reduce", "-DFROM_PARTIALS");
  std::size_t kernel_max = 0;
  RDX_CHECK(last.kernel.getWorkGroupInfo(ex.ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &kernel_max));
  const std::uint64_t groups =
      pow2_groups(n, first.wg, pow2_max_partials(ex.ctx.info, sb, kernel_max));
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

StrategyRun strategy_pow2_partials() {
  return {run_pow2_partials};
}

}  // namespace rdx::detail
