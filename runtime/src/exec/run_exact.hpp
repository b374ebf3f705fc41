// Internal: the exact_sum plan (rdx::Determinism AnyDevice and Exact for float sums) run on
// device data with cl/exact_sum.cl, its digits and flags read back (ops/exact_sum.hpp).
#pragma once
#include <cstdint>
#include <string>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "ops/exact_sum.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

// The exact sum of the first n elements of `in` (plan.type), with the plan's grid ("groups",
// "blocked", "fold"); waits for it. `device_seconds`, when given, receives the kernels' time
// (profile).
ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const cl::Buffer& in, std::uint64_t n,
                   bool profile = false, double* device_seconds = nullptr);

// The same with ex's plan, of elements of type `value` (F32 or F64): `in`'s own, or with ex.user
// (a user's reduction) the field `field` of each element's mapped state, the further inputs
// ex.user's.
ExactSum run_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field = "");

}  // namespace rdx::detail
