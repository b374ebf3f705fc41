// Internal: the exact_sum plan (rdx::Determinism AnyDevice and Exact for float sums) run on
// device data with cl/exact_sum.cl, its digits and flags read back (ops/exact_sum.hpp).
#pragma once
#include <cstdint>

#include "core/context_impl.hpp"
#include "ops/exact_sum.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

// The exact sum of the first n elements of `in` (plan.type), with the plan's grid ("groups",
// "blocked"); waits for it. `device_seconds`, when given, receives the kernels' time (profile).
ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const cl::Buffer& in, std::uint64_t n,
                   bool profile = false, double* device_seconds = nullptr);

}  // namespace rdx::detail
