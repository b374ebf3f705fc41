// Plan selection: validates a request against the device's facts and picks strategy and sizes.
// Pure: no OpenCL calls, so it is unit-tested without a device.
#include <fmt/format.h>

#include <algorithm>

#include "ops/operators.hpp"
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

std::uint64_t clamp_u(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  return std::max(lo, std::min(v, hi));
}

// The grid of the one-launch strategies, from the tuning table (rdx/tuning.hpp) unless Options
// override it. fast_blocked (auto on CPUs): few work-items, each reading one long contiguous range
// with wide vectors (PoCL runs a work-group as a loop; LLVM vectorises the range). fast_strided
// (auto elsewhere): a grid of compute units x groups_per_cu groups reading neighbouring vectors.
void tune_fast(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& tuning) {
  const TuneValues t = resolve_tuning(tuning, dev, p.strategy, p.type, p.op);
  const std::uint64_t es = size_of(p.type);
  const std::uint64_t cus = std::max<std::uint32_t>(dev.compute_units, 1);
  const std::uint64_t gpc = o.groups_per_cu ? o.groups_per_cu : std::max(t.groups_per_cu, 1u);
  if (!detail::lanes_combine(p.op, p.acc))
    p.vector_width = 1;  // one element at a time (ops/operators.hpp)
  else if (o.vector_width)
    p.vector_width = static_cast<unsigned>(clamp_u(o.vector_width, 1, 16));
  else
    p.vector_width = static_cast<unsigned>(clamp_u(std::max(t.vector_bytes, 1u) / es, 1, 16));
  // On a CPU a vector, of elements or of accumulators, is at most one SIMD register: a wider
  // one is split anyway, and its type has no defined calling convention there (LLVM warns,
  // -Wpsabi, on every compile).
  if (dev.kind == DeviceKind::CPU && dev.native_vector_bytes) {
    const std::uint64_t lane = std::max<std::uint64_t>(es, size_of(p.acc));
    p.vector_width = static_cast<unsigned>(std::min<std::uint64_t>(
        p.vector_width, std::max<std::uint64_t>(dev.native_vector_bytes / lane, 1)));
  }
  const std::size_t table_wg = t.work_group_size ? t.work_group_size : 256;
  if (p.strategy == "fast_blocked") {
    p.blocked = true;
    p.unroll = 1;
    p.work_group_size =
        o.work_group_size ? o.work_group_size : std::min(table_wg, p.work_group_size);
    const std::uint64_t min_per_item =
        o.min_per_item ? o.min_per_item : std::max<std::uint64_t>(t.min_per_item, 1);
    p.groups = clamp_u((p.n + min_per_item - 1) / min_per_item / p.work_group_size, 1, cus * gpc);
  } else {
    p.blocked = false;
    p.unroll = o.unroll ? o.unroll : std::max(t.unroll, 1u);
    p.work_group_size =
        o.work_group_size ? o.work_group_size : std::min(table_wg, p.work_group_size);
    // By default one round of UNROLL vector loads per work-item, so that a small input spreads
    // over many groups and every load is in flight at once (docs/performance.md).
    const std::uint64_t min_per_item =
        o.min_per_item
            ? o.min_per_item
            : (t.min_per_item ? t.min_per_item : std::uint64_t{p.vector_width} * p.unroll);
    const std::uint64_t per_group =
        p.work_group_size * std::max<std::uint64_t>(min_per_item, p.vector_width);
    p.groups = clamp_u((p.n + per_group - 1) / per_group, 1, cus * gpc);
  }
  // A grid whose partials the last group would combine at one per work-item or fewer hands
  // them to the host instead (cl/fast.cl, HOST_FINISH).
  p.host_finish = p.groups <= p.work_group_size;
  if (p.unroll != 1 && p.unroll != 2 && p.unroll != 4)
    throw ArgumentError(fmt::format("unroll {} is not 1, 2 or 4", p.unroll));
  if (!is_pow2(p.vector_width) || p.vector_width > 16)
    throw ArgumentError(fmt::format("vector width {} is not 1, 2, 4, 8 or 16", p.vector_width));
}

}  // namespace

std::string Plan::describe() const {
  return fmt::format("{} {} {} n={} wg={}", strategy, name(op), name(type), n, work_group_size) +
         (acc != type ? fmt::format(" acc={}", name(acc)) : std::string()) +
         (groups ? fmt::format(" groups={} vw={} {}{}", groups, vector_width,
                               blocked ? "blocked" : "strided", host_finish ? " host-finish" : "")
                 : std::string());
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
  if (s->tuned_grid) tune_fast(dev, p, opts, tuning);
  p.poll_result = dev.kind != DeviceKind::CPU;
  p.depth = s->depth(p, dev);
  return p;
}

}  // namespace rdx
