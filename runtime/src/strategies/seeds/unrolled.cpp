// Launcher of cl/seeds/unrolled.cl: the dual-load passes (see dualload.cpp) with the tree written
// out for the kernel's compile-time work-group size.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_unrolled(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n, {"seeds/unrolled.cl", "ur_reduce", "", groups_two_per_item},
                    "unrolled");
}

StrategyRun strategy_unrolled() {
  return {run_unrolled};
}

}  // namespace rdx::detail
