// Launcher of cl/dualload.cl, and the pass loop that the dual-load strategies of seed 001
// (dualload, unrolled_warp, unrolled, subgroup) share: each work-group reduces a 2*WG slice to
// one partial state; the same kernel, built with -DFROM_PARTIALS, runs again on the partials
// until one state is left.
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_dual_passes(Exec& ex, const cl::Buffer& in, std::uint64_t n, const std::string& file,
                        const char* name, const std::string& extra) {
  Kernel k = ex.kernel(file, name, extra);
  States src = Exec::input(in, n);
  std::uint64_t count = n;
  do {
    const std::uint64_t span = 2 * std::uint64_t{k.wg};
    const std::uint64_t groups = (count + span - 1) / span;
    States dst = ex.states(groups);
    ex.args(k, src.values, src.indices, count, dst.values, dst.indices);
    ex.launch(k, groups * k.wg, k.wg);
    src = dst;
    count = groups;
    if (count > 1)
      k = ex.kernel(file, name, extra.empty() ? "-DFROM_PARTIALS" : extra + " -DFROM_PARTIALS");
  } while (count > 1);
  return ex.read(src);
}

// Passes of the loop above over n elements, times the depth of one pass.
std::uint64_t dual_passes_depth(std::uint64_t n, std::uint64_t wg, std::uint64_t per_pass) {
  std::uint64_t passes = 0;
  for (std::uint64_t c = n; passes == 0 || c > 1; c = (c + 2 * wg - 1) / (2 * wg))
    ++passes;
  return passes * per_pass;
}

// One combine at the load, then log2(WG) levels per pass.
std::uint64_t dual_tree_depth(const Plan& p, const DeviceInfo&) {
  return dual_passes_depth(p.n, p.work_group_size, 1 + ceil_log2(p.work_group_size));
}

Outcome run_dualload(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_dual_passes(ex, in, n, "dualload.cl", "dl_reduce", "");
}

}  // namespace rdx::detail
