// Plan selection: validates a request against the device's facts and picks strategy and sizes.
// Pure: no OpenCL calls, so it is unit-tested without a device.
#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "ops/binned_sum.hpp"
#include "ops/exact_sum.hpp"
#include "plan/request.hpp"
#include "plan/strategy_facts.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"

namespace rdx {
namespace {

std::string strategy_names() {
  std::string r = "auto";
  for (const auto* s : detail::strategy_facts())
    r += detail::format(" {}", s->info.name);
  return r;
}

// Work-groups of the exact sum's first launch: one per compute unit on CPUs (of one work-item,
// a contiguous range each), 8 per compute unit on GPUs (a grid stride): on the H200, f32 2^28,
// 8 a CU took 385-395 us against 441-466 with 2 or 4 (rows kept at a3b5203).
constexpr std::uint64_t kExactGroupsPerCuGpu = 8;
constexpr std::uint64_t kExactGroupsPerCuCpu = 1;  // not measured with more: 8-32 KB of bins each

// Work-groups of the fixed-bin sum's first launch: kBinnedGroupsPerCuCpu per compute unit on CPUs
// (of one work-item, a contiguous range each, its lanes in vectors), kBinnedGroupsPerCuGpu per
// compute unit on GPUs (a grid stride), with kBinnedLanesGpu lanes a work-item: the fastest for
// f32 on the H100 (a3b45e4) and, with 4 loads in flight, for f32 and f64 on the H200 (2bcb05d).
constexpr std::uint64_t kBinnedGroupsPerCuGpu = 4;
constexpr std::uint64_t kBinnedLanesGpu = 4;
// Vectors a GPU work-item loads before depositing them: 4 beat 1, 2 and 8 on the H200 (b8785e9).
constexpr std::uint64_t kBinnedUnrollGpu = 4;
// On CPUs 16 work-items a compute unit (kBinnedMinItemBytesCpu: fewer for small inputs), so that
// PoCL's threads share the work in smaller ranges: on 16 Xeon cores 16 took 0.85-1.02x the time
// of 8, 32 0.87-1.17x (437442e).
constexpr std::uint64_t kBinnedGroupsPerCuCpu = 16;
// Below kBinnedGroupsPerCuCpu work-items of kBinnedMinItemBytesCpu a compute unit, fewer, down to
// one: each costs about 3 us however few elements it takes (PoCL 5, 16 Xeon cores; 437442e).
constexpr std::uint64_t kBinnedMinItemBytesCpu = 256 * 1024;
// Where the groups' states are merged: on CPUs by the host, after one read of the states (a call
// 32-49 us shorter than with a second launch on 16 Xeon cores; 437442e); on GPUs by binned_finish
// (one read of 7 words instead of 7 of each group).
constexpr std::uint64_t kBinnedHostFinishCpu = 1;
constexpr std::uint64_t kBinnedHostFinishGpu = 0;

// What the two reproducible sums' plans share: strategy auto only; the tunables "groups" and
// "blocked" (their grid), "chunk" (elements per pass of host data, for the tests of bit
// equality) and `own`; one work-item per group on CPUs, a contiguous range each ("blocked").
struct SumGrid {
  const char* strategy;  // the plan's name (Plan::strategy); what runs it is `state`
  StateForm state;
  const char* accumulator;  // in messages
  std::initializer_list<const char*> own;
  std::uint64_t gpu_groups_per_cu, cpu_groups_per_cu, most_groups;
  // On CPUs, one work-group per this many bytes of input, between one and cpu_groups_per_cu a
  // compute unit; 0: always cpu_groups_per_cu a compute unit.
  std::uint64_t cpu_min_item_bytes;
};

Plan sum_grid_plan(const DeviceInfo& dev, Plan p, const Options& opts, const SumGrid& g) {
  if (!detail::auto_strategy(opts))
    throw ArgumentError(detail::format(
        "determinism {}: float sums run the {} accumulator (strategy auto), not '{}'",
        name(opts.determinism), g.accumulator, detail::printable(opts.strategy)));
  std::string names = "groups, blocked";
  for (const char* o : g.own)
    names += detail::format(", {}", o);
  for (const auto& item : opts.tuning.items()) {
    const std::string& k = item.first;  // not a structured binding: the lambda captures it
    if (k != "groups" && k != "blocked" && k != "chunk" &&
        std::none_of(g.own.begin(), g.own.end(), [&](const char* o) { return k == o; }))
      throw ArgumentError(detail::format("the {} sum has the tunables {} and chunk, not '{}'",
                                         g.accumulator, names, detail::printable(k)));
  }
  const bool cpu = dev.kind == DeviceKind::CPU;
  const std::uint64_t cus = std::max<std::uint32_t>(dev.compute_units, 1);
  p.strategy = g.strategy;
  p.state = g.state;
  p.work_group_size = detail::checked_work_group(dev, opts.work_group_size ? opts.work_group_size
                                                      : cpu                ? 1
                                                                           : 0);
  std::uint64_t default_groups = cus * (cpu ? g.cpu_groups_per_cu : g.gpu_groups_per_cu);
  if (cpu && g.cpu_min_item_bytes) {
    const std::uint64_t items = std::max<std::uint64_t>(g.cpu_min_item_bytes / size_of(p.type), 1);
    default_groups = std::clamp(p.n / items + (p.n % items != 0), cus, default_groups);
  }
  const std::uint64_t groups = opts.tuning.get("groups").value_or(default_groups);
  if (groups < 1 || groups > g.most_groups)
    throw ArgumentError(detail::format("groups {} is not between 1 and {}", groups, g.most_groups));
  p.params.set("groups", groups);
  p.params.set("blocked", opts.tuning.get("blocked").value_or(cpu ? 1 : 0) ? 1 : 0);
  if (const auto chunk = opts.tuning.get("chunk")) {
    if (*chunk < 1) throw ArgumentError("chunk must be at least 1");
    p.params.set("chunk", *chunk);
  }
  p.poll_result = !cpu;
  return p;
}

// A float sum under Exact: the exact long accumulator (cl/exact_sum.cl); its tunable "fold" 0
// turns off its double windows (on by default where the device has doubles). CPUs: one
// work-item per group (its bins are 8-32 KB of private memory).
Plan exact_plan(const DeviceInfo& dev, Plan p, const Options& opts) {
  p = sum_grid_plan(dev, p, opts,
                    {"exact_sum",
                     StateForm::Digits,
                     "exact",
                     {"fold"},
                     kExactGroupsPerCuGpu,
                     kExactGroupsPerCuCpu,
                     4096,
                     0});
  const std::uint64_t fold = opts.tuning.get("fold").value_or(dev.fp64 ? 1 : 0);
  if (fold > 1) throw ArgumentError(detail::format("fold {} is not 0 or 1", fold));
  if (fold && !dev.fp64)
    throw UnsupportedError("fold 1: the exact sum's windows need doubles, which this device lacks");
  p.params.set("fold", fold);
  p.depth = 1;  // correctly rounded: within epsilon(acc) * |sum| <= epsilon * sum|x|
  return p;
}

// A float sum under AnyDevice: the fixed-bin accumulator (cl/binned_sum.cl); its tunables
// "lanes" and "unroll" set the lanes of bins a GPU work-item keeps and the vectors it loads
// before depositing them (its loads in flight). CPUs (blocked) run neither: their lanes are 64
// bytes and their blocks have 4 vectors. "host_finish" 1 (CPUs' default) reads the groups'
// states back and merges them on the host instead of launching binned_finish
// (strategies/run_binned.cpp): kBinnedHostFinishCpu says why.
Plan binned_plan(const DeviceInfo& dev, Plan p, const Options& opts) {
  p = sum_grid_plan(dev, p, opts,
                    {"binned_sum",
                     StateForm::Bins,
                     "fixed-bin",
                     {"lanes", "unroll", "host_finish"},
                     kBinnedGroupsPerCuGpu,
                     kBinnedGroupsPerCuCpu,
                     65536,
                     kBinnedMinItemBytesCpu});
  const std::uint64_t lanes = opts.tuning.get("lanes").value_or(kBinnedLanesGpu);
  if (lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16)
    throw ArgumentError(detail::format("lanes {} is not 2, 4, 8 or 16", lanes));
  p.params.set("lanes", lanes);
  const std::uint64_t unroll = opts.tuning.get("unroll").value_or(kBinnedUnrollGpu);
  if (unroll != 1 && unroll != 2 && unroll != 4 && unroll != 8)
    throw ArgumentError(detail::format("unroll {} is not 1, 2, 4 or 8", unroll));
  p.params.set("unroll", unroll);
  const std::uint64_t host_finish =
      opts.tuning.get("host_finish")
          .value_or(dev.kind == DeviceKind::CPU ? kBinnedHostFinishCpu : kBinnedHostFinishGpu);
  if (host_finish > 1)
    throw ArgumentError(detail::format("host_finish {} is not 0 or 1", host_finish));
  p.params.set("host_finish", host_finish);
  p.depth = detail::binned_depth(p.acc, p.n);
  return p;
}

}  // namespace

std::string_view name(Determinism d) {
  switch (d) {
    case Determinism::RunToRun:
      return "run_to_run";
    case Determinism::AnyDevice:
      return "any_device";
    case Determinism::Exact:
      return "exact";
  }
  return "?";  // not a Determinism
}

std::optional<Determinism> find_determinism(std::string_view n) {
  for (Determinism d : kAllDeterminisms)
    if (name(d) == n) return d;
  return std::nullopt;
}

std::string Plan::describe() const {
  std::string r = detail::format("{} {} {} n={} wg={}", strategy,
                                 reduction.empty() ? name(op) : std::string_view(reduction),
                                 name(type), n, work_group_size);
  if (acc != type && reduction.empty()) r += detail::format(" acc={}", name(acc));
  for (const auto& [k, v] : params.items())
    r += detail::format(" {}={}", k, v);
  return r;
}

Plan make_plan(const DeviceInfo& dev, Type type, Op op, std::uint64_t n, const Options& opts,
               const TuningTable& tuning) {
  Plan p;
  p.type = type;
  p.op = op;
  p.n = n;
  p.acc = detail::checked_acc(dev, type, op, opts.acc);
  if (detail::exact_form(opts.determinism, type, p.acc, op))
    return opts.determinism == Determinism::AnyDevice ? binned_plan(dev, p, opts)
                                                      : exact_plan(dev, p, opts);

  p.strategy = detail::auto_strategy(opts) ? resolve_auto(tuning, dev, type, op) : opts.strategy;
  const detail::StrategyFacts* s = detail::find_facts(p.strategy);
  if (!s)
    throw ArgumentError(detail::format("unknown strategy '{}' (expected one of: {})",
                                       detail::printable(opts.strategy), strategy_names()));
  if (s->unsupported)
    if (std::string why = s->unsupported(dev, type, p.acc, op); !why.empty())
      throw UnsupportedError(detail::format("strategy {} cannot reduce {} {} on '{}': {}",
                                            p.strategy, name(op), name(type), dev.name, why));

  p.work_group_size = detail::checked_work_group(dev, opts.work_group_size);
  if (opts.work_group_size && opts.work_group_size < s->min_work_group)
    throw ArgumentError(detail::format("strategy {} needs a work-group size of at least {}",
                                       p.strategy, s->min_work_group));
  if (s->tune) s->tune(dev, p, opts, tuning);
  p.poll_result = dev.kind != DeviceKind::CPU;
  p.depth = s->depth(p, dev);
  return p;
}

}  // namespace rdx
