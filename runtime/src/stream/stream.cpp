// rdx::Stream: host chunks reduced as one input. push() writes into one of two device slots on a
// queue of its own while a worker thread reduces the other slot on the context's queue; the
// worker combines the chunk results on the host (chunk_combiner.hpp), or under Determinism
// AnyDevice and Exact merges the chunks' fixed bins or adds their exact sums as integers
// (ops/sum_state.hpp), rounded once.
#include "rdx/stream.hpp"

#include "core/format.hpp"

#include <array>
#include <condition_variable>
#include <deque>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "dispatch/partial_access.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_sum.hpp"
#include "exec/chunks.hpp"
#include "ops/sum_state.hpp"
#include "stream/chunk_combiner.hpp"

namespace rdx {

struct Stream::Impl {
  Impl(Context& c, Type t, Op o, const Options& opts, std::uint64_t slot_bytes)
      : ctx(c), type(t), op(o), opts(opts), es(size_of(t)) {
    whole =
        make_plan(ctx.device_info(), type, op, 0, opts, ctx.tuning());  // throws for a bad request
    if (detail::keeps_sum_state(whole)) exact = detail::sum_zero(whole);
    const std::uint64_t max_alloc = ctx.device_info().max_alloc;
    std::uint64_t bytes = slot_bytes ? slot_bytes : kDefaultSlotBytes;
    if (max_alloc) bytes = std::min(bytes, max_alloc);
    slot_elems = std::max<std::uint64_t>(bytes / es, 1);
    cl_int err = CL_SUCCESS;
    writes = cl::CommandQueue(detail::impl_of(ctx).context, detail::impl_of(ctx).device, 0, &err);
    RDX_CHECK_OUT(err, "clCreateCommandQueue(stream writes)");
  }

  // Waits for every pushed chunk and ends the worker (the stream is finished), or throws what
  // made the stream fail (it is failed then).
  void drain();

  // The plan of every element pushed as one input (what an exact sum's result reports).
  Plan pushed_plan() const {
    return make_plan(ctx.device_info(), type, op, pushed, opts, ctx.tuning());
  }

  // Throws what made the stream fail, or ArgumentError once it has finished.
  void check_usable() const {
    if (failed) std::rethrow_exception(failed);
    if (finished) throw ArgumentError("Stream: finish() was already called");
  }

  // Waits until the next slot is free (or the worker failed), then starts filling it.
  void acquire() {
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return error || !slots[next].busy; });
      if (error) std::rethrow_exception(error);
    }
    Slot& s = slots[next];
    if (!s.buf()) {
      cl_int err = CL_SUCCESS;
      s.buf = cl::Buffer(detail::impl_of(ctx).context, CL_MEM_READ_ONLY, slot_elems * es, nullptr,
                         &err);
      RDX_CHECK_OUT(err,
                    detail::format("clCreateBuffer({} bytes of stream slot)", slot_elems * es));
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      s.busy = true;
    }
    s.fill = 0;
    s.start = pushed;
    filling = next;
    next ^= 1;
  }

  // Hands the slot being filled to the worker.
  void submit() {
    // Every write queued so far is this slot's. Blocking writes are not enough on Intel's CPU
    // runtime: a kernel on the context's queue could read the slot's old bytes until the writes'
    // queue finished (rdx_stream_tests failed 28 of 621 checks there without this).
    RDX_CHECK(writes.finish());
    Slot& s = slots[static_cast<std::size_t>(filling)];
    {
      std::lock_guard<std::mutex> lock(mutex);
      jobs.push_back({filling, s.fill, s.start});
    }
    filling = -1;
    if (!worker.joinable()) worker = std::thread([this] { work(); });
    changed.notify_all();
  }

  // The worker: reduces each submitted slot in order and frees it; after a failure it only frees
  // them. Returns when stopped (abandoning jobs not started).
  void work() {
    for (;;) {
      Job job;
      bool skip = false;
      {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return stop || !jobs.empty(); });
        if (stop) return;
        job = jobs.front();
        skip = error != nullptr;
      }
      std::exception_ptr e;
      if (!skip) try {
          const Plan part = make_plan(ctx.device_info(), type, op, job.n, opts, ctx.tuning());
          const Slot& s = slots[static_cast<std::size_t>(job.slot)];
          if (exact) {
            double seconds = 0;
            detail::add_sum(*exact, detail::run_sum(detail::impl_of(ctx), part, s.buf, job.n,
                                                    opts.profile, &seconds));
            exact_seconds += seconds;
          } else {
            combiner.add(detail::run_plan(ctx, part, s.buf, job.n, opts.profile), job.start);
          }
        } catch (...) {
          e = std::current_exception();
        }
      {
        std::lock_guard<std::mutex> lock(mutex);
        jobs.pop_front();
        slots[static_cast<std::size_t>(job.slot)].busy = false;
        if (e && !error) error = e;
      }
      changed.notify_all();
    }
  }

  // Stops the worker (abandoning jobs not started), waits for every queued command, releases the
  // slots. Never throws.
  void shut_down() noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    if (worker.joinable()) worker.join();
    // The writes were blocking and the worker's reductions end with a blocking read (or wait
    // for the queue on failure), so this finds nothing left; it is the guard PoCL needs.
    if (writes()) writes.finish();
    for (auto& s : slots)
      s.buf = cl::Buffer();
  }

  Context& ctx;
  const Type type;
  const Op op;
  const Options opts;
  const std::size_t es;  // bytes per element
  Plan whole;            // the request, checked once (n = 0)
  std::uint64_t slot_elems = 0;
  cl::CommandQueue writes;

  // Owned by the caller's thread.
  struct Slot {
    cl::Buffer buf;
    std::uint64_t fill = 0;   // elements written
    std::uint64_t start = 0;  // index of its first element in the whole input
    bool busy = false;        // filling, queued or being reduced (guarded by mutex)
  };
  std::array<Slot, 2> slots;
  int filling = -1;  // the slot push() fills, or -1
  int next = 0;      // the slot to fill next
  std::uint64_t pushed = 0;
  bool finished = false;
  std::exception_ptr failed;

  // Shared with the worker, under mutex.
  struct Job {
    int slot = 0;
    std::uint64_t n = 0, start = 0;
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> jobs;
  bool stop = false;
  std::exception_ptr error;
  detail::ChunkCombiner combiner;  // the worker's; read by finish() once the jobs are done
  // Under AnyDevice and Exact, a float sum's chunks instead (the worker's, as combiner).
  std::optional<detail::SumState> exact;  // AnyDevice's bins or Exact's digits
  double exact_seconds = 0;
  std::thread worker;
};

