// Internal: the composite reductions (rdx/stats.hpp) as users' reductions (rdx/custom.hpp), and
// their results from the final states. Pure: no OpenCL.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ops/exact_sum.hpp"
#include "rdx/stats.hpp"

namespace rdx::detail {

// Whether s is one of NumPy's nan* forms (the row's column).
bool skips_nan(Stat s);

// The maps of a nan* form over elements of type `input`: x, 1 (a count) and x as a factor, with
// NaN as 0, 0 and 1 (x, 1, x for the other statistics and for integers).
struct NanSkip {
  std::string x, one, factor;
};
NanSkip nan_skip(Stat s, Type input);

// The accumulator a statistic computes in, for these inputs, options and device (fp64 or not);
// ArgumentError for an acc it cannot use (mean/var/std/norm2 need a float).
Type stat_acc(Stat s, std::span<const Type> inputs, const Options& opts, bool fp64);

// The reduction that computes s over inputs of these types in accumulator `acc`; ArgumentError
// for a wrong number of inputs or a map given to a statistic other than count.
Reduction stat_reduction(Stat s, std::span<const Type> inputs, Type acc, const std::string& map);

// mean's final step: a sum in acc (float or double) over m elements, divided in acc's precision;
// NaN for none. stat_result's, and the segmented forms' over the built-in sum.
template <class A>
A mean_of(A sum, std::uint64_t m) {
  return m == 0 ? std::numeric_limits<A>::quiet_NaN() : sum / static_cast<A>(m);
}

// The statistic from the final state of stat_reduction over n elements.
StatResult stat_result(Stat s, Type acc, const StateResult& state, std::uint64_t n);

// stat_result's twin on the device, for cl/seg_results.cl: OpenCL C statements that store the
// results of state `s` (r's state_t) of segment k over `count` elements into out0[k] (minmax:
// out0..out3[k], the minimum, its position SEG_POS(k, at), the maximum, its position), the same
// values as stat_result gives (its float steps in double: `fp64`, the device has it). None where
// the device has no such form: norm2, minmax whose results are not in acc (16-bit elements), and
// the float ones without fp64.
struct ResultForm {
  std::string statements;
  std::vector<Type> outputs;  // out0's type, out1's, ...
};
std::optional<ResultForm> stat_result_cl(Stat s, Type acc, Type element, const Reduction& r,
                                         bool fp64);

// Whether s under opts runs as exact moments (var and std under Determinism AnyDevice and Exact):
// moments_reduction's fields summed exactly, then moments_result.
bool exact_moments(Stat s, const Options& opts);

// The sums var and std need, every field a float sum: x in acc, and x^2 exactly in f64 (as a
// product of f32 values, or with fma as two parts). acc F32 needs a device with fp64. nanvar and
// nanstd: NaN elements of `input` count as 0 (their count comes from a pass of its own).
Reduction moments_reduction(Stat s, Type acc, Type input);

// var or std, correctly rounded in acc, from the exact sums of moments_reduction's fields.
StatResult moments_result(Stat s, Type acc, std::span<const ExactSum> sums, const Plan& plan,
                          std::uint64_t n);

}  // namespace rdx::detail
