// Launcher of cl/localtree.cl: one partial per work-group (contiguous halving), repeated over the
// partials until one is left.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_localtree(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_group_passes(ex, in, n, "localtree.cl", "lt_reduce", "localtree");
}

}  // namespace rdx::detail
