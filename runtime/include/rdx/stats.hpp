// Built-in composite reductions, each one pass over the data, built on users' reductions
// (rdx/custom.hpp): minmax, mean, var, std, norm2, dot, count, any, all, and NumPy's NaN-ignoring
// nansum, nanprod, nanmean, nanvar, nanstd.
//
//   minmax  the minimum and the maximum with their first indexes (NaN ignored unless every element
//           is NaN, as nanargmin/nanargmax), in the element's type (f16 and bf16 too); an empty
//           input is an ArgumentError
//   mean    the arithmetic mean; var, std: the population variance and standard deviation (NumPy's
//           default, ddof = 0), merged pairwise with Chan's formulas from states that hold the
//           mean as a sum of two floats (no cancellation: at least as accurate as NumPy's two-pass
//           var on a large offset with a small spread); in f64 the variance is kept scaled so
//           that it is finite wherever the result is, and loses precision below about 2^-958
//           (std 1e-144) (docs/custom.md). All three accumulate in Options::acc (f32 or
//           f64); by default f64 where the device has fp64, else f32. An empty input gives NaN,
//           and var and std of elements with an infinity or NaN are NaN. Under
//           Determinism AnyDevice and Exact, var and std are correctly rounded from exact sums of
//           x and x^2 (docs/reproducible.md), and minmax runs as under RunToRun (its result
//           does not depend on the order).
//   norm2   the Euclidean norm, overflow- and underflow-safe (Blue's three accumulators, as
//           LAPACK's nrm2): the f32 norm of values near 1e30 or 1e-30 is finite and right. In
//           the element type for floats (Options::acc may widen it), f64 (else f32) for
//           integers.
//   dot     the sum of x0 * x1 over two inputs, in Options::acc (default: the first input's type)
//   count   how many elements are non-zero, or with a map, for how many the map is non-zero
//           (`x > 0.5f`); a u64. Also named count_nonzero, as NumPy names it.
//   any     whether an element is non-zero (NaN is non-zero, -0.0 is zero, as NumPy's any); all:
//           whether every element is (an empty input: any false, all true). A bool, held as a
//           u8 0 or 1 (is_logical). Both take count's map as the predicate, and both read every
//           element (no short cut: the same time whatever the data).
//   nansum, nanprod, nanmean, nanvar, nanstd
//           sum, prod, mean, var and std of the elements that are not NaN, as NumPy's: NaN
//           counts as 0 in nansum and 1 in nanprod, and nanmean, nanvar and nanstd divide by
//           the count of the others (every element NaN: nansum 0, nanprod 1, the others NaN).
//           On integers they are sum, prod, mean, var and std. nansum and nanprod accumulate
//           in Options::acc (default: the element type), the others as mean, var and std do.
//           Under Determinism AnyDevice and Exact, nansum is the correctly rounded exact sum,
//           and nanmean, nanvar and nanstd count the numbers first (a second pass over the
//           input), whole inputs only; nanprod, as prod, is refused.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "rdx/custom.hpp"
#include "rdx/errors.hpp"

