// Launcher of cl/seeds/subgroup.cl: the dual-load passes (see dualload.cpp), each work-group
// finishing with sub-group operations where the device has them. Which form runs is decided per
// device and per (accumulator, operator) by subgroup_path (plan/strategy_shapes.hpp, which the
// depth reads too), and the kernel is built for that form (SG_PATH).
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_subgroup(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::string extra;  // cl/seeds/subgroup.cl's SG_PATH
  // A user's state is a struct, which sub-group functions do not take: the local-memory tree.
  switch (ex.user ? SubgroupPath::Fallback : subgroup_path(ex.ctx.info, ex.plan.acc, ex.plan.op)) {
    case SubgroupPath::Shuffle:
      extra = "-DSG_PATH=1";
      break;
    case SubgroupPath::Builtin:
      extra = "-DSG_PATH=2";
      break;
    case SubgroupPath::Fallback:
      break;
  }
  return run_passes(ex, in, n, {"seeds/subgroup.cl", "sg_reduce", extra, groups_two_per_item},
                    "subgroup");
}

StrategyRun strategy_subgroup() {
  return {run_subgroup};
}

}  // namespace rdx::detail
