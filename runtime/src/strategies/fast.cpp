// Launcher of cl/fast.cl (the strategy behind auto): one launch, one read. The kernel and its
// scratch (partials + the last-group counter) are built once per context and plan shape, and
// reused; a mutex keeps concurrent calls on one context from sharing them mid-call. A user's
// reduction (run_user): the USER_STATE kernel, finished on the device; one launch per chunk of at
// most one device allocation, each chunk's state combined with the earlier ones on the device,
// and one read (or, for rdx::enqueue_reduce, a copy into the caller's buffer).
#include "core/format.hpp"

#include <algorithm>
#include <compare>
#include <functional>
#include <memory>
#include <mutex>

#include "core/cl_check.hpp"
#include "core/keyed_slots.hpp"
#include "exec/chunks.hpp"
#include "plan/fast_tuning.hpp"
#include "strategies/fast_scratch.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

struct FastSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel kernel;
  FastScratch scratch;
};

// What a FastSlot's program and scratch depend on: its key among a context's FastSlots. A struct,
// not a formatted string, since the lookup runs on every call (a string key's formatting cost
// about 0.9 us of a small GPU call's host work).
struct FastKey {
  Type type, acc;
  Op op;
  std::size_t wg;
  bool in_offset;
  unsigned vector_width, unroll;
  bool blocked, host_finish, idx32;
  std::uint64_t groups;
  auto operator<=>(const FastKey&) const = default;
};

// The context's FastSlots, one per key.
using FastSlots = KeyedSlots<FastKey, FastSlot>;

struct UserSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel kernel;
  bool vector_map = false;  // the kernel runs the vector form
  FastScratch scratch;      // part_v holds the states (part_i is part_v)
};

}  // namespace

FastScratch make_fast_scratch(const cl::Context& ctx, const cl::CommandQueue& queue,
                              std::size_t states, std::size_t state_bytes, bool indexed,
                              std::size_t result_bytes) {
  FastScratch s;
  cl_int err = CL_SUCCESS;
  s.part_v = cl::Buffer(ctx, CL_MEM_READ_WRITE, states * state_bytes, nullptr, &err);
  RDX_CHECK_OUT(err, "clCreateBuffer(fast partials)");
  s.part_i = indexed ? cl::Buffer(ctx, CL_MEM_READ_WRITE, states * 8, nullptr, &err) : s.part_v;
  RDX_CHECK_OUT(err, "clCreateBuffer(fast indices)");
  const cl_uint zero = 0;
  s.counter = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero,
                         const_cast<cl_uint*>(&zero), &err);
  RDX_CHECK_OUT(err, "clCreateBuffer(fast counter)");
  s.result = std::make_unique<PinnedBytes>(ctx, queue, result_bytes);
  return s;
}

namespace {

// 32-bit strided indices while every k + UNROLL * stride stays below 2^31.
bool fast_idx32(const Plan& p, const FastGrid& g, std::uint64_t n) {
  return !g.blocked && n / g.vector_width + (g.unroll + 1) * g.groups * p.work_group_size <
                           (std::uint64_t{1} << 31);
}

}  // namespace

std::string fast_build_options(const Plan& p, std::uint64_t n) {
  const FastGrid g = fast_grid(p);
  return detail::format("-DVW={} -DBLOCKED={} -DBLOCK={} -DUNROLL={} -DHOST_FINISH={}{}",
                        g.vector_width, g.blocked ? 1 : 0, kFastBlock, g.unroll,
                        g.host_finish ? 1 : 0, fast_idx32(p, g, n) ? " -DIDX32" : "");
}

namespace {

// cl/fast.cl enqueued over the grid, the slot held until its states are read: where they lie.
struct FastLaunch {
  std::shared_ptr<FastSlot> slot;
  std::unique_lock<std::mutex> lock;
  States states;
  std::uint64_t first = 0, count = 1;  // the states the host reads and combines
};

FastLaunch launch_fast(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const Plan& p = ex.plan;
  const FastGrid g = fast_grid(p);
  FastLaunch l;
  l.slot = ex.ctx.cached<FastSlots>("fast")->get(
      FastKey{p.type, p.acc, p.op, p.work_group_size, ex.offset_build(), g.vector_width, g.unroll,
              g.blocked, g.host_finish, fast_idx32(p, g, n), g.groups},
      [] { return std::make_shared<FastSlot>(); });
  l.lock = std::unique_lock<std::mutex>(l.slot->mutex);
  FastSlot& slot = *l.slot;
  if (!slot.ready) {
    slot.kernel = ex.kernel("fast.cl", "fast_reduce", fast_build_options(p, n));
    slot.scratch =
        make_fast_scratch(ex.ctx.context, ex.queue, g.groups + 1, size_of(p.acc), is_index_op(p.op),
                          staging_bytes(p, g.host_finish ? g.groups : 1));
    slot.ready = true;
  }
  Kernel& k = slot.kernel;
  FastScratch& s = slot.scratch;
  ex.note_built(k);
  const std::uint64_t items = g.groups * k.wg;
  ex.args(k, in, n, fast_per_item(n, items, g.vector_width), s.part_v, s.part_i, s.counter);
  ex.launch(k, items, k.wg);
  l.states = States{s.part_v, s.part_i, g.groups + 1};
  // The host combines the groups' partials, or reads the last group's result.
  l.first = g.host_finish ? 0 : g.groups;
  l.count = g.host_finish ? g.groups : 1;
  return l;
}

}  // namespace

