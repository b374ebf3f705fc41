// The pass loop of the tree strategies (see passes.hpp).
#include "strategies/seeds/passes.hpp"

#include "core/format.hpp"

#include "rdx/errors.hpp"

namespace rdx::detail {

Outcome run_passes(Exec& ex, const cl::Buffer& in, std::uint64_t n, const PassKernel& pk,
                   const char* who) {
  Kernel k = ex.kernel(pk.file, pk.name, pk.extra);
  if (pk.groups == groups_one_per_item && k.wg < 2)
    throw UnsupportedError(detail::format("{}: needs work-groups of at least 2 work-items", who));
  const std::string again = pk.extra.empty() ? "-DFROM_PARTIALS" : pk.extra + " -DFROM_PARTIALS";
  States src = Exec::input(in, n);
  std::uint64_t count = n;
  do {
    const std::uint64_t groups = pk.groups(ex.ctx.info, count, k.wg);
    States dst = ex.states(groups);
    ex.args(k, src.values, src.indices, count, dst.values, dst.indices);
    ex.launch(k, groups * k.wg, k.wg);
    src = dst;
    count = groups;
    if (count > 1) k = ex.kernel(pk.file, pk.name, again);
  } while (count > 1);
  return ex.read(src);
}

}  // namespace rdx::detail
