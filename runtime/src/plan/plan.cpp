// Plan selection: validates a request against the device's facts and picks strategy and sizes.
// Pure: no OpenCL calls, so it is unit-tested without a device.
#include <fmt/format.h>

#include <algorithm>

#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "strategies/facts.hpp"

namespace rdx {
namespace {

bool is_pow2(std::size_t x) {
  return x && !(x & (x - 1));
}

std::size_t floor_pow2(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x)
    p *= 2;
  return p;
}

// The accumulator of a request: the element type, or Options::acc when it widens. An integer
// widens into a wider integer or a float, a float into a wider float (or itself). min and max
// return an element's value, so their accumulator must hold every value of the element type
// exactly: no signed into unsigned, no 64-bit integer into f64, no 32-bit one into f32.
Type check_acc(Type type, Op op, const std::optional<Type>& requested) {
  if (!requested) return type;
  const Type acc = *requested;
  if (acc == type) return acc;
  if (is_index_op(op))
    throw ArgumentError(
        fmt::format("{} returns an element: its accumulator is the element type {}, "
                    "not {}",
                    name(op), name(type), name(acc)));
  if (is_float(type) && !is_float(acc))
    throw ArgumentError(fmt::format("accumulator {} cannot hold {} elements (use f32 or f64)",
                                    name(acc), name(type)));
  if (is_bitwise(op) && is_float(acc))
    throw ArgumentError(
        fmt::format("{} needs an integer accumulator, not {}", name(op), name(acc)));
  if (size_of(acc) < size_of(type))
    throw ArgumentError(
        fmt::format("accumulator {} is narrower than the element type {}: --acc "
                    "widens, it never narrows",
                    name(acc), name(type)));
  if (!is_float(acc) && size_of(acc) == size_of(type))
    throw ArgumentError(
        fmt::format("accumulator {} is no wider than the element type {}: --acc widens an "
                    "integer into a wider integer or a float",
                    name(acc), name(type)));
  if ((op == Op::Min || op == Op::Max) && !holds_every_value(acc, type)) {
    std::string ok;
    for (Type t : kAllTypes)
      if (t != type && size_of(t) > size_of(type) && holds_every_value(t, type)) {
        if (!ok.empty()) ok += ' ';
        ok += name(t);
      }
    throw ArgumentError(fmt::format(
        "{} returns an element's value, and accumulator {} cannot hold every {} value exactly "
        "(accumulators that can: {})",
        name(op), name(acc), name(type), ok.empty() ? "none" : ok));
  }
  return acc;
}

std::string strategy_names() {
  std::string r = "auto";
  for (const auto* s : detail::strategy_facts())
    r += fmt::format(" {}", s->info.name);
  return r;
}

}  // namespace

std::string Plan::describe() const {
  std::string r = fmt::format("{} {} {} n={} wg={}", strategy,
                              reduction.empty() ? name(op) : std::string_view(reduction),
                              name(type), n, work_group_size);
  if (acc != type && reduction.empty()) r += fmt::format(" acc={}", name(acc));
  for (const auto& [k, v] : params.items())
    r += fmt::format(" {}={}", k, v);
  return r;
}

Plan make_plan(const DeviceInfo& dev, Type type, Op op, std::uint64_t n, const Options& opts,
               const TuningTable& tuning) {
  if (!op_allows(op, type))
    throw ArgumentError(
        fmt::format("{} is defined for integer types only, not {}", name(op), name(type)));
  Plan p;
  p.type = type;
  p.op = op;
  p.n = n;
  p.acc = check_acc(type, op, opts.acc);
  if ((type == Type::F64 || p.acc == Type::F64) && !dev.fp64)
    throw UnsupportedError(
        fmt::format("f64 needs cl_khr_fp64, which device '{}' does not have", dev.name));

  p.strategy = opts.strategy.empty() || opts.strategy == "auto"
                   ? resolve_auto(tuning, dev, type, op)
                   : opts.strategy;
  const detail::StrategyFacts* s = detail::find_facts(p.strategy);
  if (!s)
    throw ArgumentError(fmt::format("unknown strategy '{}' (expected one of: {})", opts.strategy,
                                    strategy_names()));
  if (s->unsupported)
    if (std::string why = s->unsupported(dev, type, p.acc, op); !why.empty())
      throw UnsupportedError(fmt::format("strategy {} cannot reduce {} {} on '{}': {}", p.strategy,
                                         name(op), name(type), dev.name, why));

  const std::size_t dev_max = dev.max_work_group ? dev.max_work_group : 1;
  if (opts.work_group_size) {
    if (!is_pow2(opts.work_group_size) || opts.work_group_size > dev_max)
      throw ArgumentError(fmt::format(
          "work-group size {} is not a power of two between 1 and {} (the device's maximum)",
          opts.work_group_size, floor_pow2(dev_max)));
    if (opts.work_group_size < s->min_work_group)
      throw ArgumentError(fmt::format("strategy {} needs a work-group size of at least {}",
                                      p.strategy, s->min_work_group));
    p.work_group_size = opts.work_group_size;
  } else {
    p.work_group_size = std::min<std::size_t>(256, floor_pow2(dev_max));
  }
  if (s->tune) s->tune(dev, p, opts, tuning);
  p.poll_result = dev.kind != DeviceKind::CPU;
  p.depth = s->depth(p, dev);
  return p;
}

}  // namespace rdx
