// The entry points of users' reductions (rdx/custom.hpp): check the inputs, then run_user.
#include <fmt/format.h>

#include "exec/run_plan.hpp"
#include "exec/run_user.hpp"
#include "ops/user_reduction.hpp"

namespace rdx {

StateResult reduce(Context& ctx, const Reduction& r, std::span<const Array> inputs, std::uint64_t n,
                   const Options& opts) {
  detail::UserInputs in;
  for (const Array& a : inputs) {
    if (!a.data && n > 0)
      throw ArgumentError(fmt::format("reduce: input {} is null but n > 0", in.types.size()));
    detail::byte_size(a.type, n);  // throws when n elements overflow a byte count
    in.types.push_back(a.type);
    in.host.push_back(a.data);
  }
  if (inputs.empty()) detail::validate(r, 0);  // the error about the number of inputs
  return detail::run_user(ctx, r, in, n, opts);
}

StateResult reduce(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                   std::uint64_t n, const Options& opts) {
  if (inputs.empty()) detail::validate(r, 0);  // the error about the number of inputs
  return detail::run_user(ctx, r, detail::device_inputs(ctx, inputs, n, "reduce"), n, opts);
}

}  // namespace rdx
