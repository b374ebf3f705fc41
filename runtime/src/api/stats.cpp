// The entry points of the composite reductions (rdx/stats.hpp): the statistic's reduction, run
// like a user's, then its final step.
#include "ops/stats.hpp"

#include <vector>

namespace rdx {
namespace {

template <class In>
StatResult run_stat(Context& ctx, Stat s, std::span<const In> inputs, std::uint64_t n,
                    const Options& opts, const std::string& map) {
  std::vector<Type> types;
  for (const In& a : inputs)
    types.push_back(a.type);
  const Type acc = detail::stat_acc(s, types, opts, ctx.device_info().fp64);
  const Reduction r = detail::stat_reduction(s, types, acc, map);
  return detail::stat_result(s, acc, reduce(ctx, r, inputs, n, opts), n);
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
