// Launcher of cl/seeds/unrolled_warp.cl: the dual-load passes (see dualload.cpp); the last steps of
// each work-group's tree run in one sub-group where the device has cl_khr_subgroups, else they
// are written out with barriers.
#include "strategies/registry.hpp"
#include "strategies/seeds/passes.hpp"

namespace rdx::detail {

Outcome run_unrolled_warp(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n,
                    {"seeds/unrolled_warp.cl", "uw_reduce",
                     ex.ctx.info.subgroups ? "-DRDX_SUBGROUPS=1" : "", groups_two_per_item},
                    "unrolled_warp");
}

StrategyRun strategy_unrolled_warp() {
  return {run_unrolled_warp};
}

}  // namespace rdx::detail
