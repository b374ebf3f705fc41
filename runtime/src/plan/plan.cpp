// Plan selection: validates a request against the device's facts and picks strategy and sizes.
// Pure: no OpenCL calls, so it is unit-tested without a device.
#include <fmt/format.h>

#include <algorithm>

#include "plan/request.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "strategies/facts.hpp"

namespace rdx {
namespace {

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
  Plan p;
  p.type = type;
  p.op = op;
  p.n = n;
  p.acc = detail::checked_acc(dev, type, op, opts.acc);

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

  p.work_group_size = detail::checked_work_group(dev, opts.work_group_size);
  if (opts.work_group_size && opts.work_group_size < s->min_work_group)
    throw ArgumentError(fmt::format("strategy {} needs a work-group size of at least {}",
                                    p.strategy, s->min_work_group));
  if (s->tune) s->tune(dev, p, opts, tuning);
  p.poll_result = dev.kind != DeviceKind::CPU;
  p.depth = s->depth(p, dev);
  return p;
}

}  // namespace rdx
