// Launcher of cl/subgroup.cl: the dual-load passes (see dualload.cpp), each work-group finishing
// with sub-group operations where the device has them. Which form runs is decided per device and
// per (accumulator, operator) here, and the kernel is built for that form (SG_PATH):
//   shuffle  (cl_khr_subgroups + cl_khr_subgroup_shuffle): every type and operator;
//   built-in (cl_khr_subgroups only): sum/min/max of i32/u32/i64/u64, sum of f32/f64;
//   fallback (anything else): a local-memory tree.
// RDX_SUBGROUP_NO_SHUFFLE=1 in the environment ignores cl_khr_subgroup_shuffle, so the built-in
// form can be tested on a device that has both (PoCL 5).
#include "strategies/passes.hpp"
#include "strategies/registry.hpp"

#include <cstdlib>
#include <cstring>

namespace rdx::detail {

namespace {

enum class SubgroupPath { Shuffle, Builtin, Fallback };

bool shuffle_allowed() {
  const char* e = std::getenv("RDX_SUBGROUP_NO_SHUFFLE");
  return !(e && *e && std::strcmp(e, "0") != 0);
}

bool has_shuffle(const DeviceInfo& dev) {
  return dev.subgroups && dev.has_extension("cl_khr_subgroup_shuffle") && shuffle_allowed();
}

bool builtin_covers(Type acc, Op op) {
  switch (acc) {
    case Type::I32:
    case Type::U32:
    case Type::I64:
    case Type::U64:
      return op == Op::Sum || op == Op::Min || op == Op::Max || op == Op::NanMin ||
             op == Op::NanMax;  // on integers, NaN rules do not apply
    case Type::F32:
    case Type::F64:
      return op == Op::Sum;  // float min/max: the built-ins do not promise the NaN rule
    case Type::I8:
    case Type::U8:
    case Type::I16:
    case Type::U16:
      return false;  // no 8- or 16-bit built-ins
    case Type::F16:
    case Type::BF16:
      return false;  // storage types: never an accumulator (plan/request.cpp)
  }
  return false;  // not a Type
}

SubgroupPath subgroup_path(const DeviceInfo& dev, Type acc, Op op) {
  if (!dev.subgroups) return SubgroupPath::Fallback;
  if (has_shuffle(dev)) return SubgroupPath::Shuffle;
  return builtin_covers(acc, op) ? SubgroupPath::Builtin : SubgroupPath::Fallback;
}

}  // namespace

// Per pass: the combine at the load, then log2(WG) levels; the shuffle form one more where the
// sub-group size is not a power of two. The order of sub_group_reduce_add/min/max is unspecified
// (PoCL: sequential), so the built-in form counts a whole work-group.
std::uint64_t subgroup_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t per_pass = 1 + ceil_log2(wg);
  switch (subgroup_path(dev, p.acc, p.op)) {
    case SubgroupPath::Shuffle:
      per_pass += 1;
      break;
    case SubgroupPath::Builtin:
      per_pass += wg;
      break;
    case SubgroupPath::Fallback:
      break;
  }
  return passes_depth(dev, p.n, wg, groups_two_per_item,
                      [&](std::uint64_t, std::uint64_t) { return per_pass; });
}

std::string subgroup_form(const DeviceInfo& dev) {
  if (!dev.subgroups) return "fallback: local-memory tree (no cl_khr_subgroups on this device)";
  if (has_shuffle(dev))
    return "sub-group shuffle (cl_khr_subgroups + cl_khr_subgroup_shuffle): every type and "
           "operator";
  return "sub-group reduce built-ins (cl_khr_subgroups, no cl_khr_subgroup_shuffle) for "
         "sum/min/max of i32/u32/i64/u64 and sum of f32/f64; every other type/operator: "
         "fallback local-memory tree";
}

Outcome run_subgroup(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::string extra;  // cl/subgroup.cl's SG_PATH
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
  return run_passes(ex, in, n, {"subgroup.cl", "sg_reduce", extra, groups_two_per_item},
                    "subgroup");
}

StrategyDef strategy_subgroup() {
  return {{109,
           {"subgroup", "subgroup.cl", "001 (A Study in Reduction) step 9: SharedShuffle",
            "the tree finishes in registers with sub-group shuffles or reduce built-ins; a "
            "local-memory tree where the device or the type/operator has none"},
           subgroup_depth,
           nullptr,
           subgroup_form,
           1},
          run_subgroup};
}

}  // namespace rdx::detail
