// Runs a user's reduction (rdx/custom.hpp) with the plan's strategy, whose kernels are built
// with the reduction's definitions (USER_STATE, cl/common.h). auto, fast_strided and fast_blocked:
// cl/fast.cl's USER_STATE kernel, finished on the device; one launch and one read per chunk of at
// most one device allocation, each chunk's state combined with the earlier ones on the device.
// Every other strategy that can (StrategyFacts::user_unsupported): its own launcher, each chunk's
// state read back and the chunks' states folded on the device (Exec::fold).
#include "exec/run_user.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "exec/run_exact.hpp"
#include "exec/run_plan.hpp"
#include "ops/user_reduction.hpp"
#include "strategies/fast_scratch.hpp"
#include "strategies/fast_tuning.hpp"
#include "strategies/registry.hpp"

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
  RDX_CHECK_OUT(err, fmt::format("clCreateBuffer({} bytes of identity probes)", bytes));
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
    p->ready = true;
  }
  return p;
}

namespace {

struct UserSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel kernel;
  bool vector_map = false;  // the kernel runs the vector form
  FastScratch scratch;      // part_v holds the states (part_i is part_v)
};

bool is_fast(const Plan& p) {
  return p.strategy == "fast_strided" || p.strategy == "fast_blocked";
}

}  // namespace

