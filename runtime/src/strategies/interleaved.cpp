// Launcher of cl/interleaved.cl: a local-memory tree with interleaved (divergent) addressing, one
// partial per work-group, repeated over the partials until one is left.
#include "rdx/errors.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_interleaved(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("interleaved.cl", "il_reduce");
  // One-item groups would copy, never shrink, the states.
  if (k.wg < 2) throw UnsupportedError("interleaved: needs work-groups of at least 2 work-items");
  States src = Exec::input(in, n);
  std::uint64_t count = n;
  do {
    const std::uint64_t groups = (count + k.wg - 1) / k.wg;
    States dst = ex.states(groups);
    ex.args(k, src.values, src.indices, count, dst.values, dst.indices);
    ex.launch(k, groups * k.wg, k.wg);
    src = dst;
    count = groups;
    if (count > 1) k = ex.kernel("interleaved.cl", "il_reduce", "-DFROM_PARTIALS");
  } while (count > 1);
  return ex.read(src);
}

}  // namespace rdx::detail
