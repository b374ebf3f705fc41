#include "exec/exec.hpp"

#include "exec/wait_gate.hpp"

#include "core/format.hpp"

#include "core/cl_check.hpp"
#include "core/host_input.hpp"
#include "ops/cl_definitions.hpp"
#include "ops/operators.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace rdx::detail {

Exec::~Exec() {
  if (!idle_) queue.finish();
}

std::string Exec::defines(std::size_t wg) const {
  return detail::format("{} {} {} -DWG={}{}", name(plan.type), name(plan.acc), name(plan.op), wg,
                        offset_build() ? " -DIN_OFFSET" : "");
}

Kernel Exec::kernel(const std::string& file, const char* name, const std::string& extra) {
  const std::string& definitions =
      user ? *user->definitions : cl_definitions(plan.type, plan.acc, plan.op);
  for (std::size_t wg = plan.work_group_size;; wg /= 2) {
    const std::string opts = detail::format("-DWG={}", wg) + (extra.empty() ? "" : " " + extra) +
                             (offset_build() ? " -DIN_OFFSET" : "");
    cl::Program prog = ctx.programs.get(ctx.context, ctx.device, file, definitions, opts);
    cl_int err = CL_SUCCESS;
    cl::Kernel k(prog, name, &err);
    RDX_CHECK_OUT(err, detail::format("clCreateKernel({})", name));
    std::size_t max_wg = 0;
    cl_ulong local = 0;
    RDX_CHECK(k.getWorkGroupInfo(ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &max_wg));
    RDX_CHECK(k.getWorkGroupInfo(ctx.device, CL_KERNEL_LOCAL_MEM_SIZE, &local));
    if ((wg <= max_wg && local <= ctx.info.local_mem) || wg == 1) {
      cl_uint num_args = 0;
      RDX_CHECK(k.getInfo(CL_KERNEL_NUM_ARGS, &num_args));
      Kernel built{k, wg, name, num_args};
      note_built(built);
      return built;
    }
  }
}

States Exec::states(std::uint64_t count) {
  const std::uint64_t n = count ? count : 1;
  cl_int err = CL_SUCCESS;
  States s;
  s.count = n;
  s.values = cl::Buffer(ctx.context, CL_MEM_READ_WRITE, n * state_bytes(), nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of scratch)", n * state_bytes()));
  if (indexed()) {
    s.indices = cl::Buffer(ctx.context, CL_MEM_READ_WRITE, n * sizeof(cl_ulong), nullptr, &err);
    RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of indices)", n * sizeof(cl_ulong)));
  } else {
    s.indices = s.values;
  }
  scratch_.push_back(s);
  return s;
}

bool Exec::offset_build() const {
  return in_offset != 0 || (user && std::any_of(user->offsets.begin(), user->offsets.end(),
                                                [](std::uint64_t o) { return o != 0; }));
}

void Exec::input_args(Kernel& k, cl_uint first) {
  if (k.num_args == first) return;  // a kernel that reads states only
  const bool offsets = offset_build();
  cl_uint i = first;
  if (offsets) set_arg(k, i++, in_offset);
  if (k.num_args == i && (offsets || !user)) return;  // reads the first input alone
  const std::size_t further = user ? user->inputs.size() : 0;
  const auto tail = static_cast<cl_uint>(user ? 1 + further * (offsets ? 2 : 1) : 0);
  if (!user || k.num_args != i + tail)
    throw std::logic_error(
        detail::format("{}: {} arguments given, the kernel takes {} ({} with the "
                       "input's offset and a user's inputs)",
                       k.name, first, k.num_args, i + tail));
  if (offsets && user->offsets.size() != further)
    throw std::logic_error(k.name + ": a user's further inputs without their offsets");
  set_arg(k, i++, user->base);
  for (std::size_t j = 0; j < further; ++j) {
    set_arg(k, i++, user->inputs[j]);
    if (offsets) set_arg(k, i++, user->offsets[j]);
  }
}

void Exec::no_user(const char* what) const {
  if (user)
    throw std::logic_error(std::string(what) +
                           ": a user's reduction's states combine on the device only");
}

void Exec::set_arg(Kernel& k, cl_uint i, const cl::Buffer& b) {
  const cl_int err = k.kernel.setArg(i, b);
  RDX_CHECK_OUT(err, detail::format("clSetKernelArg({}, {})", k.name, i));
}

void Exec::set_arg(Kernel& k, cl_uint i, std::uint64_t v) {
  const cl_int err = k.kernel.setArg(i, static_cast<cl_ulong>(v));
  RDX_CHECK_OUT(err, detail::format("clSetKernelArg({}, {})", k.name, i));
}

void Exec::set_arg(Kernel& k, cl_uint i, const cl::LocalSpaceArg& local) {
  const cl_int err = k.kernel.setArg(i, local);
  RDX_CHECK_OUT(err, detail::format("clSetKernelArg({}, {}, local)", k.name, i));
}

void Exec::set_arg(Kernel& k, cl_uint i, const Scalar& v) {
  const cl_int err = clSetKernelArg(k.kernel(), i, size_of(v.type), &v.bits);
  RDX_CHECK_OUT(err, detail::format("clSetKernelArg({}, {})", k.name, i));
}

