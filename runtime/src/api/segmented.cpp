// The segmented entry points (rdx/segmented.hpp): check the request, hand host data to the
// device (core/host_input.hpp: read in place on a CPU device), run the plan
// (strategies/run_segmented.cpp), read the results back.
#include "core/format.hpp"

#include <cstring>
#include <vector>

#include "api/segmented_host.hpp"
#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/host_input.hpp"
#include "core/result_memory.hpp"
#include "dispatch/run_plan.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/segmented.hpp"
#include "strategies/run_segmented.hpp"

namespace rdx {
namespace detail {

cl::Buffer device_buffer(Context::Impl& impl, std::uint64_t bytes, const char* what) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(impl.context, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of {})", bytes, what));
  return b;
}

BufferAt host_buffer(Context::Impl& impl, Type type, const void* host, std::uint64_t elements) {
  return host_input_at(impl, host, byte_size(type, elements), size_of(type));
}

cl::Buffer host_offsets(Context::Impl& impl, std::span<const std::uint64_t> offsets) {
  return host_input(impl, offsets.data(), offsets.size() * 8, 8);
}

// Runs p on device data (offsets, when by offsets, already on the device and checked) and
// reads the results back.
SegmentedResult run_to_host(Context& ctx, const SegmentedPlan& p, const BufferAt& data,
                            const cl::Buffer* offsets) {
  auto& impl = detail::impl_of(ctx);
  SegmentedResult r;
  r.acc = p.acc;
  r.plan = p;
  detail::size_for_results(r.values, p.segments * size_of(p.acc));
  if (is_index_op(p.op)) detail::size_for_results(r.indices, p.segments);
  if (p.segments == 0) return r;  // host offsets: checked before
  const cl::Buffer values = device_buffer(impl, r.values.size(), "results");
  const cl::Buffer indices =
      is_index_op(p.op) ? device_buffer(impl, p.segments * 8, "result indices") : values;
  r.plan = detail::run_segmented(impl, p, data, offsets, values, &indices);
  RDX_CHECK(impl.queue.enqueueReadBuffer(values, CL_TRUE, 0, r.values.size(), r.values.data()));
  if (is_index_op(p.op))
    RDX_CHECK(impl.queue.enqueueReadBuffer(indices, CL_TRUE, 0, p.segments * 8, r.indices.data()));
  return r;
}

// nanargmin and nanargmax: a segment whose elements are all NaN has no index; NumPy raises, and
// so does a result that reaches the host (ops/operators.hpp). Checked once the segments are
// whole: a pass's part of a segment may be all NaN.
// The values are then given in the result's type (rdx::result_type: f16's min is an f16).
SegmentedResult finished_segments(SegmentedResult r) {
  if (detail::may_lack_index(r.plan.op, r.acc))
    for (std::uint64_t k = 0; k < r.size(); ++k)
      if (r.indices[k] != kEmptySegmentIndex)
        detail::check_all_nan_index(r.plan.op, r.value(k), "segmented reduction", k);
  const Type t = result_type(r.plan.op, r.plan.type, r.acc);
  if (t != r.acc) {
    std::vector<unsigned char> values(r.size() * size_of(t));
    for (std::uint64_t k = 0; k < r.size(); ++k) {
      const Scalar v = result_value(r.plan.op, r.plan.type, r.value(k));
      std::memcpy(values.data() + k * size_of(t), &v.bits, size_of(t));
    }
    r.values = std::move(values);
    r.acc = t;
  }
  return r;
}

void check_one_pass(const SegmentedPlan& p, const char* who) {
  if (p.in_passes())
    throw ArgumentError(detail::format(
        "{}: chunk {} splits host inputs into passes; data on the device ({} elements) runs in "
        "one",
        who, p.chunk, p.n));
}

HostView host_view(const View& v, Type type, const void* data, const char* who) {
  const Span span = element_span(v);
  if (span.hi > span.lo && !data)
    throw ArgumentError(detail::format("{}: data is null but the view has elements", who));
  HostView h;
  h.view = v;
  h.view.offset -= span.lo;
  h.first = static_cast<const unsigned char*>(data) + (data ? byte_size(type, span.lo) : 0);
  h.elements = span.hi - span.lo;
  return h;
}

void check_view_pass(const SegmentedPlan& p, std::uint64_t elements, const char* who) {
  if (p.by_view && elements > p.chunk)
    throw UnsupportedError(detail::format(
        "{}: the view's elements span {} elements of the data, more than one pass ({}: the "
        "device's largest allocation, or the tunable chunk); a strided view runs in one",
        who, elements, p.chunk));
}

void check_device_view(Context& ctx, const cl::Buffer& data, Type type, const View& v,
                       const char* who) {
  const Span span = element_span(v);
  if (span.hi > span.lo) check_device_input(ctx, data, type, span.hi, who);
}

void check_fits(Context& ctx, const SegmentedPlan& p, const char* who) {
  const DeviceInfo& dev = ctx.device_info();
  // The largest result buffer: a user's states, else argmin/argmax's 8-byte indices at most.
  const std::uint64_t bytes = p.user() ? p.state_bytes : 8;
  if (p.segments > detail::max_alloc_elements(dev, Type::U64) * 8 / bytes)
    throw UnsupportedError(
        detail::format("{}: {} results exceed the device's largest allocation ({} bytes)", who,
                       p.segments, dev.max_alloc));
}

}  // namespace detail

