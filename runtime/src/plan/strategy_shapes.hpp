// Internal: what a strategy's facts (plan/facts_fast.cpp, plan/seeds/facts_*.cpp: its depth and
// form) and its launcher (strategies/<launcher>.cpp) share: the grids and paths a launch takes, as
// pure functions of the device's facts and the plan. One home each, so that the depth the planner
// reports is the depth of the launches that run.
#pragma once
#include <cstdint>

#include "rdx/device_info.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

// The pass loop of the tree strategies (strategies/seeds/passes.hpp runs it): how many work-groups
// a pass over `count` states launches with work-groups of `wg`.
using PassGroups = std::uint64_t (*)(const DeviceInfo& dev, std::uint64_t count, std::uint64_t wg);

// ceil(count / wg): one state per work-item (a group of one work-item never shrinks the count).
std::uint64_t groups_one_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg);
// ceil(count / (2 wg)): each work-item combines two states while loading.
std::uint64_t groups_two_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg);
// multiseq: a fixed grid (compute units x 8 groups), at least 2 * WG elements per work-group so
// that each launch at least halves the count.
std::uint64_t multiseq_groups(const DeviceInfo& dev, std::uint64_t count, std::uint64_t wg);

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

// subgroup's form for (accumulator, operator) on `dev` (cl/seeds/subgroup.cl's SG_PATH):
//   Shuffle  (cl_khr_subgroups + cl_khr_subgroup_shuffle): every type and operator;
//   Builtin  (cl_khr_subgroups only): sum/min/max of i32/u32/i64/u64, sum of f32/f64;
//   Fallback (anything else): a local-memory tree.
// RDX_SUBGROUP_NO_SHUFFLE=1 in the environment ignores cl_khr_subgroup_shuffle, so the built-in
// form can be tested on a device that has both (PoCL 5).
enum class SubgroupPath { Shuffle, Builtin, Fallback };
SubgroupPath subgroup_path(const DeviceInfo& dev, Type acc, Op op);
bool subgroup_has_shuffle(const DeviceInfo& dev);

// The atomic strategies: NVIDIA's OpenCL compiles inline PTX (atom.global.add.f32/.f64, CUDA's
// atomicAdd); 64-bit min/max/and/or/xor need cl_khr_int64_extended_atomics.
bool has_ptx_float_add(const DeviceInfo& dev);
bool has_int64_extended(const DeviceInfo& dev);
// Work-items of atomic_global's bounded grid per compute unit when the combine is a
// compare-exchange loop.
inline constexpr std::uint64_t kCasItemsPerCu = 32;
// Whether combining an `acc` value with `op` (argmin/argmax: their value pass) into a global word
// takes one hardware atomic on `dev`: the operator row's atomic (operators.hpp, which the
// definitions name as ATOMIC_FORM_*), where the device has it; the same cases as
// cl/seeds/atomic_ops.h's GLOBAL_NATIVE_COMBINE, and a kernel built with COMBINE_NATIVE where it
// has none fails to compile.
bool atomic_native(const DeviceInfo& dev, Type acc, Op op);

// pow2_partials: bytes of one state_t in local memory for a built-in operator (the (value, index)
// struct of argmin/argmax is 16 bytes); the most partials the second launch takes in one
// work-group, from what the device allows (`kernel_max`: the kernel's CL_KERNEL_WORK_GROUP_SIZE
// where known); the first launch's work-groups.
std::uint64_t pow2_state_bytes(Type acc, Op op);
std::uint64_t pow2_max_partials(const DeviceInfo& dev, std::uint64_t state_bytes,
                                std::uint64_t kernel_max);
std::uint64_t pow2_groups(std::uint64_t n, std::uint64_t wg, std::uint64_t max_groups);

// amp_cascade: the seed's "predefined number of tiles", 8 per compute unit, so that every unit has
// several work-groups resident; fewer when the input does not fill them.
std::uint64_t amp_cascade_tiles(std::uint64_t n, std::uint64_t wg, const DeviceInfo& dev);

}  // namespace rdx::detail