double Exec::device_seconds() {
  double total = 0;
  for (auto& ev : events_) {
    RDX_CHECK(ev.wait());
    cl_ulong start = 0, end = 0;
    RDX_CHECK(ev.getProfilingInfo(CL_PROFILING_COMMAND_START, &start));
    RDX_CHECK(ev.getProfilingInfo(CL_PROFILING_COMMAND_END, &end));
    total += static_cast<double>(end - start) * 1e-9;
  }
  return total;
}

cl::Buffer Exec::buffer(std::size_t bytes, const void* init) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.context, CL_MEM_READ_WRITE, bytes ? bytes : 1, nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of scratch)", bytes));
  if (init && bytes) RDX_CHECK(queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, init));
  buffers_.push_back(b);
  return b;
}

cl::Buffer Exec::host_buffer(const void* host, std::uint64_t bytes, std::size_t element_size) {
  cl::Buffer b = host_input(ctx, host, bytes, element_size);
  buffers_.push_back(b);
  return b;
}

std::vector<Outcome> Exec::read_all(const States& s, std::uint64_t count) {
  WaitGate::before_wait();
  no_user("Exec::read_all");
  const std::size_t acc = size_of(plan.acc);
  std::vector<unsigned char> values(count * acc);
  std::vector<cl_ulong> idx(indexed() ? count : 0);
  if (count) {
    RDX_CHECK(queue.enqueueReadBuffer(s.values, CL_TRUE, 0, values.size(), values.data()));
    if (indexed())
      RDX_CHECK(
          queue.enqueueReadBuffer(s.indices, CL_TRUE, 0, count * sizeof(cl_ulong), idx.data()));
  }
  std::vector<Outcome> out(count);
  for (std::uint64_t k = 0; k < count; ++k) {
    out[k].value = Scalar::from_bytes(plan.acc, values.data() + k * acc);
    if (indexed()) out[k].index = idx[k];
  }
  return out;
}

Outcome Exec::identity() const {
  no_user("Exec::identity");
  if (indexed()) return {Scalar::from_bytes(plan.acc, "\0\0\0\0\0\0\0\0"), kNoIndex};
  return visit_acc(plan.acc, [&](auto z) -> Outcome {
    return {Scalar::of(identity_value<decltype(z)>(plan.op)), std::nullopt};
  });
}

Outcome Exec::combine(const Outcome& a, const Outcome& b) const {
  no_user("Exec::combine");
  return combine_outcomes(plan, a, b);
}

Outcome combine_outcomes(const Plan& plan, const Outcome& a, const Outcome& b) {
  const bool indexed = is_index_op(plan.op);
  return visit_acc(plan.acc, [&](auto z) -> Outcome {
    using A = decltype(z);
    const TypedState<A> r = combine_states<A>(plan.op, {a.value.as<A>(), a.index.value_or(0)},
                                              {b.value.as<A>(), b.index.value_or(0)});
    return {Scalar::of(r.value), indexed ? std::optional<std::uint64_t>(r.index) : std::nullopt};
  });
}

namespace {

// The staged values' bytes: the indices follow them, 8-aligned.
std::size_t staged_values_bytes(const Plan& plan, std::uint64_t count) {
  return (count * size_of(plan.acc) + 7) / 8 * 8;
}

// Up to this many states fold in a buffer on the stack (a host finish reads at most a
// work-group's partials, kMostHostPartials in plan/fast_tuning.cpp): a small grid's every
// call folds its partials, and a heap buffer for them cost it time (docs/performance.md).
constexpr std::uint64_t kStackStates = 256;

// state(0) .. state(count - 1) combined pairwise, neighbours first: depth ceil(log2(count)), like
// a work-group's tree.
template <class S, class State, class Combine>
S folded(std::uint64_t count, State state, Combine combine) {
  if (count == 0) throw std::logic_error("fold_states: no states to fold");
  S stack[kStackStates];
  std::vector<S> heap(count > kStackStates ? count : 0);
  S* s = count > kStackStates ? heap.data() : stack;
  for (std::uint64_t k = 0; k < count; ++k)
    s[k] = state(k);
  for (std::uint64_t w = 1; w < count; w *= 2)
    for (std::uint64_t k = 0; k + w < count; k += 2 * w)
      s[k] = combine(s[k], s[k + w]);
  return s[0];
}

}  // namespace

Outcome fold_states(const Plan& plan, const unsigned char* values, const unsigned char* indices,
                    std::uint64_t count) {
  const Op op = plan.op;
  return visit_acc(plan.acc, [&](auto z) -> Outcome {
    using A = decltype(z);
    auto value = [&](std::uint64_t k) {
      A x;
      std::memcpy(&x, values + k * sizeof(A), sizeof(A));
      return x;
    };
    if (!is_index_op(op)) {  // the values alone
      const A v = folded<A>(count, value, [op](A x, A y) { return combine_values(op, x, y); });
      return {Scalar::of(v), std::nullopt};
    }
    const TypedState<A> t = folded<TypedState<A>>(
        count,
        [&](std::uint64_t k) {
          TypedState<A> s{value(k), 0};
          std::memcpy(&s.index, indices + k * sizeof(std::uint64_t), sizeof(s.index));
          return s;
        },
        [op](const TypedState<A>& x, const TypedState<A>& y) {
          return combine_states<A>(op, x, y);
        });
    return {Scalar::of(t.value), std::optional<std::uint64_t>(t.index)};
  });
}

