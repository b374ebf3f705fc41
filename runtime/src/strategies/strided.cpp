// Launcher of cl/strided.cl: a local-memory tree with strided indexing (2*s*lid), one partial per
// work-group, repeated over the partials until one is left.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_strided(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_group_passes(ex, in, n, "strided.cl", "sd_reduce", "strided");
}

}  // namespace rdx::detail
