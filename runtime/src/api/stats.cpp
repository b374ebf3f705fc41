// The entry points of the composite reductions (rdx/stats.hpp): the statistic's reduction, run
// like a user's, then its final step.
#include "ops/stats.hpp"

#include <optional>
#include <type_traits>
#include <vector>

#include "rdx/reduce.hpp"

#include "dispatch/host_stats.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_user.hpp"

namespace rdx {
namespace {

detail::UserInputs inputs_of(Context&, std::span<const Array> inputs, std::uint64_t n) {
  return detail::host_inputs(inputs, n, "reduce");
}
detail::UserInputs inputs_of(Context& ctx, std::span<const DeviceArray> inputs, std::uint64_t n) {
  return detail::device_inputs(ctx, inputs, n, "reduce");
}

// How many elements are not NaN (all n for integers): count's reduction, whose order does not
// matter, so it runs as run_to_run. The nan* forms' exact levels divide by it.
template <class In>
std::uint64_t numbers_in(Context& ctx, std::span<const In> inputs, std::span<const Type> types,
                         std::uint64_t n, const Options& opts) {
  if (!is_float(types[0])) return n;
  Options o = opts;
  o.acc.reset();
  o.determinism = Determinism::RunToRun;
  const Reduction c = detail::stat_reduction(Stat::Count, types, Type::U64, "!isnan(x)");
  return reduce(ctx, c, inputs, n, o).fields.at(0).template as<std::uint64_t>();
}

// n elements of a single input as the built-in operators' entry points take it.
Result sum_of(Context& ctx, const Array& a, std::uint64_t n, const Options& o) {
  return reduce(ctx, a.type, a.data, n, Op::Sum, o);
}
Result sum_of(Context& ctx, const DeviceArray& a, std::uint64_t n, const Options& o) {
  return reduce(ctx, a.type, BufferAt(a.buffer, a.offset), n, Op::Sum, o);
}

// s on the calling thread (dispatch/host_stats.hpp): host inputs without a map under run_to_run,
// with the plan's choices left to it, few enough that the built-in sum of the first input would
// run there (runs_on_host: a CPU device, auto's plan); nullopt otherwise, or where the host loop
// has no form of s.
template <class In>
std::optional<StatResult> on_host(Context& ctx, Stat s, std::span<const In> inputs,
                                  std::span<const Type> types, Type acc, std::uint64_t n,
                                  const Options& opts, const std::string& map) {
  if constexpr (!std::is_same_v<In, Array>) {
    return std::nullopt;
  } else {
    if (!map.empty() || opts.determinism != Determinism::RunToRun) return std::nullopt;
    for (const Array& a : inputs)
      if (!a.data) return std::nullopt;  // the kernels' path says what is wrong
    const std::shared_ptr<const Plan> sum = detail::host_loop_plan(ctx, types[0], n, opts);
    if (!sum) return std::nullopt;
    const std::optional<StateResult> st = detail::run_host_stat(s, acc, inputs, n, *sum);
    if (!st) return std::nullopt;
    return detail::stat_result(s, acc, *st, n);
  }
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
    const std::uint64_t m = detail::skips_nan(s) ? numbers_in(ctx, inputs, types, n, opts) : n;
    const detail::ExactFields f = detail::exact_fields(
        ctx, detail::moments_reduction(s, acc, types[0]), inputs_of(ctx, inputs, n), n, opts);
    return detail::moments_result(s, acc, f.sums, f.plan, m);
  }
  if (std::optional<StatResult> h = on_host(ctx, s, inputs, types, acc, n, opts, map)) return *h;
  if (s == Stat::Mean && opts.determinism == Determinism::RunToRun &&
      (is_float(types[0]) || (is_float(acc) && size_of(acc) >= size_of(types[0])))) {
    // The built-in sum in acc (its vector loads, and on a CPU the host loop for small host
    // arrays), then the division: the same state as mean's reduction, a sum in acc. Integers
    // too, where acc is a float the built-in sum takes (not f32 for 64-bit integers).
    Options o = opts;
    o.acc = acc;
    const Result sum = sum_of(ctx, inputs[0], n, o);
    StateResult st;
    st.fields = {sum.value};
    st.plan = sum.plan;
    return detail::stat_result(s, acc, st, n);
  }
  if (s == Stat::NanMean && opts.determinism != Determinism::RunToRun) {
    // nansum's exact sum, then the count of numbers: nanmean's state (s, n).
    const std::uint64_t m = numbers_in(ctx, inputs, types, n, opts);
    Options o = opts;
    o.acc.reset();
    StateResult st =
        reduce(ctx, detail::stat_reduction(Stat::NanSum, types, acc, ""), inputs, n, o);
    st.fields.push_back(Scalar::of(m));
    return detail::stat_result(s, acc, st, n);
  }
  Options o = opts;
  // minmax's values and first indexes do not depend on the order of its combines: every level
  // runs it as run_to_run.
  if (s == Stat::MinMax) o.determinism = Determinism::RunToRun;
  StatResult res = detail::stat_result(s, acc, reduce(ctx, r, inputs, n, o), n);
  if (s == Stat::MinMax) {  // elements in their type (f16's minimum is an f16), as min and max
    res.value = result_value(Op::Min, types[0], res.value);
    res.max = result_value(Op::Max, types[0], *res.max);
  }
  return res;
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
