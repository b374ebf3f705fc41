// Internal: a composite (rdx/stats.hpp) of a small host input on a CPU device computed by the
// calling thread, as dispatch/host_loop.hpp does for the built-in operators: the final state of
// ops/stats.hpp's stat_reduction, field by field, which stat_result finishes as it finishes the
// kernels'. run_to_run only: the sums' order is this loop's, not a kernel's.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "rdx/custom.hpp"
#include "rdx/stats.hpp"

namespace rdx::detail {

// s over n >= 1 elements of each host input, in accumulator `acc` (stat_acc's), without a map;
// `plan` (the built-in sum's plan of the first input, which runs_on_host accepted) becomes the
// state's plan, with host_loop = 1 and acc. nullopt where this loop has no form of s (minmax,
// norm2, nanprod, mean: the built-in sum runs it), of the inputs' types (dot of two types) or of
// acc (a 16-bit or integer accumulator of a float statistic): the kernels run it.
std::optional<StateResult> run_host_stat(Stat s, Type acc, std::span<const Array> inputs,
                                         std::uint64_t n, const Plan& plan);

}  // namespace rdx::detail
