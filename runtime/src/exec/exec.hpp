// Internal: what a strategy's launcher works with: kernels built for its plan, scratch states,
// checked launches and read-back. One Exec per reduce call.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "core/pinned_bytes.hpp"
#include "ops/operators.hpp"

namespace rdx::detail {

// Partial reduction states on the device: values (acc type) and, for argmin/argmax, indices.
// For other operators `indices` is the values buffer again and never read.
struct States {
  cl::Buffer values, indices;
  std::uint64_t count = 0;
};

// A reduction state back on the host: a built-in operator's value (and index), or the bytes of
// a user's reduction's state (rdx_state, ops/user_reduction.hpp), which only the device combines.
struct Outcome {
  Scalar value;
  std::optional<std::uint64_t> index;
  std::vector<unsigned char> state = {};
};

// A user's reduction run by a strategy's kernels (dispatch/run_user.cpp): their definitions, the
// state's size, and the arguments that end the parameters of every kernel that reads input
// elements (ELEM_PARAMS, cl/common.h), which Exec::args appends.
struct UserRun {
  const std::string* definitions = nullptr;  // kept by the context (exec/user_inputs.cpp)
  std::size_t state_bytes = 0;
  std::uint64_t base = 0;          // the index of the current chunk's first element
  std::vector<cl::Buffer> inputs;  // the further inputs (the kernels' rdx_in1, ...), this chunk's
  std::vector<std::uint64_t> offsets;  // their element offsets (rdx::DeviceArray::offset), or none
};

// The operator on two host states, with the kernels' semantics (see Exec::combine).
Outcome combine_outcomes(const Plan& plan, const Outcome& a, const Outcome& b);

class Exec;

// `count` host states in the kernels' layout (values of the plan's acc type, then, 8-aligned,
// argmin/argmax's 64-bit indices) combined in pairs, neighbours first.
Outcome fold_states(const Plan& plan, const unsigned char* values, const unsigned char* indices,
                    std::uint64_t count);

// The bytes Exec::read needs to stage `count` states (see fold_states).
std::size_t staging_bytes(const Plan& plan, std::uint64_t count);

// A kernel, the work-group size it was compiled for (its WG definition) and its argument count.
struct Kernel {
  cl::Kernel kernel;
  std::size_t wg = 0;
  std::string name;
  cl_uint num_args = 0;
};

class Exec {
 public:
  Exec(Context::Impl& ctx, const Plan& plan, bool profile = false)
      : ctx(ctx), plan(plan), queue(ctx.queue_for(profile)), profile_(profile) {}
  // Exec keeps a reference to its plan: a temporary plan would dangle (ASan's
  // stack-use-after-scope in state_results), so it does not compile.
  Exec(Context::Impl& ctx, Plan&& plan, bool profile = false) = delete;
  // Waits for the queue before the scratch is released (PoCL aborts on releasing a buffer that a
  // queued command still uses), also when a launch failed half-way.
  ~Exec();
  Exec(const Exec&) = delete;
  Exec& operator=(const Exec&) = delete;

  Context::Impl& ctx;
  const Plan& plan;
  cl::CommandQueue& queue;  // every command of this call (Context::Impl::queue_for)
  // A user's reduction, when this call runs one; else the plan's built-in operator
  // (ops/cl_definitions.hpp) defines the kernels.
  std::optional<UserRun> user;
  // The element offset of the input that kernels read (rdx::BufferAt): where it, or a user's
  // further input's, is not 0, every kernel is built with -DIN_OFFSET and the kernels that read
  // input elements take the offsets (cl/common.h, OPEN_INPUT; Exec::args appends them). Set
  // before the first kernel() call.
  std::uint64_t in_offset = 0;
  bool offset_build() const;

  // A key naming this plan's kernel definitions for work-group size wg (type, acc, operator, WG,
  // and IN_OFFSET where offset_build()).
  std::string defines(std::size_t wg) const;

  // Kernel `name` of cl/<file>, built with this plan's definitions plus `extra`, for the plan's
  // work-group size halved until the compiled kernel accepts it (its CL_KERNEL_WORK_GROUP_SIZE
  // and local memory).
  Kernel kernel(const std::string& file, const char* name, const std::string& extra = "");

  // The smallest work-group size of the kernels built so far (0: none). Where it is below the
  // plan's, the result's plan says so (run_plan).
  std::size_t work_group_size_built() const { return wg_built_; }
  // Counts a kernel built by an earlier call (a launcher's cached kernel) as built by this one.
  void note_built(const Kernel& k) {
    if (!wg_built_ || k.wg < wg_built_) wg_built_ = k.wg;
  }

  // Scratch for `count` states (at least one).
  States states(std::uint64_t count);

  // A States view of the caller's input, for kernels that take IN_PARAMS.
  static States input(const cl::Buffer& in, std::uint64_t n) { return {in, in, n}; }

