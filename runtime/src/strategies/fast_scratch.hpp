// Internal: the device scratch of a cl/fast.cl launch, which the built-in launcher (fast.cpp) and
// users' reductions (dispatch/run_user.cpp) each keep per context and plan shape.
#pragma once
#include <cstddef>
#include <memory>

#include "exec/exec.hpp"

namespace rdx::detail {

struct FastScratch {
  // `states` partial states of `state_bytes` each (the groups', then the result's); part_i holds
  // argmin/argmax's indices, and is part_v for every other state.
  cl::Buffer part_v, part_i;
  cl::Buffer counter;                   // the last-group counter: zeroed here, reset by the kernel
  std::unique_ptr<PinnedBytes> result;  // where the result (or the partials) is read back
};

// Throws OpenCLError naming the allocation that failed.
FastScratch make_fast_scratch(const cl::Context& ctx, const cl::CommandQueue& queue,
                              std::size_t states, std::size_t state_bytes, bool indexed,
                              std::size_t result_bytes);

}  // namespace rdx::detail
