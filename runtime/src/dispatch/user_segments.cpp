// Users' reductions (and the composites, as users' reductions) over segments, axes and views:
// their inputs handed to the device (core/host_input.hpp; in passes beyond one allocation, the
// pieces of a segment combined on the device: seg_merge), the plan run through the one segmented
// dispatch (run_segments, dispatch/segments.cpp) with the reduction's definitions, and the states
// split into fields or finished on the device (cl/seg_results.cl).
#include "dispatch/user_segments.hpp"

#include <cstring>
#include <optional>
#include <vector>

#include "core/cl_check.hpp"
#include "core/format.hpp"
#include "core/text.hpp"
#include "dispatch/segments.hpp"
#include "exec/device_input.hpp"
#include "ops/user_reduction.hpp"
#include "rdx/errors.hpp"
#include "strategies/run_segmented.hpp"

namespace rdx::detail {
namespace {

// Host inputs' buffers and their element offsets (read in place: from an aligned start), as
// run_states takes them.
struct HostBuffers {
  std::vector<cl::Buffer> buffers;
  std::vector<std::uint64_t> offsets;
  void add(const BufferAt& b) {
    buffers.push_back(b.buffer);
    offsets.push_back(b.offset);
  }
};

}  // namespace

UserJob host_job(Context& ctx, const Reduction& r, std::span<const Array> inputs, std::uint64_t n,
                 const char* who) {
  UserJob job{ctx, r, host_inputs(inputs, n, who), {}};
  job.prep = prepare(ctx, r, job.in.types);  // validates r against the inputs
  return job;
}

UserJob device_job(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                   std::uint64_t n, const char* who) {
  if (inputs.empty()) validate(r, 0);  // the error about the number of inputs
  UserJob job{ctx, r, device_inputs(ctx, inputs, n, who), {}};
  job.prep = prepare(ctx, r, job.in.types);
  return job;
}

SegmentedPlan run_states(const UserJob& job, const SegmentedPlan& p,
                         const std::vector<cl::Buffer>& in,
                         std::span<const std::uint64_t> in_offsets, std::uint64_t base,
                         const cl::Buffer* offsets, const cl::Buffer& out, bool check_offsets,
                         const StateResults* results) {
  const UserRun u = job.run(base, {in.begin() + 1, in.end()}, in_offsets);
  std::vector<ExactFieldPlace> places;  // the exact form: every field a float sum
  if (p.exact)
    for (std::size_t f = 0; f < job.r.fields.size(); ++f)
      places.push_back({job.r.fields[f].name, job.r.fields[f].type, job.prep->layout.offsets[f]});
  try {
    const BufferAt first(in[0], in_offsets.empty() ? 0 : in_offsets[0]);
    return run_segments(impl_of(job.ctx), p, first, offsets, out, nullptr, check_offsets, &u,
                        places, results);
  } catch (const BuildError& e) {
    rethrow_build_error(job.r, job.in.types, e);
  }
}

// The states read back and split into fields.
SegmentedStates to_fields(const UserJob& job, const DeviceStates& d) {
  const SegmentedPlan& p = d.ran;
  const cl::Buffer* states = &d.states;
  SegmentedStates r;
  r.plan = p;
  const StateLayout& layout = job.prep->layout;
  std::vector<unsigned char> bytes(p.segments * layout.bytes);
  if (!bytes.empty())
    RDX_CHECK(
        impl_of(job.ctx).queue.enqueueReadBuffer(*states, CL_TRUE, 0, bytes.size(), bytes.data()));
  for (std::size_t f = 0; f < job.r.fields.size(); ++f) {
    const Type t = job.r.fields[f].type;
    const std::size_t size = size_of(t);
    r.types.push_back(t);
    std::vector<unsigned char> v(p.segments * size);
    for (std::uint64_t k = 0; k < p.segments; ++k)
      std::memcpy(v.data() + k * size, bytes.data() + k * layout.bytes + layout.offsets[f], size);
    r.fields.push_back(std::move(v));
  }
  return r;
}

cl::Buffer states_buffer(const UserJob& job, const SegmentedPlan& p) {
  return device_buffer(impl_of(job.ctx), p.segments * job.prep->layout.bytes, "result states");
}

// Host inputs: handed to the device in one pass (the elements the segments cover; read in place on
// a CPU device, core/host_input.hpp), or in passes.
DeviceStates host_states(const UserJob& job, const SegmentedPlan& p,
                         std::span<const std::uint64_t> offsets, const StateResults* results) {
  auto& impl = impl_of(job.ctx);
  const std::uint64_t used = p.by_offsets ? offsets.back()
                             : p.by_view  ? element_span(p.view).hi
                                          : p.n;
  check_view_pass(p, used, "reduce_axes");
  if (used <= p.chunk) {
    HostBuffers in;
    for (std::size_t j = 0; j < job.in.types.size(); ++j)
      in.add(host_buffer(impl, job.in.types[j], job.in.host[j], used));
    std::optional<cl::Buffer> off;
    if (p.by_offsets) off = host_offsets(impl, offsets);
    const bool finish = results && p.segments;
    const cl::Buffer out = finish ? results->out[0] : states_buffer(job, p);
    const SegmentedPlan ran =
        p.segments ? run_states(job, p, in.buffers, in.offsets, 0, off ? &*off : nullptr, out,
                                false, finish ? results : nullptr)
                   : p;
    return {ran, finish ? cl::Buffer() : out, finish};
  }
  const cl::Buffer out = states_buffer(job, p);
  // Passes: every segment starts from the identity, and each pass's pieces are combined into it.
  const UserRun merge_run = job.run(0, {});
  identity_states(impl, p, merge_run, out, p.segments);
  std::vector<PassInput> inputs;
  for (std::size_t j = 0; j < job.in.types.size(); ++j)
    inputs.emplace_back(job.ctx, job.in.types[j], p.chunk, p.n, job.in.host[j]);
  for_each_pass(p, offsets, [&](const Pass& pass) {
    HostBuffers in;
    for (PassInput& input : inputs)
      in.add(input.load(pass.first, pass.q.n));
    std::optional<cl::Buffer> off;
    if (p.by_offsets) off = host_offsets(impl, pass.offsets);
    const cl::Buffer piece = states_buffer(job, pass.q);
    run_states(job, pass.q, in.buffers, in.offsets, pass.first, off ? &*off : nullptr, piece);
    merge_states(impl, p, merge_run, out, pass.segment, piece, pass.q.segments);
  });
  return {p, out};
}

DeviceStates device_states(const UserJob& job, const SegmentedPlan& p,
                           std::span<const std::uint64_t> offsets, const char* who,
                           const StateResults* results) {
  check_one_pass(p, who);
  const bool finish = results && p.segments;
  const cl::Buffer out = finish ? results->out[0] : states_buffer(job, p);
  std::optional<cl::Buffer> off;
  if (p.by_offsets) off = host_offsets(impl_of(job.ctx), offsets);
  const SegmentedPlan ran =
      p.segments ? run_states(job, p, job.in.device, job.in.offsets, 0, off ? &*off : nullptr, out,
                              false, finish ? results : nullptr)
                 : p;
  return {ran, finish ? cl::Buffer() : out, finish};
}

// The caller's field buffers: one per field of the reduction, each holding p.segments values of
// its type (ArgumentError otherwise).
void check_fields(const UserJob& job, const SegmentedPlan& p, std::span<const cl::Buffer> fields,
                  const char* who) {
  if (fields.size() != job.r.fields.size())
    throw ArgumentError(format("{}: {} buffers for the {} fields of '{}'", who, fields.size(),
                               job.r.fields.size(), printable(p.reduction)));
  for (std::size_t f = 0; f < fields.size(); ++f)
    check_device_input(job.ctx, fields[f], job.r.fields[f].type, p.segments,
                       format("{} (field '{}')", who, printable(job.r.fields[f].name)));
}

// The states' field f, every state_bytes-th run of its bytes, into the contiguous fields[f]:
// one rectangular copy per field, after the reduction; waits for them.
void scatter_fields(const UserJob& job, const SegmentedPlan& p, const cl::Buffer& states,
                    std::span<const cl::Buffer> fields) {
  auto& impl = impl_of(job.ctx);
  const StateLayout& layout = job.prep->layout;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const std::size_t size = size_of(job.r.fields[f].type);
    RDX_CHECK(impl.queue.enqueueCopyBufferRect(
        states, fields[f], {layout.offsets[f], 0, 0}, {0, 0, 0},
        {size, static_cast<std::size_t>(p.segments), 1}, layout.bytes, 0, size, 0));
  }
  RDX_CHECK(impl.queue.finish());
}

void device_results(const UserJob& job, const DeviceStates& d, const ResultForm& form,
                    std::span<const cl::Buffer> out) {
  state_results(impl_of(job.ctx), d.ran, job.run(0, {}), d.states, form.statements, form.outputs,
                out);
}

}  // namespace rdx::detail
