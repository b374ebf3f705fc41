// The checks every plan makes of a request (plan/request.hpp). Pure.
#include "plan/request.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "core/type_table.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {
namespace {

// Why `acc` cannot accumulate `op` over `type` elements, or "" when it can: the one rule of an
// accumulator (Options::acc), which both the check and the accumulators an error lists come
// from. The element's computed type (f16, bf16: f32; every other type its own) always can. A
// storage type never is one. Otherwise an integer widens into a wider integer or a float, a float
// into a wider float (or itself). min and max return an element's value, so their accumulator must
// hold every value of the element type exactly: no signed into unsigned, no 64-bit integer into
// f64, no 32-bit one into f32. argmin and argmax keep the computed type.
std::string acc_refusal(Type type, Op op, Type acc) {
  const Type computed = computed_type_of(type);
  if (acc == computed) return "";
  if (computed_type_of(acc) != acc)
    return detail::format("{} is a storage type, not an accumulator", name(acc));
  if (is_index_op(op))
    return detail::format("{} returns an element: its accumulator is {}, not {}", name(op),
                          name(computed), name(acc));
  if (is_float(type) && !is_float(acc))
    return detail::format("the accumulator {} cannot hold {} elements", name(acc), name(type));
  if (is_bitwise(op) && is_float(acc))
    return detail::format("{} needs an integer accumulator, not {}", name(op), name(acc));
  if (size_of(acc) < size_of(type))
    return detail::format(
        "the accumulator {} is narrower than the element type {}: an accumulator widens, it "
        "never narrows",
        name(acc), name(type));
  if (!is_float(acc) && size_of(acc) == size_of(type))
    return detail::format(
        "the accumulator {} is no wider than the element type {}: an accumulator widens an "
        "integer into a wider integer or a float",
        name(acc), name(type));
  if (op_row(op).returns_element && !holds_every_value(acc, type))
    return detail::format(
        "{} returns an element's value, and the accumulator {} cannot hold every {} value exactly",
        name(op), name(acc), name(type));
  return "";
}

// The accumulator of a request: the computed type, or `requested` where acc_refusal allows it;
// the ArgumentError names every accumulator that it allows.
Type check_acc(Type type, Op op, const std::optional<Type>& requested) {
  if (!requested) return computed_type_of(type);
  const std::string why = acc_refusal(type, op, *requested);
  if (why.empty()) return *requested;
  std::string ok;
  for (Type t : kAllTypes)
    if (acc_refusal(type, op, t).empty()) {
      if (!ok.empty()) ok += ' ';
      ok += name(t);
    }
  throw ArgumentError(detail::format("{} (accumulators of {} over {} that can: {})", why, name(op),
                                     name(type), ok));
}

}  // namespace

bool is_pow2(std::size_t x) {
  return x && !(x & (x - 1));
}

std::size_t floor_pow2(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

Type checked_acc(const DeviceInfo& dev, Type type, Op op, const std::optional<Type>& requested) {
  if (!op_allows(op, type))
    throw ArgumentError(
        detail::format("{} is defined for integer types only, not {}", name(op), name(type)));
  const Type acc = check_acc(type, op, requested);
  if ((type == Type::F64 || acc == Type::F64) && !dev.fp64)
    throw UnsupportedError(
        detail::format("f64 needs cl_khr_fp64, which device '{}' does not have", dev.name));
  return acc;
}

std::size_t checked_work_group(const DeviceInfo& dev, std::size_t requested) {
  const std::size_t dev_max = dev.max_work_group ? dev.max_work_group : 1;
  if (!requested) return std::min<std::size_t>(256, floor_pow2(dev_max));
  if (!is_pow2(requested) || requested > dev_max)
    throw ArgumentError(detail::format(
        "work-group size {} is not a power of two between 1 and {} (the device's maximum)",
        requested, floor_pow2(dev_max)));
  return requested;
}

std::uint64_t max_alloc_elements(const DeviceInfo& dev, Type type) {
  const std::uint64_t cap = std::max<std::uint64_t>(dev.max_alloc, 1 << 20);
  return std::max<std::uint64_t>(cap / size_of(type) / 4096, 1) * 4096;
}

bool exact_form(Determinism d, Type type, Type acc, Op op) {
  if (d == Determinism::RunToRun || !is_float(acc)) return false;
  switch (op_row(op).exact) {
    case ExactPolicy::OrderFree:
      return false;
    case ExactPolicy::ExactSum:
      if (!is_float(type))
        throw UnsupportedError(detail::format(
            "determinism {}: a float {} of {} elements is not reproducible yet (run_to_run only)",
            name(d), name(op), name(type)));
      return true;
    case ExactPolicy::Refused:
      throw UnsupportedError(
          detail::format("determinism {}: a float {} is not reproducible yet (run_to_run only)",
                         name(d), name(op)));
  }
  return false;  // not an ExactPolicy
}

std::uint64_t byte_size(Type type, std::uint64_t n) {
  if (n > std::numeric_limits<std::uint64_t>::max() / size_of(type))
    throw ArgumentError(
        detail::format("{} elements of {} overflow a 64-bit byte count", n, name(type)));
  return n * size_of(type);
}

bool auto_strategy(const Options& opts) {
  return opts.strategy.empty() || opts.strategy == "auto";
}

}  // namespace rdx::detail
