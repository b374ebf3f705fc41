// Launcher of cl/unrolled_warp.cl: the dual-load passes (see dualload.cpp); the last steps of
// each work-group's tree run in one sub-group where the device has cl_khr_subgroups, else they
// are written out with barriers.
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

std::string unrolled_warp_form(const DeviceInfo& dev) {
  if (dev.subgroups)
    return "sub-group (cl_khr_subgroups): the last steps in sub-group 0, ordered by "
           "sub_group_barrier";
  return "barriers (no cl_khr_subgroups on this device): the steps from 32 down written out, each "
         "with a work-group barrier";
}

Outcome run_unrolled_warp(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_passes(ex, in, n,
                    {"unrolled_warp.cl", "uw_reduce",
                     ex.ctx.info.subgroups ? "-DRDX_SUBGROUPS=1" : "", groups_two_per_item},
                    "unrolled_warp");
}

StrategyDef strategy_unrolled_warp() {
  return {
      {107,
       {"unrolled_warp", "unrolled_warp.cl",
        "001 (A Study in Reduction) step 7: SharedUnrolledLast",
        "the last tree steps unrolled: in one sub-group (sub_group_barrier) where the device "
        "has sub-groups, else with barriers (the seed's warp-synchronous form is not portable)"},
       dual_passes_depth,
       nullptr,
       unrolled_warp_form,
       1},
      run_unrolled_warp};
}

}  // namespace rdx::detail