Outcome run_fast(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const FastLaunch l = launch_fast(ex, in, n);
  return ex.read(l.states, l.first, l.slot->scratch.result->data(), l.count);
}

std::function<Outcome()> enqueue_fast(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  auto l = std::make_shared<FastLaunch>(launch_fast(ex, in, n));
  unsigned char* staging = l->slot->scratch.result->data();
  const cl::Event read = ex.read_later(l->states, l->first, staging, l->count);
  // The slot stays locked until the read is waited for (or the Exec has waited: it outlives this).
  return [&ex, l, read, staging] { return ex.read_wait(read, staging, l->count); };
}

// A user's reduction finishes on the device, with vector_map = 1 where the blocked layout on a
// CPU runs its vector form (ops/user_reduction.hpp, has_vector_form).
template <bool kBlocked>
void fast_user_plan(const DeviceInfo& dev, const Prepared& prep, const Options& opts,
                    const TuningTable& tuning, Plan& p) {
  tune_fast_device_finish(dev, p, opts, tuning, kBlocked);  // the host cannot run its combine
  const FastGrid g = fast_grid(p);
  // CPUs only: its loads rely on the compiler's support for under-aligned vector types (clang's).
  const bool cpu = dev.kind == DeviceKind::CPU;
  const bool scalar = p.params.get("scalar_map").value_or(0) != 0;  // the tunable, if set
  p.params.set("vector_map", prep.vector_form && !prep.vector_failed && cpu && g.blocked &&
                                     g.vector_width > 1 && !scalar
                                 ? 1
                                 : 0);
  // A chunk form (Reduction::chunk) runs where the reduction has one and maps no vector form.
  if (!prep.chunk_form || p.params.get("vector_map") == 1) p.params.set("chunk", 0);
}

// cl/fast.cl's USER_STATE kernel over every chunk; the state at part[groups] (see fast.cl).
StateResult run_fast_user(Context& ctx, const Reduction& r, const Prepared& prep,
                          const UserInputs& in, std::uint64_t n, Exec& ex,
                          const AsyncTarget* target) {
  const Plan& plan = ex.plan;
  const StateLayout& layout = prep.layout;
  const FastGrid g = fast_grid(plan);
  UserChunks chunks(ex, ctx.device_info(), in, n);
  const std::uint64_t chunk_form = plan.params.get("chunk").value_or(0);
  const std::string extra =
      fast_build_options(plan, std::min(n, chunks.chunk)) +
      (chunk_form ? detail::format(" -DRDX_CHUNK={}", chunk_form) : std::string());
  const bool vector_map = plan.params.get("vector_map").value_or(0) == 1;
  // The prepared reduction's address names it: the context keeps it as long as it lives.
  const auto slot = ex.ctx.cached<UserSlot>(
      detail::format("user {} {} vector_map={} wg={} groups={} offsets={}", fmt::ptr(&prep), extra,
                     vector_map, plan.work_group_size, g.groups, ex.offset_build()));
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
    slot->scratch = make_fast_scratch(ex.ctx.context, ex.queue, g.groups + 1, layout.bytes, false,
                                      layout.bytes);
    slot->ready = true;
  }
  Kernel& k = slot->kernel;
  FastScratch& s = slot->scratch;
  ex.note_built(k);
  const std::uint64_t items = g.groups * k.wg;
  // Each chunk after the first (carry = 1) combines its state with the earlier ones'; an empty
  // input runs once, for the identity.
  bool first = true;
  const auto step = [&](std::uint64_t base, std::uint64_t len) {
    ex.args(k, chunks.set(base, len), len, fast_per_item(len, items, g.vector_width), s.part_v,
            s.part_i, s.counter, std::uint64_t{first ? 0u : 1u});
    ex.launch(k, items, k.wg, target && first ? target->wait : nullptr);
    first = false;
  };
  if (n == 0)
    step(0, 0);
  else
    for_each_chunk(n, chunks.chunk, step);
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

StrategyRun strategy_fast_strided() {
  return {run_fast, enqueue_fast, fast_user_plan<false>, run_fast_user};
}

StrategyRun strategy_fast_blocked() {
  return {run_fast, enqueue_fast, fast_user_plan<true>, run_fast_user};
}

}  // namespace rdx::detail