Stream::Stream(Context& ctx, Type type, Op op, const Options& opts, std::uint64_t slot_bytes)
    : impl_(std::make_unique<Impl>(ctx, type, op, opts, slot_bytes)) {}

Stream::~Stream() {
  if (impl_) impl_->shut_down();
}

void Stream::check_type(Type t) const {
  if (t != impl_->type)
    throw ArgumentError(detail::format("Stream::push: {} elements pushed into a stream of {}",
                                       name(t), name(impl_->type)));
}

void Stream::push(const void* data, std::uint64_t n) {
  Impl& s = *impl_;
  s.check_usable();
  if (n == 0) return;
  if (!data) throw ArgumentError("Stream::push: data is null but n > 0");
  if (n > std::numeric_limits<std::uint64_t>::max() - s.pushed)
    throw ArgumentError("Stream::push: the element count overflows 64 bits");
  detail::byte_size(s.type, n);  // throws when n elements overflow a byte count
  try {
    const auto* p = static_cast<const unsigned char*>(data);
    // Pieces that fill the slots: the first what is left of the slot being filled.
    const std::uint64_t room =
        s.filling < 0 ? s.slot_elems
                      : s.slot_elems - s.slots[static_cast<std::size_t>(s.filling)].fill;
    detail::for_each_chunk(n, room, s.slot_elems, [&](std::uint64_t base, std::uint64_t m) {
      if (s.filling < 0) s.acquire();
      Impl::Slot& slot = s.slots[static_cast<std::size_t>(s.filling)];
      // Blocking: the caller may reuse its memory when push() returns.
      RDX_CHECK(s.writes.enqueueWriteBuffer(slot.buf, CL_TRUE, slot.fill * s.es, m * s.es,
                                            p + base * s.es));
      slot.fill += m;
      s.pushed += m;
      if (slot.fill == s.slot_elems) s.submit();
    });
  } catch (...) {
    s.failed = std::current_exception();
    throw;
  }
}

void Stream::Impl::drain() {
  check_usable();
  try {
    if (filling >= 0) submit();
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return jobs.empty(); });
      if (error) std::rethrow_exception(error);
    }
    shut_down();
    finished = true;
  } catch (...) {
    failed = std::current_exception();
    throw;
  }
}

Result Stream::finish() {
  Impl& s = *impl_;
  s.drain();
  if (s.pushed == 0) return detail::empty_result(s.whole);
  if (s.exact) return detail::sum_result(*s.exact, s.pushed_plan(), s.pushed, s.exact_seconds);
  return detail::finished_result(s.combiner.result(s.pushed));
}

Partial Stream::finish_partial() {
  Impl& s = *impl_;
  detail::check_partial_op(s.whole);
  s.drain();
  if (s.pushed == 0) return detail::PartialAccess::empty(s.whole);
  if (s.exact)
    return detail::PartialAccess::of_sum(*s.exact, s.pushed_plan(), s.pushed, s.exact_seconds);
  return detail::PartialAccess::of_result(detail::publish(s.combiner.result(s.pushed)), s.pushed);
}

std::uint64_t Stream::count() const {
  return impl_->pushed;
}

std::uint64_t Stream::slot_elements() const {
  return impl_->slot_elems;
}

}  // namespace rdx
