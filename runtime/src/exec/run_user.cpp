// Runs a user's reduction (rdx/custom.hpp) with cl/fast.cl's USER_STATE kernel: the plan of
// `auto` (fast_strided or fast_blocked) for the first input's type, finished on the device; one
// launch and one read per chunk of at most one device allocation, each chunk's state combined
// with the earlier ones on the device.
#include "exec/run_user.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "exec/run_plan.hpp"
#include "ops/user_reduction.hpp"
#include "strategies/fast_tuning.hpp"

namespace rdx::detail {
namespace {

struct UserSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel kernel;
  cl::Buffer part, counter;
  std::unique_ptr<PinnedBytes> result;
};

}  // namespace

UserInputs device_inputs(const Context& ctx, std::span<const DeviceArray> inputs, std::uint64_t n,
                         std::string_view caller) {
  UserInputs in;
  for (const DeviceArray& a : inputs) {
    const std::size_t k = in.types.size();
    if (a.buffer() == nullptr) throw ArgumentError(fmt::format("{}: input {} is null", caller, k));
    std::size_t size = 0;
    RDX_CHECK(a.buffer.getInfo(CL_MEM_SIZE, &size));
    if (byte_size(a.type, n) > size)
      throw ArgumentError(
          fmt::format("{}: input {}: {} elements of {} need {} bytes, the buffer "
                      "has {}",
                      caller, k, n, name(a.type), byte_size(a.type, n), size));
    cl::Context owner;
    RDX_CHECK(a.buffer.getInfo(CL_MEM_CONTEXT, &owner));
    if (owner() != ctx.cl_context()())
      throw ArgumentError(fmt::format(
          "{}: input {} belongs to another OpenCL context than rdx::Context", caller, k));
    in.types.push_back(a.type);
    in.device.push_back(a.buffer);
  }
  return in;
}

Plan user_plan(const Context& ctx, const Reduction& r, std::span<const Type> inputs,
               std::uint64_t n, const Options& opts) {
  validate(r, inputs.size());
  Options o = opts;
  o.acc.reset();  // the fields have their own types
  Plan p = make_plan(ctx.device_info(), inputs[0], Op::Sum, n, o, ctx.tuning());
  if (p.strategy != "fast_strided" && p.strategy != "fast_blocked")
    throw UnsupportedError(fmt::format(
        "the strategy {} does not run the reduction '{}' (auto, fast_strided and fast_blocked do)",
        p.strategy, r.name));
  for (Type t : inputs)
    if (t == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(fmt::format("f64 needs cl_khr_fp64, which device '{}' does not have",
                                         ctx.device_info().name));
  for (const Field& f : r.fields)
    if (f.type == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(fmt::format(
          "the field '{}' is f64, which needs cl_khr_fp64; device '{}' does not have it", f.name,
          ctx.device_info().name));
  p.params.set("host_finish", 0);  // the host cannot run the user's combine
  p.reduction = r.name;
  p.acc = r.fields[0].type;
  return p;
}

StateResult run_user(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                     const Options& opts, const AsyncTarget* target) {
  const std::size_t m = in.types.size();
  const Plan plan = user_plan(ctx, r, in.types, n, opts);
  const StateLayout layout = state_layout(r);
  auto& impl = impl_of(ctx);
  Exec ex(impl, plan, opts.profile);
  ex.user_definitions = user_definitions(r, in.types);
  const FastGrid g = fast_grid(plan);

  // Host inputs go through device buffers of at most one allocation each, chunk by chunk.
  std::uint64_t chunk = n ? n : 1;
  std::vector<cl::Buffer> staged(in.host.empty() ? 0 : m);
  if (!in.host.empty()) {
    for (Type t : in.types)
      chunk = std::min(chunk, max_alloc_elements(ctx.device_info(), t));
    for (std::size_t k = 0; k < m; ++k)
      staged[k] = ex.buffer(byte_size(in.types[k], chunk));
  }

  const std::string extra = fast_build_options(plan, std::min(n, chunk));
  const auto slot = impl.cached<UserSlot>(fmt::format(
      "user {} wg={} groups={}\n{}", extra, plan.work_group_size, g.groups, ex.user_definitions));
  std::lock_guard<std::mutex> lock(slot->mutex);
  if (!slot->ready) {
    try {
      slot->kernel = ex.kernel("fast.cl", "fast_reduce", extra);
    } catch (const BuildError& e) {
      rethrow_build_error(r, in.types, e);
    }
    cl_int err = CL_SUCCESS;
    slot->part =
        cl::Buffer(impl.context, CL_MEM_READ_WRITE, (g.groups + 1) * layout.bytes, nullptr, &err);
    RDX_CHECK_OUT(err, "clCreateBuffer(partial states)");
    const cl_uint zero = 0;
    slot->counter = cl::Buffer(impl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                               const_cast<cl_uint*>(&zero), &err);
    RDX_CHECK_OUT(err, "clCreateBuffer(counter)");
    slot->result = std::make_unique<PinnedBytes>(impl.context, ex.queue, layout.bytes);
    slot->ready = true;
  }
  Kernel& k = slot->kernel;
  ex.note_built(k);
  const std::uint64_t items = g.groups * k.wg;
  for (std::uint64_t base = 0, first = 1; first || base < n; first = 0) {
    const std::uint64_t len = std::min(chunk, n - base);
    const cl::Buffer* inputs[kMaxInputs] = {};
    for (std::size_t j = 0; j < m; ++j) {
      if (in.host.empty()) {
        inputs[j] = &in.device[j];
      } else {
        const std::uint64_t bytes = byte_size(in.types[j], len);
        if (bytes)
          RDX_CHECK(ex.queue.enqueueWriteBuffer(
              staged[j], CL_TRUE, 0, bytes,
              static_cast<const unsigned char*>(in.host[j]) + byte_size(in.types[j], base)));
        inputs[j] = &staged[j];
      }
    }
    std::uint64_t per = (len + items - 1) / items;
    per = (per + g.vector_width - 1) / g.vector_width * g.vector_width;
    ex.args(k, *inputs[0], len, per, slot->part, slot->part, slot->counter,
            std::uint64_t{first ? 0u : 1u}, base);
    for (std::size_t j = 1; j < m; ++j)
      ex.arg(k, static_cast<cl_uint>(7 + j), *inputs[j]);
    ex.launch(k, items, k.wg, target && first ? target->wait : nullptr);
    base += len;
  }
  Plan ran = plan;
  if (const std::size_t wg = ex.work_group_size_built(); wg && wg < plan.work_group_size)
    ran.work_group_size = wg;
  if (target) {  // the state's bytes into the caller's buffer; no host wait
    RDX_CHECK(ex.queue.enqueueCopyBuffer(slot->part, *target->out, g.groups * layout.bytes,
                                         target->offset, layout.bytes, nullptr, target->done));
    RDX_CHECK(ex.queue.flush());
    ex.detach();
    return {{}, ran};
  }
  ex.read_bytes(slot->part, g.groups * layout.bytes, layout.bytes, slot->result->data());
  return {unpack_state(r, layout, slot->result->data()), ran};
}

}  // namespace rdx::detail
