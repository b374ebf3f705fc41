// Internal: what a cl/fast.cl launch needs beside its plan: the kernel's build options, and the
// device scratch that the built-in launcher (fast.cpp) and users' reductions
// (dispatch/run_user.cpp) each keep per context and plan shape.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "exec/exec.hpp"

namespace rdx::detail {

struct FastScratch {
  // `states` partial states of `state_bytes` each (the groups', then the result's); part_i holds
  // argmin/argmax's indices, and is part_v for every other state.
  cl::Buffer part_v, part_i;
  cl::Buffer counter;                   // the last-group counter: zeroed here, reset by the kernel
  std::unique_ptr<PinnedBytes> result;  // where the result (or the partials) is read back
};

// The build options of cl/fast.cl's kernel for plan p (a fast_* plan) over n elements
// (bench/probe_call_cost.cpp builds the same kernel).
std::string fast_build_options(const Plan& p, std::uint64_t n);

// Throws OpenCLError naming the allocation that failed.
FastScratch make_fast_scratch(const cl::Context& ctx, const cl::CommandQueue& queue,
                              std::size_t states, std::size_t state_bytes, bool indexed,
                              std::size_t result_bytes);

}  // namespace rdx::detail
