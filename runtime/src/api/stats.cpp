// The entry points of the composite reductions (rdx/stats.hpp): the statistic's reduction, run
// like a user's, then its final step.
#include "ops/stats.hpp"

#include <vector>

#include "dispatch/run_user.hpp"

namespace rdx {
namespace {

detail::UserInputs inputs_of(Context&, std::span<const Array> inputs, std::uint64_t n) {
  return detail::host_inputs(inputs, n, "reduce");
}
detail::UserInputs inputs_of(Context& ctx, std::span<const DeviceArray> inputs, std::uint64_t n) {
  return detail::device_inputs(ctx, inputs, n, "reduce");
}

template <class In>
StatResult run_stat(Context& ctx, Stat s, std::span<const In> inputs, std::uint64_t n,
                    const Options& opts, const std::string& map) {
  std::vector<Type> types;
  for (const In& a : inputs)
    types.push_back(a.type);
  const Type acc = detail::stat_acc(s, types, opts, ctx.device_info().fp64);
  const Reduction r = detail::stat_reduction(s, types, acc, map);  // validates the inputs
  if (detail::exact_moments(s, opts)) {
    const detail::ExactFields f = detail::exact_fields(ctx, detail::moments_reduction(s, acc),
                                                       inputs_of(ctx, inputs, n), n, opts);
    return detail::moments_result(s, acc, f.sums, f.plan, n);
  }
  Options o = opts;
  // minmax's values and first indexes do not depend on the order of its combines: every level
  // runs it as run_to_run.
  if (s == Stat::MinMax) o.determinism = Determinism::RunToRun;
  return detail::stat_result(s, acc, reduce(ctx, r, inputs, n, o), n);
}

}  // namespace

StatResult reduce(Context& ctx, Stat s, std::span<const Array> inputs, std::uint64_t n,
                  const Options& opts, const std::string& map) {
  return run_stat(ctx, s, inputs, n, opts, map);
}

StatResult reduce(Context& ctx, Stat s, std::span<const DeviceArray> inputs, std::uint64_t n,
                  const Options& opts, const std::string& map) {
  return run_stat(ctx, s, inputs, n, opts, map);
}

}  // namespace rdx
