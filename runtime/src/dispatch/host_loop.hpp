// Internal: a small host input on a CPU device reduced by the calling thread, without a launch
// (plan/fast_tuning.hpp's runs_on_host says when). On PoCL a launch and its read cost 30-90 us
// whatever the size; this loop reduces 2^14 floats in a few.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "rdx/reduce.hpp"
#include "rdx/view.hpp"

namespace rdx::detail {

// plan's built-in operator over n >= 1 elements at `data`, with the kernels' semantics (wrapping
// integers, NaN rules, float products' marked infinities, first index on ties), in VW-like lanes
// as fast_blocked's block; the result as run_plan gives it (not yet published), its plan with
// host_loop = 1. nullopt where the accumulator is neither the element's computed type, its
// 64-bit widening, nor (for integer elements) a float (the kernel runs those).
std::optional<Result> run_host_loop(const Plan& plan, const void* data, std::uint64_t n);

// Where the segments of a host input are: by offsets (segment k: elements offsets[k] ..
// offsets[k + 1] - 1), through a view's addresses (view), else the axis form (segment
// o * inner + j: elements o * length * inner + j + l * inner, l < length).
struct HostSegments {
  std::uint64_t segments = 0;
  std::span<const std::uint64_t> offsets;  // segments + 1, or empty: the axis form
  std::uint64_t length = 0, inner = 1;
  const ViewForm* view = nullptr;  // the view form instead (rdx/view.hpp): its addresses
};

// Each segment reduced with op in acc, as run_host_loop reduces a whole input: values (segments
// values of acc) and, for argmin/argmax, indices (from the segment's start). An empty segment
// gets the identity (argmin/argmax: 0 and kEmptySegmentIndex). false, writing nothing, where
// run_host_loop would give nullopt, and for float products (whose marked infinities the
// segmented results do not carry).
bool run_host_segments(Op op, Type type, Type acc, const void* data, const HostSegments& s,
                       unsigned char* values, std::uint64_t* indices);

}  // namespace rdx::detail