namespace {

using detail::byte_size;
using detail::check_fits;
using detail::check_one_pass;
using detail::finished_segments;
using detail::run_to_host;

// The caller's result buffers: p.segments values of p.acc, and indices for argmin/argmax.
void check_outputs(Context& ctx, const SegmentedPlan& p, const cl::Buffer& values,
                   const cl::Buffer* indices, const char* who) {
  detail::check_device_input(ctx, values, p.acc, p.segments,
                             detail::format("{} (values)", who).c_str());
  if (!is_index_op(p.op)) return;
  if (!indices)
    throw ArgumentError(detail::format("{}: {} needs a buffer for the indices", who, name(p.op)));
  detail::check_device_input(ctx, *indices, Type::U64, p.segments,
                             detail::format("{} (indices)", who).c_str());
}

SegmentedPlan offsets_plan(Context& ctx, Type type, std::uint64_t n,
                           std::span<const std::uint64_t> offsets, Op op, const Options& opts) {
  detail::check_host_offsets(offsets, n);
  SegmentedPlan p = plan_segments(ctx.device_info(), type, op, n, offsets.size() - 1, opts);
  check_fits(ctx, p, "reduce_segments");
  return p;
}

}  // namespace

SegmentedResult reduce_segments(Context& ctx, Type type, const void* data, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, Op op,
                                const Options& opts) {
  const SegmentedPlan p = offsets_plan(ctx, type, n, offsets, op, opts);
  if (n && !data) throw ArgumentError("reduce_segments: data is null but n > 0");
  // Only the elements the segments cover are moved to the device.
  const std::uint64_t used = offsets.back();
  if (used > p.chunk) return finished_segments(detail::in_passes(ctx, p, data, offsets));
  auto& impl = detail::impl_of(ctx);
  const BufferAt in = detail::host_buffer(impl, type, data, used);
  const cl::Buffer off = detail::host_offsets(impl, offsets);
  return finished_segments(run_to_host(ctx, p, in, &off));
}

SegmentedResult reduce_segments(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, Op op,
                                const Options& opts) {
  const SegmentedPlan p = offsets_plan(ctx, type, n, offsets, op, opts);
  detail::check_device_input(ctx, data, type, n, "reduce_segments");
  check_one_pass(p, "reduce_segments");
  auto& impl = detail::impl_of(ctx);
  const cl::Buffer off = detail::host_offsets(impl, offsets);
  return finished_segments(run_to_host(ctx, p, data, &off));
}

SegmentedPlan reduce_segments_into(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                   const cl::Buffer& offsets, std::uint64_t segments, Op op,
                                   const cl::Buffer& values, const cl::Buffer* indices,
                                   const Options& opts) {
  const SegmentedPlan p = plan_segments(ctx.device_info(), type, op, n, segments, opts);
  check_fits(ctx, p, "reduce_segments_into");
  check_one_pass(p, "reduce_segments_into");
  detail::check_device_input(ctx, data, type, n, "reduce_segments_into (data)");
  if (segments == ~std::uint64_t{0}) throw ArgumentError("reduce_segments_into: too many segments");
  detail::check_device_input(ctx, offsets, Type::U64, segments + 1,
                             "reduce_segments_into (offsets)");
  if (segments) check_outputs(ctx, p, values, indices, "reduce_segments_into");
  return detail::run_segmented(detail::impl_of(ctx), p, data, &offsets, values, indices, true);
}