namespace rdx {

enum class Stat : std::uint8_t {
  MinMax,
  Mean,
  Var,
  Std,
  Norm2,
  Dot,
  Count,
  Any,
  All,
  NanSum,
  NanProd,
  NanMean,
  NanVar,
  NanStd
};
inline constexpr Stat kAllStats[] = {Stat::MinMax, Stat::Mean,   Stat::Var,     Stat::Std,
                                     Stat::Norm2,  Stat::Dot,    Stat::Count,   Stat::Any,
                                     Stat::All,    Stat::NanSum, Stat::NanProd, Stat::NanMean,
                                     Stat::NanVar, Stat::NanStd};

std::string_view name(Stat s);
// The statistic of that name ("minmax", "mean", "var", "std", "norm2", "dot", "count", "any",
// "all", "nansum", "nanprod", "nanmean", "nanvar", "nanstd") or of its other name
// ("count_nonzero"), or none.
std::optional<Stat> find_stat(std::string_view name);
// Its other name ("count_nonzero" for count), or "".
std::string_view alias(Stat s);
// How many input arrays it reads: 2 for dot, else 1.
std::size_t input_count(Stat s);
// Whether its result is a bool (any, all): a u8 holding 0 or 1.
bool is_logical(Stat s);

struct StatResult {
  Scalar value;                        // the statistic; minmax: the minimum
  std::optional<std::uint64_t> index;  // minmax: the minimum's first index
  std::optional<Scalar> max;           // minmax: the maximum
  std::optional<std::uint64_t> max_index;
  Plan plan;
};

// `map`: count's, any's and all's predicate over x (x0 ..) and i; the other statistics take none
// (ArgumentError).
StatResult reduce(Context& ctx, Stat s, std::span<const Array> inputs, std::uint64_t n,
                  const Options& opts = {}, const std::string& map = "");
StatResult reduce(Context& ctx, Stat s, std::span<const DeviceArray> inputs, std::uint64_t n,
                  const Options& opts = {}, const std::string& map = "");

// Typed forms for host data.
template <class T>
struct MinMax {
  T min, max;
  std::uint64_t min_index, max_index;
};
template <class T>
MinMax<T> minmax(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  const StatResult r = reduce(ctx, Stat::MinMax, in, x.size(), opts);
  return {r.value.template as<T>(), r.max->template as<T>(), *r.index, *r.max_index};
}
// mean, var, stddev, norm2: the result as a double (computed in the statistic's accumulator).
template <class T>
double stat(Context& ctx, Stat s, std::span<const T> x, const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  const StatResult r = reduce(ctx, s, in, x.size(), opts);
  return r.value.as<double>();
}
template <class T>
double mean(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::Mean, x, opts);
}
template <class T>
double var(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::Var, x, opts);
}
template <class T>
double stddev(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::Std, x, opts);
}
template <class T>
double norm2(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::Norm2, x, opts);
}
// NumPy's NaN-ignoring forms: nanmean, nanvar, nanstd as doubles; nansum and nanprod in T.
template <class T>
double nanmean(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::NanMean, x, opts);
}
template <class T>
double nanvar(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::NanVar, x, opts);
}
template <class T>
double nanstd(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return stat(ctx, Stat::NanStd, x, opts);
}
template <class T>
T nansum(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  return reduce(ctx, Stat::NanSum, in, x.size(), opts).value.template as<T>();
}
template <class T>
T nanprod(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  return reduce(ctx, Stat::NanProd, in, x.size(), opts).value.template as<T>();
}
// x0 and x1 of the same length (ArgumentError otherwise).
template <class T>
T dot(Context& ctx, std::span<const T> x0, std::span<const T> x1, const Options& opts = {}) {
  if (x0.size() != x1.size()) throw ArgumentError("dot: the inputs differ in length");
  const Array in[] = {Array::of(x0), Array::of(x1)};
  const StatResult r = reduce(ctx, Stat::Dot, in, x0.size(), opts);
  return r.value.template as<T>();
}
template <class T>
std::uint64_t count(Context& ctx, std::span<const T> x, const std::string& predicate = "",
                    const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  const StatResult r = reduce(ctx, Stat::Count, in, x.size(), opts, predicate);
  return r.value.as<std::uint64_t>();
}
template <class T>
std::uint64_t count_nonzero(Context& ctx, std::span<const T> x, const Options& opts = {}) {
  return count(ctx, x, "", opts);
}
template <class T>
bool any(Context& ctx, std::span<const T> x, const std::string& predicate = "",
         const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  const StatResult r = reduce(ctx, Stat::Any, in, x.size(), opts, predicate);
  return r.value.as<std::uint8_t>() != 0;
}
template <class T>
bool all(Context& ctx, std::span<const T> x, const std::string& predicate = "",
         const Options& opts = {}) {
  const Array in[] = {Array::of(x)};
  const StatResult r = reduce(ctx, Stat::All, in, x.size(), opts, predicate);
  return r.value.as<std::uint8_t>() != 0;
}

}  // namespace rdx
