// The segmented entry points of users' reductions and the composites (rdx/segmented_custom.hpp):
// plan and check the request, run it (dispatch/user_segments.hpp: the inputs on the device, the
// one segmented dispatch, the states split into fields); the composites' final step per segment
// is ops/stats.hpp's, on the device where it has that form.
#include "core/format.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/result_memory.hpp"
#include "core/text.hpp"
#include "dispatch/host_stats.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_user.hpp"
#include "dispatch/segments.hpp"
#include "dispatch/user_segments.hpp"
#include "exec/device_input.hpp"
#include "ops/stats.hpp"
#include "rdx/errors.hpp"
#include "rdx/segmented.hpp"
#include "rdx/segmented_custom.hpp"

namespace rdx {
namespace {

using detail::check_fields;
using detail::device_job;
using detail::DeviceStates;
using detail::host_job;
using detail::run_states;
using detail::scatter_fields;
using detail::states_buffer;
using detail::to_fields;
using detail::UserJob;

SegmentedPlan offsets_plan(const UserJob& job, std::uint64_t n,
                           std::span<const std::uint64_t> offsets, const Options& opts,
                           const char* who) {
  detail::check_host_offsets(offsets, n);
  const SegmentedPlan p =
      plan_segments(job.ctx.device_info(), job.r, job.in.types, n, offsets.size() - 1, opts);
  detail::check_fits(job.ctx, p, who);
  return p;
}

SegmentedPlan axis_plan(const UserJob& job, std::span<const std::uint64_t> shape, std::size_t axis,
                        const Options& opts, const char* who) {
  const SegmentedPlan p = plan_axis(job.ctx.device_info(), job.r, job.in.types, shape, axis, opts);
  detail::check_fits(job.ctx, p, who);
  return p;
}

// The elements of an axis form's inputs: its shape's product (plan_axis checks the overflow).
std::uint64_t elements(std::span<const std::uint64_t> shape) {
  std::uint64_t n = 1;
  for (std::uint64_t d : shape)
    n = d && n > ~std::uint64_t{0} / d ? ~std::uint64_t{0} : n * d;
  return n;
}

// A call's job and its states on the device, for the entry points below and the composites.
struct Ran {
  UserJob job;
  DeviceStates d;
};

void check_outputs(Context& ctx, const SegmentedPlan& p, std::span<const Type> types,
                   std::span<const cl::Buffer> out);

// A composite's results written by the reducing kernels themselves (cl/segmented.cl's
// SEG_RESULTS), where its result form exists (ops/stats.hpp's stat_result_cl) and the plan takes
// it (detail::takes_results: along axes or a view, not exact, not column blocks; one pass): into
// the caller's buffers `given` (reduce_axes_into; checked against `given_types` first), else into
// buffers made for the call. No states are stored, read again and finished by a second launch.
struct KernelResults {
  std::optional<detail::ResultForm> form;
  std::span<const cl::Buffer> given;
  std::span<const Type> given_types;
  std::vector<cl::Buffer> out;
  std::optional<detail::StateResults> results;

  explicit KernelResults(std::optional<detail::ResultForm> f, std::span<const cl::Buffer> into = {},
                         std::span<const Type> types = {})
      : form(std::move(f)), given(into), given_types(types) {}

