// A user's reduction made ready to run, and its inputs: prepared once per context (validated,
// its identity checked on the device), host or device inputs checked, and the inputs written
// chunk by chunk (UserChunks). What the strategies' user hooks and the dispatch
// (dispatch/run_user.cpp) share.
#include "exec/user_inputs.hpp"

#include <fmt/format.h>

#include "core/format.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/host_input.hpp"
#include "exec/device_input.hpp"
#include "exec/exec.hpp"
#include "ops/user_reduction.hpp"
#include "plan/request.hpp"

namespace rdx::detail {
namespace {

// The reduction's texts and the inputs' types, each text length-prefixed (unambiguous); not its
// name (reductions that differ only in their names share their definitions and programs).
std::string reduction_key(const Reduction& r, std::span<const Type> inputs) {
  std::string k = "reduction";
  auto out = std::back_inserter(k);
  for (Type t : inputs)
    fmt::format_to(out, " {}", name(t));
  for (const Field& f : r.fields) {
    fmt::format_to(out, " {}", name(f.type));
    for (const std::string* text : {&f.name, &f.identity, &f.map, &f.combine})
      fmt::format_to(out, " {}:{}", text->size(), *text);
  }
  fmt::format_to(out, " chunk {}:{}", r.chunk.size(), r.chunk);
  return k;
}

// Whether r over inputs of these types needs fp64, which this device lacks (user_plan's
// UnsupportedError says so later).
bool lacks_fp64(const Context& ctx, const Reduction& r, std::span<const Type> inputs) {
  if (ctx.device_info().fp64) return false;
  for (Type t : inputs)
    if (t == Type::F64) return true;
  for (const Field& f : r.fields)
    if (f.type == Type::F64) return true;
  return false;
}

// check_identity (ops/user_reduction.hpp) on the device: the probe kernel built with the
// reduction's definitions (and cached on disk like every program), run on a queue of its own so
// that it never waits behind the app's commands on the context's queue.
void probe_identity(const Context& ctx, const Reduction& r, std::span<const Type> inputs,
                    const std::string& definitions, const StateLayout& layout) {
  if (lacks_fp64(ctx, r, inputs)) return;
  auto& impl = impl_of(ctx);
  cl::Program program;
  try {
    program = impl.programs.get(impl.context, impl.device, "fold.cl",
                                definitions + identity_probe_kernel(r, inputs), "-DWG=1");
  } catch (const BuildError& e) {
    rethrow_build_error(r, inputs, e);
  }
  cl_int err = CL_SUCCESS;
  cl::Kernel k(program, "rdx_identity_probe", &err);
  RDX_CHECK_OUT(err, "clCreateKernel(rdx_identity_probe)");
  const std::size_t bytes = identity_probe_states(r) * layout.bytes;
  cl::Buffer out(impl.context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of identity probes)", bytes));
  cl::CommandQueue queue(impl.context, impl.device, 0, &err);
  RDX_CHECK_OUT(err, "clCreateCommandQueue(identity probe)");
  RDX_CHECK(k.setArg(0, out));
  RDX_CHECK(k.setArg(1, cl_ulong{0}));
  RDX_CHECK(queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NDRange(1)));
  std::vector<unsigned char> states(bytes);
  RDX_CHECK(queue.enqueueReadBuffer(out, CL_TRUE, 0, bytes, states.data()));
  check_identity(r, layout, states.data());
}

}  // namespace

std::shared_ptr<const Prepared> prepare(const Context& ctx, const Reduction& r,
                                        std::span<const Type> inputs) {
  const std::string key = reduction_key(r, inputs);
  auto p = impl_of(ctx).cached<Prepared>(key);
  std::lock_guard<std::mutex> lock(p->mutex);
  if (!p->ready) {
    try {
      validate(r, inputs.size());
      p->definitions = user_definitions(r, inputs);
      p->layout = state_layout(r);
      probe_identity(ctx, r, inputs, p->definitions, p->layout);
    } catch (...) {
      impl_of(ctx).forget(key);  // the context keeps only reductions that are valid
      throw;
    }
    p->vector_form = has_vector_form(r, inputs);
    p->chunk_form = !r.chunk.empty();
    p->ready = true;
  }
  return p;
}

UserInputs host_inputs(std::span<const Array> inputs, std::uint64_t n, std::string_view caller) {
  UserInputs in;
  for (const Array& a : inputs) {
    if (!a.data && n > 0)
      throw ArgumentError(
          detail::format("{}: input {} is null but n > 0", caller, in.types.size()));
    byte_size(a.type, n);  // throws when n elements overflow a byte count
    in.types.push_back(a.type);
    in.host.push_back(a.data);
  }
  return in;
}

UserInputs device_inputs(const Context& ctx, std::span<const DeviceArray> inputs, std::uint64_t n,
                         std::string_view caller) {
  UserInputs in;
  for (const DeviceArray& a : inputs) {
    const std::size_t k = in.types.size();
    check_device_input(ctx, BufferAt(a.buffer, a.offset), a.type, n,
                       detail::format("{}: input {}", caller, k));
    in.types.push_back(a.type);
    in.device.push_back(a.buffer);
    in.offsets.push_back(a.offset);
  }
  return in;
}

UserChunks::UserChunks(Exec& ex, const DeviceInfo& dev, const UserInputs& in, std::uint64_t n)
    : ex_(ex), in_(in) {
  chunk = n ? n : 1;
  if (in.host.empty()) {  // the device inputs' offsets, before any kernel is built
    ex.in_offset = in.offsets.empty() ? 0 : in.offsets[0];
    if (ex.user && !in.offsets.empty())
      ex.user->offsets.assign(in.offsets.begin() + 1, in.offsets.end());
    return;
  }
  for (Type t : in.types)
    chunk = std::min(chunk, max_alloc_elements(dev, t));
  staged_.resize(in.types.size());
  if (reads_host_in_place(dev)) return;  // each chunk's buffer over the host data (at())
  for (std::size_t j = 0; j < in.types.size(); ++j)
    staged_[j] = ex.buffer(byte_size(in.types[j], chunk));
}

const cl::Buffer& UserChunks::at(std::size_t j, std::uint64_t base, std::uint64_t len) {
  if (in_.host.empty()) return in_.device[j];
  const auto* first =
      static_cast<const unsigned char*>(in_.host[j]) + byte_size(in_.types[j], base);
  const std::uint64_t bytes = byte_size(in_.types[j], len);
  if (reads_host_in_place(ex_.ctx.info)) {  // the chunk where it is, alive until the Exec ends
    staged_[j] = ex_.host_buffer(first, bytes, size_of(in_.types[j]));
    return staged_[j];
  }
  if (bytes) RDX_CHECK(ex_.queue.enqueueWriteBuffer(staged_[j], CL_TRUE, 0, bytes, first));
  return staged_[j];
}

const cl::Buffer& UserChunks::set(std::uint64_t base, std::uint64_t len) {
  ex_.user->base = base;
  ex_.user->inputs.clear();
  for (std::size_t j = 1; j < in_.types.size(); ++j)
    ex_.user->inputs.push_back(at(j, base, len));
  return at(0, base, len);
}

}  // namespace rdx::detail
