// Internal: the pass loop of the tree strategies, and its depth: the one home of both.
// A pass launches a kernel (IN_PARAMS, n, OUT_PARAMS: one partial state per work-group) over
// `count` states; the next pass runs the same kernel, built with -DFROM_PARTIALS, over the
// partials, until one state is left. Used by localtree, interleaved, strided (one element per
// work-item), dualload, unrolled_warp, unrolled, subgroup (two) and multiseq (a bounded grid).
#pragma once
#include <cstdint>
#include <string>

#include "exec/exec.hpp"
#include "plan/strategy_facts.hpp"

namespace rdx::detail {

// How many work-groups a pass over `count` states launches with work-groups of `wg`.
using PassGroups = std::uint64_t (*)(const DeviceInfo& dev, std::uint64_t count, std::uint64_t wg);

// ceil(count / wg): one state per work-item (a group of one work-item never shrinks the count).
std::uint64_t groups_one_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg);
// ceil(count / (2 wg)): each work-item combines two states while loading.
std::uint64_t groups_two_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg);

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

// The depth of the passes over n elements with work-groups of wg: the sum over the passes of
// per_pass(count, groups), the most combines on a path through one pass.
template <class PerPass>
std::uint64_t passes_depth(const DeviceInfo& dev, std::uint64_t n, std::uint64_t wg,
                           PassGroups groups, PerPass per_pass) {
  std::uint64_t depth = 0, count = n;
  do {
    const std::uint64_t g = groups(dev, count, wg);
    depth += per_pass(count, g);
    if (count > 1 && g >= count) return depth + count;  // no shrinking: a chain of every state
    count = g;
  } while (count > 1);
  return depth;
}

// The depths of the tree strategies' passes, as StrategyFacts::depth:
// ceil(log2 WG) levels per pass of one state per work-item (localtree);
std::uint64_t tree_passes_depth(const Plan& p, const DeviceInfo& dev);
// the same, the worse of WG and WG / 2 (interleaved, strided);
std::uint64_t tree_passes_depth_halvable(const Plan& p, const DeviceInfo& dev);
// one combine at the load, then ceil(log2 WG) levels per pass (dualload, unrolled_warp,
// unrolled).
std::uint64_t dual_passes_depth(const Plan& p, const DeviceInfo& dev);

}  // namespace rdx::detail
