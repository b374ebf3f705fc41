// Launcher of cl/unrolled.cl: the dual-load passes (see dualload.cpp) with the tree written out
// for the kernel's compile-time work-group size.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_dual_passes(Exec& ex, const cl::Buffer& in, std::uint64_t n, const std::string& file,
                        const char* name, const std::string& extra);

Outcome run_unrolled(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_dual_passes(ex, in, n, "unrolled.cl", "ur_reduce", "");
}

}  // namespace rdx::detail