  // What the kernels of p write, or nullptr (their states come back).
  const detail::StateResults* prepare(Context& ctx, const SegmentedPlan& p) {
    if (!form || !detail::takes_results(p) || p.segments == 0) return nullptr;
    if (given.empty()) {
      for (Type t : form->outputs)
        out.push_back(
            detail::device_buffer(detail::impl_of(ctx), p.segments * size_of(t), "results"));
    } else {
      check_outputs(ctx, p, given_types, given);
      if (!std::equal(form->outputs.begin(), form->outputs.end(), given_types.begin(),
                      given_types.end()))
        throw std::logic_error(
            "reduce_axes_into: the device form's results are not of stat_result_types' types");
      out.assign(given.begin(), given.end());
    }
    results.emplace(detail::StateResults{form->statements, form->outputs, out});
    return &*results;
  }
};

Ran segments_states(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                    std::uint64_t n, std::span<const std::uint64_t> offsets, const Options& opts) {
  UserJob job = host_job(ctx, r, inputs, n, "reduce_segments");
  const SegmentedPlan p = offsets_plan(job, n, offsets, opts, "reduce_segments");
  DeviceStates d = detail::host_states(job, p, offsets);
  return {std::move(job), std::move(d)};
}

Ran segments_states(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                    std::uint64_t n, std::span<const std::uint64_t> offsets, const Options& opts) {
  UserJob job = device_job(ctx, r, inputs, n, "reduce_segments");
  const SegmentedPlan p = offsets_plan(job, n, offsets, opts, "reduce_segments");
  DeviceStates d = detail::device_states(job, p, offsets, "reduce_segments");
  return {std::move(job), std::move(d)};
}

Ran axis_states(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                std::span<const std::uint64_t> shape, std::size_t axis, const Options& opts,
                KernelResults* kr = nullptr) {
  const std::uint64_t n = elements(shape);
  UserJob job = host_job(ctx, r, inputs, n == ~std::uint64_t{0} ? 0 : n, "reduce_axis");
  const SegmentedPlan p = axis_plan(job, shape, axis, opts, "reduce_axis");
  DeviceStates d = detail::host_states(job, p, {}, kr ? kr->prepare(ctx, p) : nullptr);
  return {std::move(job), std::move(d)};
}

Ran axis_states(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                std::span<const std::uint64_t> shape, std::size_t axis, const Options& opts,
                KernelResults* kr = nullptr) {
  const std::uint64_t n = elements(shape);
  UserJob job = device_job(ctx, r, inputs, n == ~std::uint64_t{0} ? 0 : n, "reduce_axis");
  const SegmentedPlan p = axis_plan(job, shape, axis, opts, "reduce_axis");
  DeviceStates d =
      detail::device_states(job, p, {}, "reduce_axis", kr ? kr->prepare(ctx, p) : nullptr);
  return {std::move(job), std::move(d)};
}

Ran axes_states(Context& ctx, const Reduction& r, std::span<const Array> inputs, const View& v,
                std::span<const std::int64_t> axes, const Options& opts,
                KernelResults* kr = nullptr) {
  const char* who = "reduce_axes";
  const Span span = element_span(v);
  std::vector<Array> from_lowest(inputs.begin(), inputs.end());  // each from the view's lowest
  for (Array& a : from_lowest)
    if (a.data)
      a.data = static_cast<const unsigned char*>(a.data) + detail::byte_size(a.type, span.lo);
  View local = v;
  local.offset -= span.lo;
  UserJob job = host_job(ctx, r, from_lowest, span.hi - span.lo, who);
  const SegmentedPlan p = plan_axes(ctx.device_info(), r, job.in.types, local, axes, opts);
  detail::check_fits(ctx, p, who);
  DeviceStates d = detail::host_states(job, p, {}, kr ? kr->prepare(ctx, p) : nullptr);
  return {std::move(job), std::move(d)};
}

Ran axes_states(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                const View& v, std::span<const std::int64_t> axes, const Options& opts,
                KernelResults* kr = nullptr) {
  const char* who = "reduce_axes";
  UserJob job = device_job(ctx, r, inputs, element_span(v).hi, who);
  const SegmentedPlan p = plan_axes(ctx.device_info(), r, job.in.types, v, axes, opts);
  detail::check_fits(ctx, p, who);
  DeviceStates d = detail::device_states(job, p, {}, who, kr ? kr->prepare(ctx, p) : nullptr);
  return {std::move(job), std::move(d)};
}

}  // namespace

SegmentedStates reduce_segments(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                                std::uint64_t n, std::span<const std::uint64_t> offsets,
                                const Options& opts) {
  const Ran x = segments_states(ctx, r, inputs, n, offsets, opts);
  return to_fields(x.job, x.d);
}

SegmentedStates reduce_segments(Context& ctx, const Reduction& r,
                                std::span<const DeviceArray> inputs, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, const Options& opts) {
  const Ran x = segments_states(ctx, r, inputs, n, offsets, opts);
  return to_fields(x.job, x.d);
}

SegmentedStates reduce_axis(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                            std::span<const std::uint64_t> shape, std::size_t axis,
                            const Options& opts) {
  const Ran x = axis_states(ctx, r, inputs, shape, axis, opts);
  return to_fields(x.job, x.d);
}

SegmentedStates reduce_axis(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                            std::span<const std::uint64_t> shape, std::size_t axis,
                            const Options& opts) {
  const Ran x = axis_states(ctx, r, inputs, shape, axis, opts);
  return to_fields(x.job, x.d);
}

SegmentedStates reduce_axes(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                            const View& v, std::span<const std::int64_t> axes,
                            const Options& opts) {
  const Ran x = axes_states(ctx, r, inputs, v, axes, opts);
  return to_fields(x.job, x.d);
}

SegmentedStates reduce_axes(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                            const View& v, std::span<const std::int64_t> axes,
                            const Options& opts) {
  const Ran x = axes_states(ctx, r, inputs, v, axes, opts);
  return to_fields(x.job, x.d);
}

SegmentedPlan reduce_segments_into(Context& ctx, const Reduction& r,
                                   std::span<const DeviceArray> inputs, std::uint64_t n,
                                   const cl::Buffer& offsets, std::uint64_t segments,
                                   std::span<const cl::Buffer> fields, const Options& opts) {
  const char* who = "reduce_segments_into";
  const UserJob job = device_job(ctx, r, inputs, n, who);
  if (segments == ~std::uint64_t{0})
    throw ArgumentError(detail::format("{}: too many segments", who));
  const SegmentedPlan p = plan_segments(ctx.device_info(), r, job.in.types, n, segments, opts);
  detail::check_fits(ctx, p, who);
  detail::check_one_pass(p, who);
  detail::check_device_input(ctx, offsets, Type::U64, segments + 1,
                             detail::format("{} (offsets)", who).c_str());
  check_fields(job, p, fields, who);
  const cl::Buffer states = states_buffer(job, p);
  const SegmentedPlan ran =
      run_states(job, p, job.in.device, job.in.offsets, 0, &offsets, states, true);
  if (p.segments) scatter_fields(job, p, states, fields);
  return ran;
}

SegmentedPlan reduce_axis_into(Context& ctx, const Reduction& r,
                               std::span<const DeviceArray> inputs,
                               std::span<const std::uint64_t> shape, std::size_t axis,
                               std::span<const cl::Buffer> fields, const Options& opts) {
  const char* who = "reduce_axis_into";
  const std::uint64_t n = elements(shape);
  const UserJob job = device_job(ctx, r, inputs, n == ~std::uint64_t{0} ? 0 : n, who);
  const SegmentedPlan p = axis_plan(job, shape, axis, opts, who);
  detail::check_one_pass(p, who);
  if (p.segments == 0) return p;
  check_fields(job, p, fields, who);
  const cl::Buffer states = states_buffer(job, p);
  const SegmentedPlan ran = run_states(job, p, job.in.device, job.in.offsets, 0, nullptr, states);
  scatter_fields(job, p, states, fields);
  return ran;
}

// ---- the composites ----

namespace {

// Segment k's position of flat index `at` (minmax's indexes count from the segment's start).
struct SegmentStart {
  const SegmentedPlan& p;
  std::span<const std::uint64_t> offsets;
  std::uint64_t operator()(std::uint64_t k, std::uint64_t at) const {
    if (at == kEmptySegmentIndex) return at;
    if (p.by_view) return at - k * p.length;
    return p.by_offsets ? at - offsets[k] : at / p.inner % p.length;
  }
  std::uint64_t count(std::uint64_t k) const {
    return p.by_offsets ? offsets[k + 1] - offsets[k] : p.length;
  }
};

// `element`: the first input's type; minmax gives its elements in it (rdx::result_type).
SegmentedStats finish(Stat s, Type acc, Type element, const SegmentedStates& st,
                      std::span<const std::uint64_t> offsets) {
  SegmentedStats out;
  out.stat = s;
  out.plan = st.plan;
  const SegmentStart start{st.plan, offsets};
  const bool minmax = s == Stat::MinMax;
  out.type = minmax             ? result_type(Op::Min, element, st.types[0])
             : s == Stat::Count ? Type::U64
                                : acc;
  const std::size_t size = size_of(out.type);
  out.values.resize(st.size() * size);
  if (minmax) {
    out.max_values.resize(st.size() * size);
    out.indices.resize(st.size());
    out.max_indices.resize(st.size());
  }
  std::vector<Scalar> fields(st.types.size());
  StateResult state;
  for (std::uint64_t k = 0; k < st.size(); ++k) {
    for (std::size_t f = 0; f < fields.size(); ++f)
      fields[f] = st.value(f, k);
    state.fields = fields;
    const std::uint64_t count = start.count(k);
    if (minmax) {  // an empty segment: 0, index kEmptySegmentIndex (the identity state)
      const Scalar lo = result_value(Op::Min, element, fields[0]);
      const Scalar hi = result_value(Op::Max, element, fields[2]);
      std::memcpy(out.values.data() + k * size, &lo.bits, size);  // little-endian
      std::memcpy(out.max_values.data() + k * size, &hi.bits, size);
      out.indices[k] = start(k, fields[1].as<std::uint64_t>());
      out.max_indices[k] = start(k, fields[3].as<std::uint64_t>());
      continue;
    }
    const StatResult r = detail::stat_result(s, acc, state, count);
    std::memcpy(out.values.data() + k * size, &r.value.bits, size);
  }
  return out;
}

// The composite's results: written by the kernels (x.d.finished: kr's), else from the states on
// the device (cl/seg_results.cl) where it has that form (ops/stats.hpp's stat_result_cl) and the
// plan numbers its segments in rows (not by offsets); otherwise the states read back and
// finished on the host, segment by segment.
SegmentedStats finish(Stat s, Type acc, Type element, const Ran& x,
                      std::span<const std::uint64_t> offsets, const KernelResults* kr = nullptr) {
  const SegmentedPlan& p = x.d.ran;
  if (x.d.finished && !kr) throw std::logic_error("finish: results written without their buffers");
  const std::optional<detail::ResultForm> form =
      x.d.finished ? kr->form
      : p.by_offsets || p.exact || p.segments == 0
          ? std::nullopt
          : detail::stat_result_cl(s, acc, element, x.job.r, x.job.ctx.device_info().fp64);
  if (!form) return finish(s, acc, element, to_fields(x.job, x.d), offsets);
  auto& impl = detail::impl_of(x.job.ctx);
  std::vector<cl::Buffer> out;
  if (kr && !kr->out.empty()) {
    out = kr->out;  // made for the kernels (passes: their states came back instead)
  } else {
    for (Type t : form->outputs)
      out.push_back(detail::device_buffer(impl, p.segments * size_of(t), "results"));
  }
  if (!x.d.finished) detail::device_results(x.job, x.d, *form, out);
  auto read = [&](std::size_t j, void* to) {
    RDX_CHECK(impl.queue.enqueueReadBuffer(out[j], CL_TRUE, 0,
                                           p.segments * size_of(form->outputs[j]), to));
  };
  SegmentedStats r;
  r.stat = s;
  r.plan = p;
  r.type = form->outputs[0];
  detail::size_for_results(r.values, p.segments * size_of(r.type));
  read(0, r.values.data());
  if (s == Stat::MinMax) {
    detail::size_for_results(r.indices, p.segments);
    detail::size_for_results(r.max_values, r.values.size());
    detail::size_for_results(r.max_indices, p.segments);
    read(1, r.indices.data());
    read(2, r.max_values.data());
    read(3, r.max_indices.data());
  }
  return r;
}

// The caller's buffers `out` checked against stat_result_types' `types` for p's segments.
void check_outputs(Context& ctx, const SegmentedPlan& p, std::span<const Type> types,
                   std::span<const cl::Buffer> out) {
  for (std::size_t j = 0; j < out.size(); ++j)
    detail::check_device_input(ctx, BufferAt(out[j], 0), types[j], p.segments,
                               detail::format("reduce_axes_into (output {})", j).c_str());
}

// Results finished on the host written into the caller's buffers (checked); waits for them.
void write_results(Context& ctx, Stat s, const SegmentedStats& r, std::span<const Type> types,
                   std::span<const cl::Buffer> out) {
  if (r.plan.segments == 0) return;
  check_outputs(ctx, r.plan, types, out);
  if (r.type != types[0]) throw std::logic_error("reduce_axes_into: a result of another type");
  auto& impl = detail::impl_of(ctx);
  auto write = [&](std::size_t j, const void* from, std::size_t bytes) {
    RDX_CHECK(impl.queue.enqueueWriteBuffer(out[j], CL_TRUE, 0, bytes, from));
  };
  write(0, r.values.data(), r.values.size());
  if (s == Stat::MinMax) {
    write(1, r.indices.data(), r.indices.size() * sizeof(std::uint64_t));
    write(2, r.max_values.data(), r.max_values.size());
    write(3, r.max_indices.data(), r.max_indices.size() * sizeof(std::uint64_t));
  }
}

// finish's results written into the caller's buffers `out` (stat_result_types' types, checked):
// computed on the device where the composite has that form, else finished on the host and
// written there; waits for them.
void finish_into(Stat s, Type acc, Type element, const Ran& x, std::span<const Type> types,
                 std::span<const cl::Buffer> out) {
  const SegmentedPlan& p = x.d.ran;
  if (p.segments == 0 || x.d.finished) return;  // finished: the kernels wrote `out` (checked)
  const std::optional<detail::ResultForm> form =
      p.by_offsets || p.exact
          ? std::nullopt
          : detail::stat_result_cl(s, acc, element, x.job.r, x.job.ctx.device_info().fp64);
  if (!form)
    return write_results(x.job.ctx, s, finish(s, acc, element, to_fields(x.job, x.d), {}), types,
                         out);
  check_outputs(x.job.ctx, p, types, out);
  if (!std::equal(form->outputs.begin(), form->outputs.end(), types.begin(), types.end()))
    throw std::logic_error(
        "reduce_axes_into: the device form's results are not of stat_result_types' types");
  auto& impl = detail::impl_of(x.job.ctx);
  detail::device_results(x.job, x.d, *form, out);
  RDX_CHECK(impl.queue.finish());
}

// A statistic as the segmented forms run it: its accumulator, its reduction, and the options
// without the accumulator (the reduction's fields have their types).
struct StatJob {
  Type acc, element;  // element: the first input's type
  Reduction r;
  Options opts;
};

template <class In>
StatJob stat_job(Context& ctx, Stat s, std::span<const In> inputs, const Options& opts,
                 const std::string& map) {
  std::vector<Type> types;
  for (const In& a : inputs)
    types.push_back(a.type);
  const Type acc = detail::stat_acc(s, types, opts, ctx.device_info().fp64);
  if (detail::exact_moments(s, opts) ||
      (s == Stat::NanMean && opts.determinism != Determinism::RunToRun))
    throw UnsupportedError(detail::format(
        "{} per segment: determinism {} is not supported (the whole-input form has it)", name(s),
        name(opts.determinism)));
  Options o = opts;
  o.acc.reset();
  // minmax's values and first indexes do not depend on the order: every level runs it as is.
  if (s == Stat::MinMax) o.determinism = Determinism::RunToRun;
  return {acc, types[0], detail::stat_reduction(s, types, acc, map), o};
}

// The composite's results as the kernels can write them (KernelResults), if it has that form.
std::optional<detail::ResultForm> kernel_form(Context& ctx, Stat s, const StatJob& j) {
  return detail::stat_result_cl(s, j.acc, j.element, j.r, ctx.device_info().fp64);
}

// mean under run_to_run: the built-in segmented sum in acc (its vector loads, its column blocks,
// on a CPU its host loop for small host inputs), then the division; the same state as mean's
// reduction, a sum in acc. Float elements (f16 and bf16 summed in acc as f32's are), and
// integers where acc is a float at least as wide (not f32 for 64-bit integers), as the
// whole-input mean (api/stats.cpp).
bool mean_by_sum(Stat s, const StatJob& j) {
  if (s != Stat::Mean || j.opts.determinism != Determinism::RunToRun) return false;
  return is_float(j.element) || (is_float(j.acc) && size_of(j.acc) >= size_of(j.element));
}

SegmentedStats mean_from_sums(SegmentedResult sums, Type acc,
                              std::span<const std::uint64_t> offsets) {
  if (sums.acc != acc) throw std::logic_error("mean: the sums are not in mean's accumulator");
  const SegmentStart start{sums.plan, offsets};
  SegmentedStats out;
  out.stat = Stat::Mean;
  out.plan = sums.plan;
  out.type = acc;
  out.values = std::move(sums.values);  // divided in place: no second buffer of results
  auto divide = [&](auto zero) {
    auto* v = reinterpret_cast<decltype(zero)*>(out.values.data());
    for (std::uint64_t k = 0; k < out.plan.segments; ++k)
      v[k] = detail::mean_of(v[k], start.count(k));
  };
  if (acc == Type::F32)
    divide(0.0f);
  else
    divide(0.0);
  return out;
}

Options sum_options(const StatJob& j) {
  Options o = j.opts;
  o.acc = j.acc;
  return o;
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const Array& a, std::uint64_t n,
                        std::span<const std::uint64_t> offsets) {
  return reduce_segments(ctx, a.type, a.data, n, offsets, Op::Sum, sum_options(j));
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const DeviceArray& a, std::uint64_t n,
                        std::span<const std::uint64_t> offsets) {
  return reduce_segments(ctx, a.type, BufferAt(a.buffer, a.offset), n, offsets, Op::Sum,
                         sum_options(j));
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const Array& a,
                        std::span<const std::uint64_t> shape, std::size_t axis) {
  return reduce_axis(ctx, a.type, a.data, shape, axis, Op::Sum, sum_options(j));
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const DeviceArray& a,
                        std::span<const std::uint64_t> shape, std::size_t axis) {
  return reduce_axis(ctx, a.type, BufferAt(a.buffer, a.offset), shape, axis, Op::Sum,
                     sum_options(j));
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const Array& a, const View& v,
                        std::span<const std::int64_t> axes) {
  return reduce_axes(ctx, a.type, a.data, v, axes, Op::Sum, sum_options(j));
}
SegmentedResult sums_of(Context& ctx, const StatJob& j, const DeviceArray& a, const View& v,
                        std::span<const std::int64_t> axes) {
  View w = v;  // the input's elements from its offset on
  w.offset += a.offset;
  return reduce_axes(ctx, a.type, a.buffer, w, axes, Op::Sum, sum_options(j));
}

// s per segment of one host input on the calling thread (dispatch/host_stats.hpp), p's offsets or
// axis form over `data` (its elements from p's first): under run_to_run, without a map, with the
// plan's choices left to it, where auto's plan of a whole input of p.n elements would run there
// (runs_on_host: a CPU device, at most host_items elements). nullopt otherwise: the kernels.
template <class In>
std::optional<SegmentedStats> stat_on_host(Context& ctx, Stat s, const StatJob& j,
                                           std::span<const In> inputs, const SegmentedPlan& p,
                                           const void* data, std::span<const std::uint64_t> offsets,
                                           const Options& opts, const std::string& map) {
  if constexpr (!std::is_same_v<In, Array>) {
    return std::nullopt;
  } else {
    if (inputs.size() != 1 || s == Stat::Dot || !map.empty() ||
        opts.determinism != Determinism::RunToRun ||
        !detail::host_loop_plan(ctx, inputs[0].type, p.n, opts))
      return std::nullopt;
    std::vector<Type> types;
    for (const Field& f : j.r.fields)
      types.push_back(f.type);
    const std::optional<SegmentedStates> st =
        detail::run_host_stat_segments(s, j.acc, {inputs[0].type, data}, p, offsets, types);
    if (!st) return std::nullopt;
    return finish(s, j.acc, j.element, *st, offsets);
  }
}

template <class In>
std::vector<Type> types_of(std::span<const In> inputs) {
  std::vector<Type> types;
  for (const In& a : inputs)
    types.push_back(a.type);
  return types;
}

template <class In>
SegmentedStats stat_segments(Context& ctx, Stat s, std::span<const In> inputs, std::uint64_t n,
                             std::span<const std::uint64_t> offsets, const Options& opts,
                             const std::string& map) {
  const StatJob j = stat_job(ctx, s, inputs, opts, map);
  if (mean_by_sum(s, j))
    return mean_from_sums(sums_of(ctx, j, inputs[0], n, offsets), j.acc, offsets);
  if constexpr (std::is_same_v<In, Array>) {
    detail::check_host_offsets(offsets, n);
    const SegmentedPlan p =
        plan_segments(ctx.device_info(), j.r, types_of(inputs), n, offsets.size() - 1, j.opts);
    if (auto h = stat_on_host(ctx, s, j, inputs, p, inputs[0].data, offsets, opts, map))
      return std::move(*h);
  }
  return finish(s, j.acc, j.element, segments_states(ctx, j.r, inputs, n, offsets, j.opts),
                offsets);
}

template <class In>
SegmentedStats stat_axis(Context& ctx, Stat s, std::span<const In> inputs,
                         std::span<const std::uint64_t> shape, std::size_t axis,
                         const Options& opts, const std::string& map) {
  const StatJob j = stat_job(ctx, s, inputs, opts, map);
  if (mean_by_sum(s, j)) return mean_from_sums(sums_of(ctx, j, inputs[0], shape, axis), j.acc, {});
  if constexpr (std::is_same_v<In, Array>) {
    const SegmentedPlan p =
        plan_axis(ctx.device_info(), j.r, types_of(inputs), shape, axis, j.opts);
    if (auto h = stat_on_host(ctx, s, j, inputs, p, inputs[0].data, {}, opts, map))
      return std::move(*h);
  }
  KernelResults kr{kernel_form(ctx, s, j)};
  const Ran x = axis_states(ctx, j.r, inputs, shape, axis, j.opts, &kr);
  return finish(s, j.acc, j.element, x, {}, &kr);
}

template <class In>
SegmentedStats stat_axes(Context& ctx, Stat s, std::span<const In> inputs, const View& v,
                         std::span<const std::int64_t> axes, const Options& opts,
                         const std::string& map) {
  const StatJob j = stat_job(ctx, s, inputs, opts, map);
  if (mean_by_sum(s, j)) return mean_from_sums(sums_of(ctx, j, inputs[0], v, axes), j.acc, {});
  if constexpr (std::is_same_v<In, Array>) {
    // The view from its lowest element on, as axes_states hands it to the kernels.
    const Span span = element_span(v);
    View local = v;
    local.offset -= span.lo;
    const SegmentedPlan p =
        plan_axes(ctx.device_info(), j.r, types_of(inputs), local, axes, j.opts);
    const void* first = inputs[0].data ? static_cast<const unsigned char*>(inputs[0].data) +
                                             detail::byte_size(inputs[0].type, span.lo)
                                       : nullptr;
    if (auto h = stat_on_host(ctx, s, j, inputs, p, first, {}, opts, map)) return std::move(*h);
  }
  KernelResults kr{kernel_form(ctx, s, j)};
  const Ran x = axes_states(ctx, j.r, inputs, v, axes, j.opts, &kr);
  return finish(s, j.acc, j.element, x, {}, &kr);
}

}  // namespace

std::vector<Type> stat_result_types(const DeviceInfo& dev, Stat s, std::span<const Type> inputs,
                                    const Options& opts) {
  const Type acc = detail::stat_acc(s, inputs, opts, dev.fp64);
  switch (s) {
    case Stat::MinMax: {
      const Type t = result_type(Op::Min, inputs.empty() ? acc : inputs[0], acc);
      return {t, Type::U64, t, Type::U64};
    }
    case Stat::Count:
      return {Type::U64};
    case Stat::Mean:
    case Stat::Var:
    case Stat::Std:
    case Stat::Norm2:
    case Stat::Dot:
    case Stat::Any:
    case Stat::All:
    case Stat::NanSum:
    case Stat::NanProd:
    case Stat::NanMean:
    case Stat::NanVar:
    case Stat::NanStd:
      return {acc};
  }
  throw std::logic_error("stat_result_types: not a Stat");
}

SegmentedPlan reduce_axes_into(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                               const View& v, std::span<const std::int64_t> axes,
                               std::span<const cl::Buffer> outputs, const Options& opts,
                               const std::string& map) {
  std::vector<Type> in_types;
  for (const DeviceArray& a : inputs)
    in_types.push_back(a.type);
  const std::vector<Type> types = stat_result_types(ctx.device_info(), s, in_types, opts);
  if (outputs.size() != types.size())
    throw ArgumentError(
        detail::format("reduce_axes_into: {} gives {} result(s) per segment, not {}", name(s),
                       types.size(), outputs.size()));
  const StatJob j = stat_job(ctx, s, inputs, opts, map);
  if (mean_by_sum(s, j)) {  // reduce_axes' form, the built-in sum over n: the same bits as it
    const SegmentedStats r = mean_from_sums(sums_of(ctx, j, inputs[0], v, axes), j.acc, {});
    write_results(ctx, s, r, types, outputs);
    return r.plan;
  }
  // The kernels write results while other segments are still read: not into an input's buffer
  // (then the states come back first, as before).
  const bool into_input = std::any_of(inputs.begin(), inputs.end(), [&](const DeviceArray& a) {
    return std::any_of(outputs.begin(), outputs.end(),
                       [&](const cl::Buffer& o) { return o() == a.buffer(); });
  });
  KernelResults kr{into_input ? std::nullopt : kernel_form(ctx, s, j), outputs, types};
  const Ran x = axes_states(ctx, j.r, inputs, v, axes, j.opts, &kr);
  finish_into(s, j.acc, j.element, x, types, outputs);
  return x.d.ran;
}

SegmentedStats reduce_axes(Context& ctx, Stat s, std::span<const Array> inputs, const View& v,
                           std::span<const std::int64_t> axes, const Options& opts,
                           const std::string& map) {
  return stat_axes(ctx, s, inputs, v, axes, opts, map);
}
SegmentedStats reduce_axes(Context& ctx, Stat s, std::span<const DeviceArray> inputs, const View& v,
                           std::span<const std::int64_t> axes, const Options& opts,
                           const std::string& map) {
  return stat_axes(ctx, s, inputs, v, axes, opts, map);
}

SegmentedStats reduce_segments(Context& ctx, Stat s, std::span<const Array> inputs, std::uint64_t n,
                               std::span<const std::uint64_t> offsets, const Options& opts,
                               const std::string& map) {
  return stat_segments(ctx, s, inputs, n, offsets, opts, map);
}
SegmentedStats reduce_segments(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                               std::uint64_t n, std::span<const std::uint64_t> offsets,
                               const Options& opts, const std::string& map) {
  return stat_segments(ctx, s, inputs, n, offsets, opts, map);
}
SegmentedStats reduce_axis(Context& ctx, Stat s, std::span<const Array> inputs,
                           std::span<const std::uint64_t> shape, std::size_t axis,
                           const Options& opts, const std::string& map) {
  return stat_axis(ctx, s, inputs, shape, axis, opts, map);
}
SegmentedStats reduce_axis(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                           std::span<const std::uint64_t> shape, std::size_t axis,
                           const Options& opts, const std::string& map) {
  return stat_axis(ctx, s, inputs, shape, axis, opts, map);
}

}  // namespace rdx
