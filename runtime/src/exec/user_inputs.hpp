// Internal: a user's reduction (rdx/custom.hpp) prepared for a context, and its inputs: what a
// strategy's user hook (strategies/registry.hpp) and the dispatch (dispatch/run_user.hpp) share.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "exec/exec.hpp"
#include "ops/exact_sum.hpp"
#include "ops/user_reduction.hpp"
#include "rdx/custom.hpp"

namespace rdx::detail {

// A reduction over inputs of these types, validated and turned into its definitions once per
// context: later calls of the same reduction do neither again.
struct Prepared {
  std::mutex mutex;
  bool ready = false;
  std::string definitions;
  StateLayout layout;
  bool vector_form = false;  // has_vector_form
  bool chunk_form = false;   // Reduction::chunk is given (cl/fast.cl's RDX_CHUNK form)
  // Its vector form failed to build on this context's device: later plans do not try it again.
  mutable std::atomic<bool> vector_failed{false};
};

// r over inputs of these types, prepared once per context: validated, and its identity checked on
// the device (check_identity); ArgumentError for either, an ExpressionError where an expression
// does not compile.
std::shared_ptr<const Prepared> prepare(const Context& ctx, const Reduction& r,
                                        std::span<const Type> inputs);

// Where a reduction's inputs are: host arrays or device buffers (one of the two) with their
// element offsets, and their types.
struct UserInputs {
  std::vector<Type> types;
  std::vector<const void*> host;
  std::vector<cl::Buffer> device;
  std::vector<std::uint64_t> offsets;  // the device inputs'
};

// Host inputs checked (not null when n > 0, n elements fit a byte count); `caller` begins the
// ArgumentErrors.
UserInputs host_inputs(std::span<const Array> inputs, std::uint64_t n, std::string_view caller);

// Device inputs checked (check_device_input: not null, the offset within the buffer and n
// elements from it, ctx's OpenCL context); `caller` begins the ArgumentErrors.
UserInputs device_inputs(const Context& ctx, std::span<const DeviceArray> inputs, std::uint64_t n,
                         std::string_view caller);

// Where an asynchronous call writes its final state (rdx/async.hpp): `out` at byte `offset`,
// after the events `wait`; `done` receives the event of that write.
struct AsyncTarget {
  const cl::Buffer* out = nullptr;
  std::size_t offset = 0;
  const std::vector<cl::Event>* wait = nullptr;
  cl::Event* done = nullptr;
};

// The inputs as device buffers, chunk by chunk (for_each_chunk, exec/chunks.hpp): host inputs are
// written to staging buffers of at most one device allocation each (`chunk` elements), device
// inputs are used as they are, their offsets set on the Exec (Exec::in_offset, UserRun::offsets)
// when the chunks are made: make them before the first kernel.
class UserChunks {
 public:
  UserChunks(Exec& ex, const DeviceInfo& dev, const UserInputs& in, std::uint64_t n);
  // Points the kernels' further inputs (ELEM_PARAMS, Exec::user) at elements [base, base + len)
  // (len <= chunk), writing host inputs first; returns the first input's buffer.
  const cl::Buffer& set(std::uint64_t base, std::uint64_t len);
  std::uint64_t chunk = 1;

 private:
  const cl::Buffer& at(std::size_t j, std::uint64_t base, std::uint64_t len);
  Exec& ex_;
  const UserInputs& in_;
  std::vector<cl::Buffer> staged_;
};

}  // namespace rdx::detail
