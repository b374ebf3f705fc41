// The asynchronous entry points (rdx/async.hpp): the event form runs as a user's reduction
// (dispatch/run_user.cpp) whose final state is copied into the caller's buffer; the future form
// runs rdx::reduce on a thread.
#include "rdx/async.hpp"

#include "core/format.hpp"

#include <algorithm>

#include "core/cl_check.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_sum.hpp"
#include "dispatch/run_user.hpp"
#include "exec/exec.hpp"
#include "ops/operators.hpp"
#include "ops/user_reduction.hpp"

namespace rdx {
namespace {

void check_out(const Context& ctx, const cl::Buffer& out, std::size_t offset, std::size_t bytes,
               std::size_t align) {
  if (out() == nullptr) throw ArgumentError("enqueue_reduce: the output buffer is null");
  std::size_t size = 0;
  RDX_CHECK(out.getInfo(CL_MEM_SIZE, &size));
  if (offset % align != 0)
    throw ArgumentError(
        detail::format("enqueue_reduce: offset {} is not a multiple of {}", offset, align));
  if (offset > size || bytes > size - offset)
    throw ArgumentError(detail::format(
        "enqueue_reduce: {} bytes at offset {} do not fit the output buffer of {} bytes", bytes,
        offset, size));
  cl::Context owner;
  RDX_CHECK(out.getInfo(CL_MEM_CONTEXT, &owner));
  if (owner() != ctx.cl_context()())
    throw ArgumentError("enqueue_reduce: the output buffer belongs to another OpenCL context");
}

}  // namespace

std::size_t state_bytes(const Reduction& r) {
  return detail::state_layout(r).bytes;
}

std::size_t field_offset(const Reduction& r, std::size_t k) {
  return detail::state_layout(r).offsets.at(k);
}

cl::Event enqueue_reduce(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                         std::uint64_t n, const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>& wait, const Options& opts) {
  detail::validate(r, inputs.size());
  const detail::StateLayout layout = detail::state_layout(r);
  check_out(ctx, out, offset, layout.bytes, layout.align);
  const detail::UserInputs in = detail::device_inputs(ctx, inputs, n, "enqueue_reduce");
  cl::Event done;
  const detail::AsyncTarget target{&out, offset, &wait, &done};
  detail::run_user(ctx, r, in, n, opts, &target);
  return done;
}

cl::Event enqueue_reduce(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
                         const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>& wait, const Options& opts) {
  if (is_index_op(op))
    throw ArgumentError(detail::format(
        "enqueue_reduce: {} gives a value and an index: use minmax, or the synchronous form",
        name(op)));
  const Plan plan = make_plan(ctx.device_info(), type, op, n, opts, ctx.tuning());
  if (detail::marked_states(op, plan.acc))
    throw UnsupportedError("enqueue_reduce: float products run in the synchronous form only");
  const std::size_t bytes = size_of(plan.acc);
  check_out(ctx, out, offset, bytes, bytes);
  detail::check_device_input(ctx, data, type, n, "enqueue_reduce");
  if (detail::keeps_sum_state(plan) &&
      n > 0) {  // rounded on the device (an empty sum: the fill below)
    cl::Event done;
    detail::Exec ex(detail::impl_of(ctx), plan);
    ex.in_offset = data.offset;
    detail::enqueue_sum_rounded(ex, data.buffer, n, plan.acc, out, offset, &wait, &done);
    ex.detach();
    RDX_CHECK(ctx.queue().flush());
    return done;
  }
  if (n == 0) {  // the identity as rdx::reduce gives it
    const Scalar id = identity(op, plan.acc);
    cl::Event done;
    visit_acc(plan.acc, [&](auto z) {
      const auto value = id.as<decltype(z)>();
      RDX_CHECK(ctx.queue().enqueueFillBuffer(out, value, offset, bytes,
                                              wait.empty() ? nullptr : &wait, &done));
    });
    RDX_CHECK(ctx.queue().flush());
    return done;
  }
  // The built-in operator as a user's reduction over the map x: the same combine and identity
  // (ops/operators.cpp), run by the same kernel.
  // make_plan accepted the determinism: an order-independent operator, which needs nothing more.
  const DeviceArray in[] = {{type, data.buffer, data.offset}};
  Options run = opts;
  run.determinism = Determinism::RunToRun;
  return enqueue_reduce(ctx, Reduction::transform(op, plan.acc, "x"), in, n, out, offset, wait,
                        run);
}

std::future<Result> reduce_async(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
                                 const Options& opts) {
  return std::async(std::launch::async, [&ctx, type, data, n, op, opts] {
    return reduce(ctx, type, data, n, op, opts);
  });
}

std::future<Result> reduce_async(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                 Op op, const Options& opts) {
  return std::async(std::launch::async, [&ctx, type, data, n, op, opts] {
    return reduce(ctx, type, data, n, op, opts);
  });
}

}  // namespace rdx