SegmentedResult reduce_axis(Context& ctx, Type type, const void* data,
                            std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                            const Options& opts) {
  const SegmentedPlan p = plan_axis(ctx.device_info(), type, op, shape, axis, opts);
  check_fits(ctx, p, "reduce_axis");
  if (p.n && !data) throw ArgumentError("reduce_axis: data is null but the shape has elements");
  if (p.in_passes()) return finished_segments(detail::in_passes(ctx, p, data));
  auto& impl = detail::impl_of(ctx);
  const BufferAt in = detail::host_buffer(impl, type, data, p.n);
  return finished_segments(run_to_host(ctx, p, in, nullptr));
}

SegmentedResult reduce_axis(Context& ctx, Type type, const BufferAt& data,
                            std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                            const Options& opts) {
  const SegmentedPlan p = plan_axis(ctx.device_info(), type, op, shape, axis, opts);
  check_fits(ctx, p, "reduce_axis");
  detail::check_device_input(ctx, data, type, p.n, "reduce_axis");
  check_one_pass(p, "reduce_axis");
  return finished_segments(run_to_host(ctx, p, data, nullptr));
}

SegmentedPlan reduce_axis_into(Context& ctx, Type type, const BufferAt& data,
                               std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                               const cl::Buffer& values, const cl::Buffer* indices,
                               const Options& opts) {
  const SegmentedPlan p = plan_axis(ctx.device_info(), type, op, shape, axis, opts);
  check_fits(ctx, p, "reduce_axis_into");
  check_one_pass(p, "reduce_axis_into");
  detail::check_device_input(ctx, data, type, p.n, "reduce_axis_into (data)");
  if (p.segments == 0) return p;
  check_outputs(ctx, p, values, indices, "reduce_axis_into");
  return detail::run_segmented(detail::impl_of(ctx), p, data, nullptr, values, indices);
}

SegmentedPlan plan_view(Context& ctx, Type type, Op op, const View& v,
                        std::span<const std::int64_t> axes, const Options& opts, const char* who) {
  const SegmentedPlan p = plan_axes(ctx.device_info(), type, op, v, axes, opts);
  check_fits(ctx, p, who);
  return p;
}

SegmentedResult reduce_axes(Context& ctx, Type type, const void* data, const View& v,
                            std::span<const std::int64_t> axes, Op op, const Options& opts) {
  const char* who = "reduce_axes";
  const detail::HostView h = detail::host_view(v, type, data, who);
  const SegmentedPlan p = plan_view(ctx, type, op, h.view, axes, opts, who);
  detail::check_view_pass(p, h.elements, who);
  if (!p.by_view && p.in_passes()) return finished_segments(detail::in_passes(ctx, p, h.first));
  auto& impl = detail::impl_of(ctx);
  const BufferAt in = detail::host_buffer(impl, type, h.first, h.elements);
  return finished_segments(run_to_host(ctx, p, in, nullptr));
}

SegmentedResult reduce_axes(Context& ctx, Type type, const cl::Buffer& data, const View& v,
                            std::span<const std::int64_t> axes, Op op, const Options& opts) {
  const char* who = "reduce_axes";
  const SegmentedPlan p = plan_view(ctx, type, op, v, axes, opts, who);
  detail::check_device_view(ctx, data, type, v, who);
  check_one_pass(p, who);
  return finished_segments(run_to_host(ctx, p, data, nullptr));
}

SegmentedPlan reduce_axes_into(Context& ctx, Type type, const cl::Buffer& data, const View& v,
                               std::span<const std::int64_t> axes, Op op, const cl::Buffer& values,
                               const cl::Buffer* indices, const Options& opts) {
  const char* who = "reduce_axes_into";
  const SegmentedPlan p = plan_view(ctx, type, op, v, axes, opts, who);
  check_one_pass(p, who);
  detail::check_device_view(ctx, data, type, v, detail::format("{} (data)", who).c_str());
  if (p.segments == 0) return p;
  check_outputs(ctx, p, values, indices, who);
  return detail::run_segmented(detail::impl_of(ctx), p, data, nullptr, values, indices);
}

}  // namespace rdx
