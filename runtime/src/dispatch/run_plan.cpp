// Runs a plan and shapes its result (see run_plan.hpp): the layer under rdx::reduce,
// rdx::reduce_partial and rdx::Stream.
#include "dispatch/run_plan.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "core/context_impl.hpp"
#include "core/host_input.hpp"
#include "dispatch/run_sum.hpp"
#include "exec/exec.hpp"
#include "ops/operators.hpp"
#include "plan/fast_tuning.hpp"
#include "rdx/errors.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

std::shared_ptr<const Plan> planned(Context& ctx, Type type, Op op, std::uint64_t n,
                                    const Options& opts) {
  return impl_of(ctx).plans.get(type, op, n, opts, [&] {
    return make_plan(ctx.device_info(), type, op, n, opts, ctx.tuning());
  });
}

std::shared_ptr<const Plan> host_loop_plan(Context& ctx, Type type, std::uint64_t n,
                                           const Options& opts) {
  if (n == 0 || opts.profile || !auto_strategy(opts) || !opts.tuning.empty() ||
      opts.work_group_size)
    return nullptr;
  std::shared_ptr<const Plan> sum = planned(ctx, type, Op::Sum, n, Options{});
  return runs_on_host(*sum, n) ? sum : nullptr;
}

Result run_plan(Context& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n, bool profile) {
  Exec ex(impl_of(ctx), plan, profile);
  ex.in_offset = in.offset;
  const Outcome o = find_strategy(plan.strategy)->run(ex, in.buffer, n);
  return ran_result(ctx, ex, o, profile);
}

WholeRun run_whole(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                   std::uint64_t n, bool profile) {
  switch (plan.state) {
    case StateForm::Value: {
      if (device) return publish(run_plan(ctx, plan, *device, n, profile));
      const cl::Buffer buf =
          host_input(impl_of(ctx), host, byte_size(plan.type, n), size_of(plan.type));
      return publish(run_plan(ctx, plan, buf, n, profile));  // waits for the kernels
    }
    case StateForm::Bins:
    case StateForm::Digits: {
      SumRan r;
      r.state = sum_total(ctx, plan, host, device, n, profile, &r.seconds);
      return r;
    }
  }
  throw std::logic_error("run_whole: a plan of no state form");
}

bool fits_one_call(const DeviceInfo& dev, const Plan& plan, std::uint64_t n) {
  switch (plan.state) {
    case StateForm::Value:
      return n <= max_alloc_elements(dev, plan.type);
    case StateForm::Bins:
    case StateForm::Digits:
      return true;
  }
  throw std::logic_error("fits_one_call: a plan of no state form");
}

Result ran_result(const Context& ctx, Exec& ex, const Outcome& o, bool profile) {
  const Plan& plan = ex.plan;
  Plan ran = plan;  // a kernel that does not fit the planned work-group size ran with a smaller one
  if (const std::size_t wg = ex.work_group_size_built(); wg && wg < plan.work_group_size) {
    ran.work_group_size = wg;
    ran.depth = std::max(plan.depth, find_strategy(plan.strategy)->depth(ran, ctx.device_info()));
  }
  return {o.value, o.index, std::move(ran), profile ? ex.device_seconds() : 0.0};
}

Result publish(Result r) {
  r.value = visit_acc(r.plan.acc, [&](auto z) {
    using A = decltype(z);
    return Scalar::of(public_value<A>(r.plan.op, r.value.as<A>()));
  });
  return r;
}

Result finished_result(Result r) {
  r = publish(std::move(r));
  check_all_nan_index(r.plan.op, r.value, "reduce");
  r.value = result_value(r.plan.op, r.plan.type, r.value);
  return r;
}

Result empty_result(const Plan& plan) {
  if (is_index_op(plan.op))
    throw ArgumentError(detail::format("{} of an empty input has no result", name(plan.op)));
  return {result_value(plan.op, plan.type, identity(plan.op, plan.acc)), std::nullopt, plan};
}

}  // namespace rdx::detail
