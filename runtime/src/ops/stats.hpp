// Internal: the composite reductions (rdx/stats.hpp) as users' reductions (rdx/custom.hpp), and
// their results from the final states. Pure: no OpenCL.
#pragma once
#include <span>
#include <string>

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

// The statistic from the final state of stat_reduction over n elements.
StatResult stat_result(Stat s, Type acc, const StateResult& state, std::uint64_t n);

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