UserInputs host_inputs(std::span<const Array> inputs, std::uint64_t n, std::string_view caller) {
  UserInputs in;
  for (const Array& a : inputs) {
    if (!a.data && n > 0)
      throw ArgumentError(fmt::format("{}: input {} is null but n > 0", caller, in.types.size()));
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

namespace {

// UnsupportedError for f64 inputs or fields on a device without fp64.
void check_fp64(const Context& ctx, const Reduction& r, std::span<const Type> inputs) {
  for (Type t : inputs)
    if (t == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(fmt::format("f64 needs cl_khr_fp64, which device '{}' does not have",
                                         ctx.device_info().name));
  for (const Field& f : r.fields)
    if (f.type == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(fmt::format(
          "the field '{}' is f64, which needs cl_khr_fp64; device '{}' does not have it", f.name,
          ctx.device_info().name));
}

// The plan a prepared reduction runs with: auto's fast_* plan for the first input's type,
// finished on the device, with vector_map = 1 where the blocked layout on a CPU runs its vector
// form (ops/user_reduction.hpp, has_vector_form); UnsupportedError for a strategy that cannot
// run it, or f64 without fp64. Pure but for the context's device facts and tuning.
Plan user_plan(const Context& ctx, const Reduction& r, const Prepared& prep,
               std::span<const Type> inputs, std::uint64_t n, const Options& opts) {
  const std::size_t state_bytes = prep.layout.bytes;
  Options o = opts;
  o.acc.reset();  // the fields have their own types
  Plan p = make_plan(ctx.device_info(), inputs[0], Op::Sum, n, o, ctx.tuning());
  const StrategyFacts* facts = find_facts(p.strategy);
  if (const std::string why = facts->user_unsupported
                                  ? facts->user_unsupported(ctx.device_info(), state_bytes)
                                  : std::string();
      !why.empty())
    throw UnsupportedError(fmt::format("the strategy {} does not run a user's reduction ('{}'): {}",
                                       p.strategy, r.name, why));
  check_fp64(ctx, r, inputs);
  if (is_fast(p)) {
    p.params.set("host_finish", 0);  // the host cannot run the user's combine
    const FastGrid g = fast_grid(p);
    // CPUs only: its loads rely on the compiler's support for under-aligned vector types (clang's).
    const bool cpu = ctx.device_info().kind == DeviceKind::CPU;
    const bool scalar = p.params.get("scalar_map").value_or(0) != 0;  // the tunable, if set
    p.params.set("vector_map", prep.vector_form && !prep.vector_failed && cpu && g.blocked &&
                                       g.vector_width > 1 && !scalar
                                   ? 1
                                   : 0);
  }
  p.reduction = r.name.empty() ? "custom" : r.name;  // never "": a plan with one is a user's
  p.acc = r.fields[0].type;
  if (facts->depth) p.depth = facts->depth(p, ctx.device_info());  // the user kernel's chains
  return p;
}

// The inputs as device buffers, chunk by chunk: host inputs are written to staging buffers of at
// most one device allocation each (`chunk` elements), device inputs are used as they are.
class Chunks {
 public:
  Chunks(Exec& ex, const DeviceInfo& dev, const UserInputs& in, std::uint64_t n)
      : ex_(ex), in_(in) {
    chunk = n ? n : 1;
    if (in.host.empty()) return;
    for (Type t : in.types)
      chunk = std::min(chunk, max_alloc_elements(dev, t));
    for (Type t : in.types)
      staged_.push_back(ex.buffer(byte_size(t, chunk)));
  }
  // Input j's buffer for elements [base, base + len) (len <= chunk); host inputs are written first.
  const cl::Buffer& at(std::size_t j, std::uint64_t base, std::uint64_t len) {
    if (in_.host.empty()) return in_.device[j];
    if (const std::uint64_t bytes = byte_size(in_.types[j], len))
      RDX_CHECK(ex_.queue.enqueueWriteBuffer(
          staged_[j], CL_TRUE, 0, bytes,
          static_cast<const unsigned char*>(in_.host[j]) + byte_size(in_.types[j], base)));
    return staged_[j];
  }
  std::uint64_t chunk = 1;

 private:
  Exec& ex_;
  const UserInputs& in_;
  std::vector<cl::Buffer> staged_;
};

// Points the kernels' further inputs (ELEM_PARAMS) at this chunk's; returns the first input's.
const cl::Buffer& set_chunk(Exec& ex, Chunks& c, std::size_t inputs, std::uint64_t base,
                            std::uint64_t len) {
  ex.user->base = base;
  ex.user->inputs.clear();
  for (std::size_t j = 1; j < inputs; ++j)
    ex.user->inputs.push_back(c.at(j, base, len));
  return c.at(0, base, len);
}

// cl/fast.cl's USER_STATE kernel over every chunk; the state at part[groups] (see fast.cl).
StateResult run_fast(Context& ctx, const Reduction& r, const Prepared& prep, const UserInputs& in,
                     std::uint64_t n, Exec& ex, const AsyncTarget* target) {
  auto& impl = impl_of(ctx);
  const Plan& plan = ex.plan;
  const StateLayout& layout = prep.layout;
  const FastGrid g = fast_grid(plan);
  Chunks chunks(ex, ctx.device_info(), in, n);
  const std::string extra = fast_build_options(plan, std::min(n, chunks.chunk));
  const bool vector_map = plan.params.get("vector_map").value_or(0) == 1;
  // The prepared reduction's address names it: the context keeps it as long as it lives.
  const auto slot =
      impl.cached<UserSlot>(fmt::format("user {} {} vector_map={} wg={} groups={}", fmt::ptr(&prep),
                                        extra, vector_map, plan.work_group_size, g.groups));
  std::lock_guard<std::mutex> lock(slot->mutex);
  if (!slot->ready) {
    try {
      slot->vector_map = vector_map;
      try {
        slot->kernel =
            ex.kernel("fast.cl", "fast_reduce", extra + (vector_map ? " -DUSER_VECTOR_MAP" : ""));
      } catch (const BuildError&) {
        if (!vector_map) throw;
        // has_vector_form's rules do not catch every expression whose vector form does not
        // compile ((uint)(a) + (int)(b): uint16 + int16 does not convert); the scalar form
        // computes the same.
        slot->vector_map = false;
        prep.vector_failed = true;
        slot->kernel = ex.kernel("fast.cl", "fast_reduce", extra);
      }
    } catch (const BuildError& e) {
      rethrow_build_error(r, in.types, e);
    }
    slot->scratch =
        make_fast_scratch(impl.context, ex.queue, g.groups + 1, layout.bytes, false, layout.bytes);
    slot->ready = true;
  }
  Kernel& k = slot->kernel;
  FastScratch& s = slot->scratch;
  ex.note_built(k);
  const std::uint64_t items = g.groups * k.wg;
  for (std::uint64_t base = 0, first = 1; first || base < n; first = 0) {
    const std::uint64_t len = std::min(chunks.chunk, n - base);
    const cl::Buffer& in0 = set_chunk(ex, chunks, in.types.size(), base, len);
    ex.args(k, in0, len, fast_per_item(len, items, g.vector_width), s.part_v, s.part_i, s.counter,
            std::uint64_t{first ? 0u : 1u});
    ex.launch(k, items, k.wg, target && first ? target->wait : nullptr);
    base += len;
  }
  Plan ran = plan;
  ran.params.set("vector_map", slot->vector_map ? 1 : 0);
  if (target) {  // the state's bytes into the caller's buffer; no host wait
    RDX_CHECK(ex.queue.enqueueCopyBuffer(s.part_v, *target->out, g.groups * layout.bytes,
                                         target->offset, layout.bytes, nullptr, target->done));
    RDX_CHECK(ex.queue.flush());
    ex.detach();
    return {{}, ran};
  }
  ex.read_bytes(s.part_v, g.groups * layout.bytes, layout.bytes, s.result->data());
  return {unpack_state(r, layout, s.result->data()), ran};
}

// Any other strategy: its launcher per chunk, the chunks' states folded on the device.
StateResult run_strategy(Context& ctx, const Reduction& r, const Prepared& prep,
                         const UserInputs& in, std::uint64_t n, Exec& ex) {
  const StateLayout& layout = prep.layout;
  const StrategyDef* s = find_strategy(ex.plan.strategy);
  Chunks chunks(ex, ctx.device_info(), in, n);
  std::vector<unsigned char> states;  // each chunk's state
  std::uint64_t count = 0;
  try {
    for (std::uint64_t base = 0; base < n; ++count) {
      const std::uint64_t len = std::min(chunks.chunk, n - base);
      const cl::Buffer& in0 = set_chunk(ex, chunks, in.types.size(), base, len);
      const Outcome o = s->run(ex, in0, len);
      states.insert(states.end(), o.state.begin(), o.state.end());
      base += len;
    }
    if (count != 1) {  // several chunks, or none (the identity)
      const cl::Buffer b = ex.buffer(states.size(), states.data());
      states = ex.fold({b, b, count}, 0, count).state;
    }
  } catch (const BuildError& e) {
    rethrow_build_error(r, in.types, e);
  }
  return {unpack_state(r, layout, states.data()), ex.plan};
}

}  // namespace

ExactFields exact_fields(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                         const Options& opts) {
  const auto prep = prepare(ctx, r, in.types);
  check_fp64(ctx, r, in.types);
  Options o = opts;
  o.acc.reset();  // the fields have their own types
  ExactFields out;
  out.plan = make_plan(ctx.device_info(), r.fields[0].type, Op::Sum, n, o, ctx.tuning());
  out.plan.reduction = r.name.empty() ? "custom" : r.name;
  Exec ex(impl_of(ctx), out.plan, opts.profile);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}};
  Chunks chunks(ex, ctx.device_info(), in, n);
  for (const Field& f : r.fields)
    out.sums.push_back(exact_zero(f.type));
  try {
    for (std::uint64_t base = 0; base < n;) {
      const std::uint64_t len = std::min(chunks.chunk, n - base);
      const cl::Buffer& in0 = set_chunk(ex, chunks, in.types.size(), base, len);
      for (std::size_t f = 0; f < r.fields.size(); ++f)
        add_exact(out.sums[f], run_exact(ex, in0, len, r.fields[f].type, r.fields[f].name));
      base += len;
    }
  } catch (const BuildError& e) {
    rethrow_build_error(r, in.types, e);
  }
  if (opts.profile) out.device_seconds = ex.device_seconds();
  return out;
}

namespace {

// enqueue_reduce of a reduction whose fields are all float sums (device inputs): the state zeroed
// (its padding, and an empty input's +0 sums), then each field's exact sum rounded on the device
// into its place; the last command's event is the target's.
StateResult enqueue_exact_fields(Context& ctx, const Reduction& r, const UserInputs& in,
                                 std::uint64_t n, const Options& opts, const AsyncTarget& target) {
  const auto prep = prepare(ctx, r, in.types);
  check_fp64(ctx, r, in.types);
  Options o = opts;
  o.acc.reset();
  StateResult res;
  res.plan = make_plan(ctx.device_info(), r.fields[0].type, Op::Sum, n, o, ctx.tuning());
  res.plan.reduction = r.name.empty() ? "custom" : r.name;
  Exec ex(impl_of(ctx), res.plan);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}};
  const std::vector<cl::Event>* wait = target.wait && !target.wait->empty() ? target.wait : nullptr;
  const cl_uchar zero = 0;
  RDX_CHECK(ex.queue.enqueueFillBuffer(*target.out, zero, target.offset, prep->layout.bytes, wait,
                                       n ? nullptr : target.done));
  if (n) {
    Chunks chunks(ex, ctx.device_info(), in, n);  // device inputs: one chunk
    const cl::Buffer& in0 = set_chunk(ex, chunks, in.types.size(), 0, n);
    try {
      for (std::size_t f = 0; f < r.fields.size(); ++f)
        enqueue_exact(ex, in0, n, r.fields[f].type, r.fields[f].name, r.fields[f].type, *target.out,
                      target.offset + prep->layout.offsets[f], nullptr,
                      f + 1 == r.fields.size() ? target.done : nullptr);
    } catch (const BuildError& e) {
      rethrow_build_error(r, in.types, e);
    }
  }
  ex.detach();
  RDX_CHECK(ex.queue.flush());
  return res;
}

}  // namespace

