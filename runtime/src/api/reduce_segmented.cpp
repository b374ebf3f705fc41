// The segmented entry points of built-in operators (rdx/segmented.hpp): plan the request, check
// it, and run the plan through the one segmented dispatch (dispatch/segments.hpp: host data to
// the device, in passes beyond one allocation, the results read back).
#include "core/format.hpp"

#include <utility>
#include <vector>

#include "core/context_impl.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/segments.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/segmented.hpp"

namespace rdx {

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
  if (auto h = detail::host_segments(ctx, p, data, offsets, opts))
    return finished_segments(std::move(*h));
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
  return detail::run_segments(detail::impl_of(ctx), p, data, &offsets, values, indices, true);
}

SegmentedResult reduce_axis(Context& ctx, Type type, const void* data,
                            std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                            const Options& opts) {
  const SegmentedPlan p = plan_axis(ctx.device_info(), type, op, shape, axis, opts);
  check_fits(ctx, p, "reduce_axis");
  if (p.n && !data) throw ArgumentError("reduce_axis: data is null but the shape has elements");
  if (auto h = detail::host_segments(ctx, p, data, {}, opts))
    return finished_segments(std::move(*h));
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
  return detail::run_segments(detail::impl_of(ctx), p, data, nullptr, values, indices);
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
  if (auto r = detail::host_segments(ctx, p, h.first, {}, opts))
    return finished_segments(std::move(*r));
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
  return detail::run_segments(detail::impl_of(ctx), p, data, nullptr, values, indices);
}

}  // namespace rdx
