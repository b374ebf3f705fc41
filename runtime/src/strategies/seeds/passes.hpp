// Internal: the pass loop of the tree strategies. A pass launches a kernel (IN_PARAMS, n,
// OUT_PARAMS: one partial state per work-group) over `count` states; the next pass runs the same
// kernel, built with -DFROM_PARTIALS, over the partials, until one state is left. Used by
// localtree, interleaved, strided (one element per work-item), dualload, unrolled_warp, unrolled,
// subgroup (two) and multiseq (a bounded grid). The groups of a pass and the passes' depth are
// plan/strategy_shapes.hpp's, which the strategies' facts read.
#pragma once
#include <cstdint>
#include <string>

#include "exec/exec.hpp"
#include "plan/strategy_shapes.hpp"

namespace rdx::detail {

struct PassKernel {
  const char* file;   // cl/<file>
  const char* name;   // the kernel
  std::string extra;  // build options beyond the plan's (FROM_PARTIALS is added for later passes)
  PassGroups groups;
};

// Runs the passes over n >= 1 elements of `in` and reads the last state back. Throws
// UnsupportedError when the kernel allows only one work-item per group and its groups hold one
// state each (groups_one_per_item: the count would never shrink); `who` names the strategy.
Outcome run_passes(Exec& ex, const cl::Buffer& in, std::uint64_t n, const PassKernel& k,
                   const char* who);

}  // namespace rdx::detail