StateResult run_user(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                     const Options& opts, const AsyncTarget* target) {
  const auto prep = prepare(ctx, r, in.types);  // validates r
  if (opts.determinism != Determinism::RunToRun) {
    switch (field_sums(r)) {
      case FieldSums::FloatSums:
        if (target) return enqueue_exact_fields(ctx, r, in, n, opts, *target);
        {
          // Each field's sum rounded once in the field's type.
          const ExactFields e = exact_fields(ctx, r, in, n, opts);
          StateResult res;
          res.plan = e.plan;
          for (std::size_t f = 0; f < r.fields.size(); ++f)
            res.fields.push_back(round_exact(e.sums[f], r.fields[f].type, r.fields[f].type, n));
          if (opts.profile) res.device_seconds = e.device_seconds;
          return res;
        }
      case FieldSums::NoFloats: {  // integer operators: the order does not matter
        Options o = opts;
        o.determinism = Determinism::RunToRun;
        return run_user(ctx, r, in, n, o, target);
      }
      case FieldSums::Other:
        throw UnsupportedError(fmt::format(
            "determinism {}: the reduction '{}' has float fields that are not sums (a + b); only "
            "float sums (sum and dot transform-reduce, mean, norm2) and integer fields are "
            "reproducible",
            name(opts.determinism), r.name));
    }
  }
  const Plan plan = user_plan(ctx, r, *prep, in.types, n, opts);
  if (target && !is_fast(plan))
    throw UnsupportedError(fmt::format(
        "enqueue_reduce runs a user's reduction with auto, fast_strided or fast_blocked, not {} "
        "(its launcher reads its result on the host)",
        plan.strategy));
  Exec ex(impl_of(ctx), plan, opts.profile);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}};
  StateResult res = is_fast(plan) ? run_fast(ctx, r, *prep, in, n, ex, target)
                                  : run_strategy(ctx, r, *prep, in, n, ex);
  if (opts.profile && !target) res.device_seconds = ex.device_seconds();
  // A kernel that does not fit the planned work-group size ran with a smaller one.
  if (const std::size_t wg = ex.work_group_size_built(); wg && wg < plan.work_group_size)
    res.plan.work_group_size = wg;
  return res;
}

}  // namespace rdx::detail
