// rdx::reduce_partial (rdx/partial.hpp): a run's partial state, made by rdx::reduce's work (or,
// for reproducible float sums, the sum's state; above one allocation, a Stream's). The states
// themselves, their combination and byte form: dispatch/partial.cpp.
#include "rdx/partial.hpp"

#include <cstdint>
#include <variant>

#include "dispatch/partial_access.hpp"
#include "dispatch/run_plan.hpp"
#include "exec/exec.hpp"
#include "exec/wait_gate.hpp"
#include "ops/sum_state.hpp"
#include "plan/request.hpp"
#include "rdx/errors.hpp"
#include "rdx/stream.hpp"

namespace rdx {
namespace {

using detail::PartialAccess;

// reduce_partial's steps for host data (`host`) or a buffer (`device`): the plan and its checks,
// then the exact sum's digits or rdx::reduce's result.
Partial partial_of(Context& ctx, Type type, const void* host, const BufferAt* device,
                   std::uint64_t n, Op op, const Options& opts) {
  const Plan plan = make_plan(ctx.device_info(), type, op, n, opts, ctx.tuning());
  detail::check_partial_op(plan);
  if (device) detail::check_device_input(ctx, *device, type, n, "reduce_partial");
  if (n == 0) return PartialAccess::empty(plan);
  if (!device && !host) throw ArgumentError("reduce_partial: data is null but n > 0");
  if (!device && !detail::fits_one_call(ctx.device_info(), plan, n)) {
    detail::WaitGate::leave();  // as rdx::reduce's stream: the other parts need not wait for it
    Stream s(ctx, type, op, opts);
    s.push(host, n);
    return s.finish_partial();
  }
  // rdx::reduce's work, a value kept as published (not finished: a part's nanargmin may be all
  // NaN where the whole is not), a reproducible sum's state unrounded.
  detail::WholeRun ran = detail::run_whole(ctx, plan, host, device, n, opts.profile);
  if (const Result* r = std::get_if<Result>(&ran)) return PartialAccess::of_result(*r, n);
  const detail::SumRan& s = std::get<detail::SumRan>(ran);
  return PartialAccess::of_sum(s.state, plan, n, s.seconds);
}

}  // namespace

Partial reduce_partial(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
                       const Options& opts) {
  return partial_of(ctx, type, data, nullptr, n, op, opts);
}

Partial reduce_partial(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
                       const Options& opts) {
  return partial_of(ctx, type, nullptr, &data, n, op, opts);
}

}  // namespace rdx
