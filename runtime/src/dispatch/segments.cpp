// The one dispatch of a segmented plan (rdx/segmented.hpp), whatever its form (segments by
// offsets, an axis, a view; run_to_run or exact) and reduction (a built-in operator or a user's):
// run_segments hands it to its launcher (strategies/run_segmented.cpp); the helpers the entry
// points share around it: host data to the device (core/host_input.hpp: read in place on a CPU
// device), the results read back and given in the result's type, the checks.
#include "dispatch/segments.hpp"

#include <cstring>
#include <stdexcept>
#include <vector>

#include "core/cl_check.hpp"
#include "core/format.hpp"
#include "core/host_input.hpp"
#include "core/result_memory.hpp"
#include "dispatch/host_loop.hpp"
#include "dispatch/run_plan.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "strategies/run_segmented.hpp"

namespace rdx::detail {

SegmentedPlan run_segments(Context::Impl& ctx, const SegmentedPlan& p, const BufferAt& in,
                           const cl::Buffer* offsets, const cl::Buffer& values,
                           const cl::Buffer* indices, bool check_offsets, const UserRun* user,
                           std::span<const ExactFieldPlace> exact_fields,
                           const StateResults* results) {
  switch (p.form()) {
    case SegmentedForm::Offsets:
      if (!offsets) throw std::logic_error("run_segments: the offsets form without its offsets");
      break;
    case SegmentedForm::Axis:
    case SegmentedForm::View:
      if (offsets || check_offsets)
        throw std::logic_error("run_segments: offsets given to a plan of another form");
      break;
  }
  return run_segmented(ctx, p, in, offsets, values, indices, check_offsets, user, exact_fields,
                       results);
}

std::optional<SegmentedResult> host_segments(Context& ctx, const SegmentedPlan& p, const void* data,
                                             std::span<const std::uint64_t> offsets,
                                             const Options& opts) {
  if (p.user() || p.exact || p.segments == 0 || !data || !host_loop_plan(ctx, p.type, p.n, opts))
    return std::nullopt;
  SegmentedResult r;
  r.acc = p.acc;
  r.plan = p;
  r.plan.host_loop = true;
  size_for_results(r.values, p.segments * size_of(p.acc));
  if (is_index_op(p.op)) size_for_results(r.indices, p.segments);
  HostSegments s;
  s.segments = p.segments;
  switch (p.form()) {
    case SegmentedForm::Offsets:
      s.offsets = offsets;
      break;
    case SegmentedForm::View:
      if (p.view.length == 0) return std::nullopt;  // empty segments: the kernels' identities
      s.view = &p.view;
      break;
    case SegmentedForm::Axis:
      break;
  }
  s.length = p.length;
  s.inner = p.inner;
  if (!run_host_segments(p.op, p.type, p.acc, data, s, r.values.data(), r.indices.data()))
    return std::nullopt;
  return r;
}

void check_host_offsets(std::span<const std::uint64_t> offsets, std::uint64_t n) {
  if (offsets.empty())
    throw ArgumentError("offsets: at least one offset (0) is needed, segments + 1 in all");
  if (offsets[0] != 0)
    throw ArgumentError(format("offsets: the first offset is {}, not 0", offsets[0]));
  for (std::size_t k = 1; k < offsets.size(); ++k) {
    if (offsets[k] < offsets[k - 1])
      throw ArgumentError(format("offsets: offset {} ({}) is below offset {} ({})", k, offsets[k],
                                 k - 1, offsets[k - 1]));
    if (offsets[k] > n)
      throw ArgumentError(
          format("offsets: offset {} ({}) points past the data ({} elements)", k, offsets[k], n));
  }
}

cl::Buffer device_buffer(Context::Impl& impl, std::uint64_t bytes, const char* what) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(impl.context, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
  RDX_CHECK_OUT(err, format("clCreateBuffer({} bytes of {})", bytes, what));
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
  auto& impl = impl_of(ctx);
  SegmentedResult r;
  r.acc = p.acc;
  r.plan = p;
  size_for_results(r.values, p.segments * size_of(p.acc));
  if (is_index_op(p.op)) size_for_results(r.indices, p.segments);
  if (p.segments == 0) return r;  // host offsets: checked before
  const cl::Buffer values = device_buffer(impl, r.values.size(), "results");
  const cl::Buffer indices =
      is_index_op(p.op) ? device_buffer(impl, p.segments * 8, "result indices") : values;
  r.plan = run_segments(impl, p, data, offsets, values, &indices);
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
  if (may_lack_index(r.plan.op, r.acc))
    for (std::uint64_t k = 0; k < r.size(); ++k)
      if (r.indices[k] != kEmptySegmentIndex)
        check_all_nan_index(r.plan.op, r.value(k), "segmented reduction", k);
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
    throw ArgumentError(format(
        "{}: chunk {} splits host inputs into passes; data on the device ({} elements) runs in "
        "one",
        who, p.chunk, p.n));
}

HostView host_view(const View& v, Type type, const void* data, const char* who) {
  const Span span = element_span(v);
  if (span.hi > span.lo && !data)
    throw ArgumentError(format("{}: data is null but the view has elements", who));
  HostView h;
  h.view = v;
  h.view.offset -= span.lo;
  h.first = static_cast<const unsigned char*>(data) + (data ? byte_size(type, span.lo) : 0);
  h.elements = span.hi - span.lo;
  return h;
}

void check_view_pass(const SegmentedPlan& p, std::uint64_t elements, const char* who) {
  if (p.by_view && elements > p.chunk)
    throw UnsupportedError(
        format("{}: the view's elements span {} elements of the data, more than one pass ({}: the "
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
  if (p.segments > max_alloc_elements(dev, Type::U64) * 8 / bytes)
    throw UnsupportedError(
        format("{}: {} results exceed the device's largest allocation ({} bytes)", who, p.segments,
               dev.max_alloc));
}

}  // namespace rdx::detail
