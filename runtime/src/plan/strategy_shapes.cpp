// The grids and paths a strategy's facts and its launcher share (see strategy_shapes.hpp).
#include "plan/strategy_shapes.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ops/operators.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {

std::uint64_t groups_one_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg) {
  return (count + wg - 1) / wg;
}

std::uint64_t groups_two_per_item(const DeviceInfo&, std::uint64_t count, std::uint64_t wg) {
  return (count + 2 * wg - 1) / (2 * wg);
}

namespace {

// Work-groups per compute unit: enough resident groups to hide memory latency on a GPU
// (the seed: 96 blocks of 512 on a GTX 680's 8 SMX, i.e. 12); on a CPU, a few per core.
constexpr std::uint64_t kMultiseqGroupsPerUnit = 8;

}  // namespace

// At least 2 * WG elements per work-group, so each launch at least halves the count (with WG = 1
// and count <= cap, one element per group would leave the count where it was).
std::uint64_t multiseq_groups(const DeviceInfo& dev, std::uint64_t count, std::uint64_t wg) {
  const std::uint64_t cap = std::max<std::uint64_t>(1, dev.compute_units) * kMultiseqGroupsPerUnit;
  return std::max<std::uint64_t>(1, std::min(cap, (count + 2 * wg - 1) / (2 * wg)));
}

namespace {

bool shuffle_allowed() {
  const char* e = std::getenv("RDX_SUBGROUP_NO_SHUFFLE");
  return !(e && *e && std::strcmp(e, "0") != 0);
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

}  // namespace

bool subgroup_has_shuffle(const DeviceInfo& dev) {
  return dev.subgroups && dev.has_extension("cl_khr_subgroup_shuffle") && shuffle_allowed();
}

SubgroupPath subgroup_path(const DeviceInfo& dev, Type acc, Op op) {
  if (!dev.subgroups) return SubgroupPath::Fallback;
  if (subgroup_has_shuffle(dev)) return SubgroupPath::Shuffle;
  return builtin_covers(acc, op) ? SubgroupPath::Builtin : SubgroupPath::Fallback;
}

bool has_ptx_float_add(const DeviceInfo& dev) {
  return dev.compiles_ptx();
}

bool has_int64_extended(const DeviceInfo& dev) {
  return dev.has_extension("cl_khr_int64_extended_atomics");
}

bool atomic_native(const DeviceInfo& dev, Type acc, Op op) {
  const Atomic form = atomic_of(op, acc);
  switch (form) {
    case Atomic::None:
      return false;
    case Atomic::Add:  // 32- and 64-bit integer adds are base atomics; floats: PTX
      return !is_float(acc) || has_ptx_float_add(dev);
    case Atomic::Min:  // floats: atomic_min/atomic_max of the order-preserving key
    case Atomic::Max:
    case Atomic::And:
    case Atomic::Or:
    case Atomic::Xor:
      return size_of(acc) != 8 || has_int64_extended(dev);
  }
  throw ArgumentError(detail::format("atomic form {}", static_cast<int>(form)));  // not an Atomic
}

namespace {

std::uint64_t floor_pow2(std::uint64_t x) {
  std::uint64_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

}  // namespace

std::uint64_t pow2_state_bytes(Type acc, Op op) {
  return is_index_op(op) ? 16 : size_of(acc);
}

std::uint64_t pow2_max_partials(const DeviceInfo& dev, std::uint64_t sb, std::uint64_t kernel_max) {
  const std::uint64_t by_local = dev.local_mem / sb;
  return floor_pow2(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>({kernel_max, dev.max_work_group, by_local, 1024})));
}

std::uint64_t pow2_groups(std::uint64_t n, std::uint64_t wg, std::uint64_t max_groups) {
  return std::max<std::uint64_t>(1, std::min((n + wg - 1) / wg, max_groups));
}

std::uint64_t amp_cascade_tiles(std::uint64_t n, std::uint64_t wg, const DeviceInfo& dev) {
  const std::uint64_t fixed = 8 * std::max<std::uint64_t>(1, dev.compute_units);
  return std::max<std::uint64_t>(1, std::min((n + wg - 1) / wg, fixed));
}

}  // namespace rdx::detail
