// Timing one configuration the way the yardsticks do: one call reduces device-resident data and
// reads the scalar back; the figure is the median over repeated calls after warm-up (the
// library's core/call_timing.hpp, which rdx::tune shares).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/call_timing.hpp"
#include "rdx/rdx.hpp"

namespace clrdx {

using rdx::detail::median;

// A device copy of generated elements (rdx::generate's bytes, at least one byte allocated).
cl::Buffer bench_input(rdx::Context& ctx, const std::vector<unsigned char>& host);

struct Timed {
  double seconds = 0;  // median per call
  rdx::Result result;  // of the last call
};

// How long a configuration is called before it is timed, and the most calls that takes.
inline constexpr double kWarmUpSeconds = 0.25;
inline constexpr int kMostWarmUpCalls = 1000;

// One call (it builds the programs), discarded calls for kWarmUpSeconds (at least one, at most
// kMostWarmUpCalls), then `repeat` timed calls (3 when the first call took more than 2 s).
Timed time_reduce(rdx::Context& ctx, rdx::Type type, const cl::Buffer& buf, std::uint64_t n,
                  rdx::Op op, const rdx::Options& opts, int repeat);
// The same for any call (a user's reduction).
Timed time_call(const std::function<rdx::Result()>& call, int repeat);

}  // namespace clrdx
