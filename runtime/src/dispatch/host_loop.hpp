// Internal: a small host input on a CPU device reduced by the calling thread, without a launch
// (plan/fast_tuning.hpp's runs_on_host says when). On PoCL a launch and its read cost 30-90 us
// whatever the size; this loop reduces 2^14 floats in a few.
#pragma once
#include <cstdint>
#include <optional>

#include "rdx/reduce.hpp"

namespace rdx::detail {

// plan's built-in operator over n >= 1 elements at `data`, with the kernels' semantics (wrapping
// integers, NaN rules, float products' marked infinities, first index on ties), in VW-like lanes
// as fast_blocked's block; the result as run_plan gives it (not yet published), its plan with
// host_loop = 1. nullopt where the accumulator is neither the element's computed type, its
// 64-bit widening, nor (for integer elements) a float (the kernel runs those).
std::optional<Result> run_host_loop(const Plan& plan, const void* data, std::uint64_t n);

}  // namespace rdx::detail
