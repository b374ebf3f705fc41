// Registry rows of seed 001 ("A Study in Reduction"), steps 6 to 10 (see registry.hpp).
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_dualload(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_unrolled_warp(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_unrolled(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_subgroup(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_multiseq(Exec&, const cl::Buffer&, std::uint64_t);
std::uint64_t dual_tree_depth(const Plan&, const DeviceInfo&);
std::uint64_t subgroup_depth(const Plan&, const DeviceInfo&);
std::uint64_t multiseq_depth(const Plan&, const DeviceInfo&);
std::string unrolled_warp_form(const DeviceInfo&);
std::string subgroup_form(const DeviceInfo&);

std::vector<StrategyDef> rows_seed001b() {
  return {
      {106,
       {"dualload", "dualload.cl", "001 (A Study in Reduction) step 6: SharedDualLoad",
        "each work-item combines two elements while loading, then the local-memory tree"},
       run_dualload,
       dual_tree_depth},
      {107,
       {"unrolled_warp", "unrolled_warp.cl",
        "001 (A Study in Reduction) step 7: SharedUnrolledLast",
        "the last tree steps unrolled: in one sub-group (sub_group_barrier) where the device "
        "has sub-groups, else with barriers (the seed's warp-synchronous form is not portable)"},
       run_unrolled_warp,
       dual_tree_depth,
       nullptr,
       unrolled_warp_form},
      {108,
       {"unrolled", "unrolled.cl", "001 (A Study in Reduction) step 8: SharedUnrolledAll",
        "the whole tree written out for the compile-time work-group size, a barrier per step"},
       run_unrolled,
       dual_tree_depth},
      {109,
       {"subgroup", "subgroup.cl", "001 (A Study in Reduction) step 9: SharedShuffle",
        "the tree finishes in registers with sub-group shuffles or reduce built-ins; a "
        "local-memory tree where the device or the type/operator has none"},
       run_subgroup,
       subgroup_depth,
       nullptr,
       subgroup_form},
      {110,
       {"multiseq", "multiseq.cl", "001 (A Study in Reduction) step 10: SharedMultiSeq (Brent)",
        "a fixed grid; each work-item combines every G-th element sequentially, then the tree"},
       run_multiseq,
       multiseq_depth},
  };
}

}  // namespace rdx::detail