void Exec::launch(Kernel& k, std::uint64_t global, std::size_t local,
                  const std::vector<cl::Event>* wait, cl::Event* done) {
  const std::uint64_t groups = (global + local - 1) / local;
  idle_ = false;
  cl::Event ev;
  cl::Event* event = done ? done : profile_ ? &ev : nullptr;
  const cl_int err = queue.enqueueNDRangeKernel(
      k.kernel, cl::NullRange, cl::NDRange(static_cast<std::size_t>(groups * local)),
      cl::NDRange(local), wait && !wait->empty() ? wait : nullptr, event);
  if (profile_ && err == CL_SUCCESS) events_.push_back(*event);
  RDX_CHECK_OUT(err, detail::format("clEnqueueNDRangeKernel({}, global {}, local {})", k.name,
                                    groups * local, local));
}

Outcome Exec::read(const States& s, std::uint64_t k, unsigned char* staging, std::uint64_t count) {
  if (user) {
    if (count != 1) return fold(s, k, count);
    Outcome o;
    o.state.resize(user->state_bytes);
    read_bytes(s.values, k * user->state_bytes, user->state_bytes, o.state.data());
    return o;
  }
  const std::size_t acc = size_of(plan.acc);
  const std::size_t value_bytes = staged_values_bytes(plan, count);
  unsigned char small[16];  // one state: 8 bytes of value, 8 of index
  std::vector<unsigned char> own;
  if (!staging) {
    const std::size_t need = staging_bytes(plan, count);
    if (need > sizeof small) own.resize(need);
    staging = need > sizeof small ? own.data() : small;
  }
  read_indices_later(s, k, staging, count);
  read_bytes(s.values, k * acc, count * acc, staging);
  return fold_states(plan, staging, staging + value_bytes, count);
}

void Exec::read_indices_later(const States& s, std::uint64_t k, unsigned char* staging,
                              std::uint64_t count) {
  if (indexed())  // after the values in staging; the values' read follows it on the queue
    RDX_CHECK(queue.enqueueReadBuffer(s.indices, CL_FALSE, k * sizeof(cl_ulong),
                                      count * sizeof(cl_ulong),
                                      staging + staged_values_bytes(plan, count)));
}

Outcome Exec::fold(const States& s, std::uint64_t k, std::uint64_t count, const States* tail) {
  if (!user) throw std::logic_error("Exec::fold: for a user's reduction's states");
  Kernel f = kernel("fold.cl", "fold_states");
  States out = states(1);
  args(f, s.values, k, count, tail ? tail->values : s.values, std::uint64_t{tail ? 1u : 0u},
       out.values);
  launch(f, 1, 1);
  return read(out);
}

void Exec::read_bytes(const cl::Buffer& b, std::size_t offset, std::size_t bytes, void* dst) {
  if (plan.poll_result) {
    wait_read(read_bytes_later(b, offset, bytes, dst));
    return;
  }
  WaitGate::before_wait();
  RDX_CHECK(queue.enqueueReadBuffer(b, CL_TRUE, offset, bytes, dst));
  idle_ = true;
}

cl::Event Exec::read_bytes_later(const cl::Buffer& b, std::size_t offset, std::size_t bytes,
                                 void* dst) {
  cl::Event ev;
  RDX_CHECK(queue.enqueueReadBuffer(b, CL_FALSE, offset, bytes, dst, nullptr, &ev));
  RDX_CHECK(queue.flush());
  idle_ = false;
  return ev;
}

void Exec::wait_read(const cl::Event& read) {
  WaitGate::before_wait();
  if (plan.poll_result) {
    for (;;) {  // a command that failed reports its (negative) error as its status
      cl_int status = CL_QUEUED;
      RDX_CHECK(read.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status));
      if (status == CL_COMPLETE) break;
      if (status < 0) throw ClError(status, "clEnqueueReadBuffer(result)");
    }
  } else {
    RDX_CHECK(read.wait());
  }
  idle_ = true;
}

cl::Event Exec::read_later(const States& s, std::uint64_t k, unsigned char* staging,
                           std::uint64_t count) {
  no_user("Exec::read_later");
  const std::size_t acc = size_of(plan.acc);
  read_indices_later(s, k, staging, count);
  return read_bytes_later(s.values, k * acc, count * acc, staging);
}

Outcome Exec::read_wait(const cl::Event& read, const unsigned char* staging, std::uint64_t count) {
  wait_read(read);
  return fold_states(plan, staging, staging + staged_values_bytes(plan, count), count);
}

std::size_t staging_bytes(const Plan& plan, std::uint64_t count) {
  return staged_values_bytes(plan, count) + (is_index_op(plan.op) ? count * 8 : 0);
}

}  // namespace rdx::detail