  // Sets k's arguments in order; a kernel that reads input elements gets input_args after them.
  template <class... A>
  void args(Kernel& k, const A&... a) {
    cl_uint i = 0;
    (set_arg(k, i++, a), ...);
    input_args(k, i);
  }
  // Argument i alone (kernels whose argument list depends on the definitions).
  template <class A>
  void arg(Kernel& k, cl_uint i, const A& a) {
    set_arg(k, i, a);
  }
  // A kernel that reads input elements (it has more than `first` arguments): from argument
  // `first` on, the input's offset (offset_build()), then for a user's reduction the UserRun's
  // base and further inputs, each with its offset (offset_build()): what args() appends. Nothing
  // for a kernel that reads states only.
  void input_args(Kernel& k, cl_uint first);

  // Enqueues k over `global` work-items (rounded up to a multiple of `local`), after `wait`;
  // `done`, when given, receives its event.
  void launch(Kernel& k, std::uint64_t global, std::size_t local,
              const std::vector<cl::Event>* wait = nullptr, cl::Event* done = nullptr);

  // For a call that returns without waiting for its commands (rdx::enqueue_reduce): the Exec
  // ends without waiting for the queue. Only for calls that made no scratch of their own.
  void detach() { idle_ = true; }

  // Reads states [k, k + count) of s back to the host in one read and combines them
  // (fold_states; a user's reduction's states are combined on the device first, fold); everything
  // queued before it has finished on return (a blocking read, or with Plan::poll_result a read
  // whose event status is polled). With `staging` (staging_bytes(plan, count) of pinned host
  // memory, see PinnedBytes) the read lands there: NVIDIA's driver copies into pinned memory
  // directly, about 2 us sooner than into pageable.
  Outcome read(const States& s, std::uint64_t k = 0, unsigned char* staging = nullptr,
               std::uint64_t count = 1);
  // Reads `bytes` at `offset` of b into dst, waiting as the plan says (Plan::poll_result);
  // everything queued before it has finished on return.
  void read_bytes(const cl::Buffer& b, std::size_t offset, std::size_t bytes, void* dst);

  // read and read_bytes in two steps, for work enqueued on several devices from one thread before
  // any of it is waited for (the device group's shards, api/multi.cpp). The *_later forms enqueue
  // the read (into `staging`, staging_bytes(plan, count), or dst, which must stay alive until
  // the wait) and flush, and return its event; wait_read waits for it as read_bytes does, and
  // read_wait also combines the states read_later read. Built-in operators only.
  cl::Event read_later(const States& s, std::uint64_t k, unsigned char* staging,
                       std::uint64_t count = 1);
  Outcome read_wait(const cl::Event& read, const unsigned char* staging, std::uint64_t count = 1);
  cl::Event read_bytes_later(const cl::Buffer& b, std::size_t offset, std::size_t bytes, void* dst);
  void wait_read(const cl::Event& read);
  // Reads the first `count` states of s (blocking).
  std::vector<Outcome> read_all(const States& s, std::uint64_t count);

  // A user's reduction: states [k, k + count) of s, then the first state of `tail` when given,
  // combined in order on the device (cl/fold.cl; no state gives the identity), read back.
  Outcome fold(const States& s, std::uint64_t k, std::uint64_t count, const States* tail = nullptr);

  // The operator on the host, with the kernels' semantics (wrapping integers, NaN rules, first
  // index on ties), for strategies that finish on the CPU. identity() is the kernels' identity.
  Outcome combine(const Outcome& a, const Outcome& b) const;
  Outcome identity() const;

  // With Options::profile: the summed device time of every launch so far (waits for them).
  double device_seconds();

  // The bytes of one state (a user's, or the accumulator), and whether states carry indices
  // (argmin/argmax): what states() allocates per state.
  std::size_t state_bytes() const { return user ? user->state_bytes : size_of(plan.acc); }
  bool indexed() const { return !user && is_index_op(plan.op); }

  // Raw device scratch of `bytes` (at least 1), alive until the Exec ends; optionally
  // initialised from host memory (blocking write).
  cl::Buffer buffer(std::size_t bytes, const void* init = nullptr);
  // The caller's host input as core/host_input.hpp's host_input gives it (read in place on a CPU
  // device), alive until the Exec ends.
  cl::Buffer host_buffer(const void* host, std::uint64_t bytes, std::size_t element_size);

 private:
  void set_arg(Kernel& k, cl_uint i, const cl::Buffer& b);
  void set_arg(Kernel& k, cl_uint i, std::uint64_t v);
  void set_arg(Kernel& k, cl_uint i, const cl::LocalSpaceArg& local);
  void set_arg(Kernel& k, cl_uint i, const Scalar& v);  // a value argument of v's type
  void no_user(const char* what) const;  // throws for a host-side combine of a user's states
  // argmin/argmax: enqueues the read of indices [k, k + count) of s into staging, after the
  // values' bytes (staged_values_bytes), without waiting; nothing for other operators.
  void read_indices_later(const States& s, std::uint64_t k, unsigned char* staging,
                          std::uint64_t count);
  bool profile_ = false;
  std::vector<States> scratch_;      // alive until every command that uses it has finished
  std::vector<cl::Buffer> buffers_;  // the same
  bool idle_ = true;                 // nothing enqueued since the last completed read
  std::size_t wg_built_ = 0;         // see work_group_size_built
  std::vector<cl::Event> events_;    // launches, when profiling
};

}  // namespace rdx::detail
