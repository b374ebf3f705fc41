// Launcher of cl/localtree.cl: one partial per work-group, repeated over the partials until one
// is left.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_localtree(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("localtree.cl", "lt_reduce");
  States src = Exec::input(in, n);
  std::uint64_t count = n;
  do {
    const std::uint64_t groups = (count + k.wg - 1) / k.wg;
    States dst = ex.states(groups);
    ex.args(k, src.values, src.indices, count, dst.values, dst.indices);
    ex.launch(k, groups * k.wg, k.wg);
    src = dst;
    count = groups;
    if (count > 1) k = ex.kernel("localtree.cl", "lt_reduce", "-DFROM_PARTIALS");
  } while (count > 1);
  return ex.read(src);
}

}  // namespace rdx::detail
