// Internal: running a user's reduction (rdx/custom.hpp) on the device with the plan's strategy:
// the layer under the custom and composite entry points.
#pragma once
#include <cstdint>
#include <vector>

#include "exec/user_inputs.hpp"
#include "ops/exact_sum.hpp"
#include "rdx/custom.hpp"

namespace rdx::detail {

// Reduces n elements of every input with r (see rdx::reduce in rdx/custom.hpp). With `target`
// (device inputs only) it enqueues the reduction and the write of its state and returns without
// waiting: the result's fields are empty.
StateResult run_user(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                     const Options& opts, const AsyncTarget* target = nullptr);

// The exact sums (Determinism AnyDevice and Exact) of every field of r, a float sum each
// (field_sums(r) == FloatSums), unrounded: the exact_sum plan that ran them, and with
// opts.profile the kernels' time.
struct ExactFields {
  std::vector<ExactSum> sums;  // one per field, in the field's type's layout
  Plan plan;
  double device_seconds = 0;
};
ExactFields exact_fields(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                         const Options& opts);

}  // namespace rdx::detail
