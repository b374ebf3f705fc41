// Internal: running a user's reduction (rdx/custom.hpp) on the device: the layer under the
// custom and composite entry points.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "rdx/custom.hpp"

namespace rdx::detail {

// Where a reduction's inputs are: host arrays or device buffers (one of the two), and their types.
struct UserInputs {
  std::vector<Type> types;
  std::vector<const void*> host;
  std::vector<cl::Buffer> device;
};

// Device inputs checked (not null, n elements fit, ctx's OpenCL context); `caller` begins the
// ArgumentErrors.
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

// Reduces n elements of every input with r (see rdx::reduce in rdx/custom.hpp). With `target`
// (device inputs only) it enqueues the reduction and the write of its state and returns without
// waiting: the result's fields are empty.
StateResult run_user(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                     const Options& opts, const AsyncTarget* target = nullptr);

}  // namespace rdx::detail
