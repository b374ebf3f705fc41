// Internal: a composite (rdx/stats.hpp) of a small host input on a CPU device computed by the
// calling thread, as dispatch/host_loop.hpp does for the built-in operators: the final state of
// ops/stats.hpp's stat_reduction, field by field, which stat_result finishes as it finishes the
// kernels'. run_to_run only: the sums' order is this loop's, not a kernel's.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "rdx/custom.hpp"
#include "rdx/segmented.hpp"
#include "rdx/segmented_custom.hpp"
#include "rdx/stats.hpp"

namespace rdx::detail {

// s over n >= 1 elements of each host input, in accumulator `acc` (stat_acc's), without a map;
// `plan` (the built-in sum's plan of the first input, which runs_on_host accepted) becomes the
// state's plan, with host_loop = 1 and acc. nullopt where this loop has no form of s (minmax,
// norm2, nanprod, mean: the built-in sum runs it), of the inputs' types (dot of two types) or of
// acc (a 16-bit or integer accumulator of a float statistic): the kernels run it.
std::optional<StateResult> run_host_stat(Stat s, Type acc, std::span<const Array> inputs,
                                         std::uint64_t n, const Plan& plan);

// The most segments run_host_stat_segments takes: each costs the host about 0.4 us of states and
// finishing (var of 1024 x 16 f32 along axis 1 on 2 PoCL cores: 419 us there, 316 us launched;
// along axis 0, 16 segments: 98 us against 339), so many short segments launch.
inline constexpr std::uint64_t kMostHostStatSegments = 256;

// s per segment of one host input (p's offsets or axis form, every segment at least one element,
// one input, no map), each segment's state as run_host_stat computes a whole input's: the states
// in stat_reduction's fields (`types`, their types), p as their plan with host_loop set. nullopt
// where run_host_stat has no form of s, acc or the type, for the view form, for an empty segment
// and beyond kMostHostStatSegments segments: the kernels run it.
std::optional<SegmentedStates> run_host_stat_segments(Stat s, Type acc, const Array& in,
                                                      const SegmentedPlan& p,
                                                      std::span<const std::uint64_t> offsets,
                                                      std::span<const Type> types);

}  // namespace rdx::detail
