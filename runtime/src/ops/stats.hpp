// Internal: the composite reductions (rdx/stats.hpp) as users' reductions (rdx/custom.hpp), and
// their results from the final states. Pure: no OpenCL.
#pragma once
#include <span>
#include <string>

#include "rdx/stats.hpp"

namespace rdx::detail {

// The accumulator a statistic computes in, for these inputs, options and device (fp64 or not);
// ArgumentError for an acc it cannot use (mean/var/std/norm2 need a float).
Type stat_acc(Stat s, std::span<const Type> inputs, const Options& opts, bool fp64);

// The reduction that computes s over inputs of these types in accumulator `acc`; ArgumentError
// for a wrong number of inputs or a map given to a statistic other than count.
Reduction stat_reduction(Stat s, std::span<const Type> inputs, Type acc, const std::string& map);

// The statistic from the final state of stat_reduction over n elements.
StatResult stat_result(Stat s, Type acc, const StateResult& state, std::uint64_t n);

}  // namespace rdx::detail
