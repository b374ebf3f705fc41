// The entry points of users' reductions (rdx/custom.hpp): check the inputs, then run_user.

#include "dispatch/run_plan.hpp"
#include "dispatch/run_user.hpp"
#include "ops/user_reduction.hpp"

namespace rdx {

StateResult reduce(Context& ctx, const Reduction& r, std::span<const Array> inputs, std::uint64_t n,
                   const Options& opts) {
  const detail::UserInputs in = detail::host_inputs(inputs, n, "reduce");
  if (inputs.empty()) detail::validate(r, 0);  // the error about the number of inputs
  return detail::run_user(ctx, r, in, n, opts);
}

StateResult reduce(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                   std::uint64_t n, const Options& opts) {
  if (inputs.empty()) detail::validate(r, 0);  // the error about the number of inputs
  return detail::run_user(ctx, r, detail::device_inputs(ctx, inputs, n, "reduce"), n, opts);
}

}  // namespace rdx
