// Internal: timing a configuration the way the yardsticks do, shared by rdx::tune (api/tune.cpp)
// and clrdx bench (tools/clrdx/timing.cpp): one call that builds the programs, discarded warm-up
// calls, then timed calls, and the median per call; and the device copy of generated input that
// both time.
#pragma once
#include <functional>
#include <vector>

#include "rdx/context.hpp"

namespace rdx::detail {

// The median of v (the mean of the middle two for an even count; 0 when empty).
double median(std::vector<double> v);

// The calls discarded before timing: for `seconds` after the first call, at least one and at most
// `most_calls`.
struct WarmUp {
  double seconds = 0;  // 0: one discarded call
  int most_calls = 1;
};

// One call (it builds the programs), the warm-up's discarded calls, then `repeat` timed calls (3
// when the first call took more than 2 s); the median seconds per call.
double time_calls(const std::function<void()>& call, int repeat, WarmUp warm_up);

// A device copy of `host` (at least one byte allocated); `what` names it in the errors.
cl::Buffer device_copy(Context& ctx, const std::vector<unsigned char>& host, const char* what);

}  // namespace rdx::detail
