// rdx::tune (rdx/tuning.hpp): the tuning search that `clrdx tune` runs. It times candidate
// configurations of fast_strided / fast_blocked through the public API (rdx::reduce) and returns
// the entries the tuning table (plan/tuning.cpp) keeps.
#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "core/call_timing.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"
#include "rdx/tuning.hpp"
#include "rdx/verify.hpp"

namespace rdx {

std::string TuneCandidate::label() const {
  std::string r = strategy;
  for (const auto& [name, value] : values.items())
    r += detail::format(" {}={}", name, value);
  return r;
}

// The ranges sweeps found interesting (bench/sweep_fast.sh); about 8 programs per strategy to
// build per type and operator.
std::vector<TuneCandidate> tune_candidates() {
  std::vector<TuneCandidate> c;
  for (auto [wg, gpc, unroll, vb] : {std::tuple{256u, 8u, 2u, 16u},
                                     {256u, 4u, 2u, 16u},
                                     {256u, 16u, 2u, 16u},
                                     {512u, 4u, 2u, 16u},
                                     {128u, 16u, 2u, 16u},
                                     {256u, 8u, 4u, 16u},
                                     {256u, 8u, 1u, 16u},
                                     {256u, 8u, 2u, 32u}})
    c.push_back({"fast_strided", Params()
                                     .set("wg", wg)
                                     .set("groups_per_cu", gpc)
                                     .set("unroll", unroll)
                                     .set("vector_bytes", vb)});
  for (auto [gpc, vb, min] : {std::tuple{8u, 64u, 1u << 15},
                              {4u, 64u, 1u << 15},
                              {2u, 64u, 1u << 15},
                              {1u, 64u, 1u << 15},
                              {16u, 64u, 1u << 15},
                              {8u, 32u, 1u << 15},
                              {8u, 64u, 1u << 13},
                              {8u, 64u, 1u << 17}})
    c.push_back({"fast_blocked", Params()
                                     .set("wg", 1)
                                     .set("groups_per_cu", gpc)
                                     .set("vector_bytes", vb)
                                     .set("min_per_item", min)});
  return c;
}

std::vector<TuneEntry> TuneResult::entries() const {
  std::vector<TuneEntry> all;
  for (const TunePairResult& p : pairs)
    if (p.entry) all.push_back(*p.entry);
  if (host) all.push_back(*host);
  return all;
}

namespace {

// The yardsticks' way (core/call_timing.hpp): one call that builds the programs, one discarded
// call, then `repeat` timed calls (3 when the first took more than 2 s); the median per call.
// (clrdx bench discards calls for a quarter of a second instead: tune alternates its
// configurations over rounds and keeps each one's best.)
double time_reduce(Context& ctx, Type type, const cl::Buffer& buf, std::uint64_t n, Op op,
                   const Options& opts, int repeat, Result& last) {
  return detail::time_calls([&] { last = reduce(ctx, type, buf, n, op, opts); }, repeat, {});
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

bool same_device_entry(const TuneEntry& e, const DeviceInfo& dev) {
  return e.device == dev.name && e.driver == dev.driver;
}

// One pair's search (see rdx::tune).
TunePairResult tune_pair(Context& ctx, const TuneRequest& req, const TuningTable& baseline_table,
                         Type type, Op op) {
  const DeviceInfo& dev = ctx.device_info();
  const auto& sizes = req.sizes;
  const auto log = [&](const std::string& line) {
    if (req.log) req.log(line);
  };
  std::vector<cl::Buffer> inputs;
  std::vector<Reference> refs;
  for (auto n : sizes) {
    if (n == 0 || n > dev.max_alloc / size_of(type))
      throw ArgumentError(
          detail::format("size {} is 0 or exceeds the device's largest allocation", n));
    const auto host = generate(type, "mod:7", n);
    inputs.push_back(detail::device_copy(ctx, host, "tune input"));
    refs.push_back(reference_reduce(type, type, op, host.data(), n));
  }
  auto measure = [&](const Options& o, const std::string& what) {
    std::vector<double> t;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      Result r;
      t.push_back(time_reduce(ctx, type, inputs[k], sizes[k], op, o, req.repeat, r));
      if (auto bad = check_result(r.plan, r.value, r.index, refs[k]); !bad.empty())
        throw Error(
            detail::format("tune: {} gave a wrong result at n={}: {}", what, sizes[k], bad));
    }
    return t;
  };
  // The built-in plan: auto under the table without this device's entries.
  const Plan base_plan = make_plan(dev, type, op, sizes.back(), Options{}, baseline_table);
  Options base_opts;
  base_opts.strategy = base_plan.strategy;
  base_opts.tuning = resolve_tuning(baseline_table, dev, base_plan.strategy, type, op);
  log(detail::format("tune: {} {}: built-in {}", name(type), name(op), base_plan.describe()));
  // Every configuration, the built-in plan first, is timed in each of kRounds rounds and keeps
  // its best time per size: a slow moment of a shared machine then hurts no configuration more
  // than another.
  constexpr int kRounds = 3;
  const auto all = tune_candidates();
  std::vector<std::optional<Options>> configs = {base_opts};
  for (const auto& c : all) {
    Options o;
    o.strategy = c.strategy;
    o.tuning = c.values;
    configs.push_back(o);
  }
  std::vector<std::vector<double>> best_times(configs.size(),
                                              std::vector<double>(sizes.size(), HUGE_VAL));
  for (int round = 0; round < kRounds; ++round)
    for (std::size_t k = 0; k < configs.size(); ++k) {
      if (!configs[k]) continue;
      try {
        const auto t = measure(*configs[k], k ? all[k - 1].label() : "the built-in plan");
        for (std::size_t j = 0; j < t.size(); ++j)
          best_times[k][j] = std::min(best_times[k][j], t[j]);
      } catch (const UnsupportedError&) {
        if (k == 0) throw;
        configs[k].reset();  // e.g. a work-group size the device does not take
      } catch (const ArgumentError&) {
        if (k == 0) throw;
        configs[k].reset();
      }
    }
  const std::vector<double>& base = best_times[0];
  double best_score = 1.0;  // of the best candidate that may be stored
  const TuneCandidate* best = nullptr;
  std::vector<double> best_t = base;
  double top_score = 0, top_worst = 0;  // of the best candidate measured, storable or not
  const TuneCandidate* top = nullptr;
  for (std::size_t k = 1; k < configs.size(); ++k) {
    if (!configs[k]) continue;
    const auto& t = best_times[k];
    double log_sum = 0;       // geometric mean of the speedups over the built-in plan
    double worst = HUGE_VAL;  // and the speedup at the size where it does worst
    for (std::size_t j = 0; j < t.size(); ++j) {
      log_sum += std::log(base[j] / t[j]);
      worst = std::min(worst, base[j] / t[j]);
    }
    const double score = std::exp(log_sum / static_cast<double>(t.size()));
    const TuneCandidate& c = all[k - 1];
    // The built-in values themselves are among the candidates (the same plan at every size
    // timed; several candidates can be, where a tunable does not change the plan); they are
    // never stored.
    bool builtin = true;  // equal plans at every size: the same strategy too
    for (std::size_t j = 0; builtin && j < sizes.size(); ++j)
      builtin = make_plan(dev, type, op, sizes[j], *configs[k], baseline_table) ==
                make_plan(dev, type, op, sizes[j], base_opts, baseline_table);
    log(detail::format("tune:   {:<44} {:.3f}x (worst size {:.3f}x){}", c.label(), score, worst,
                       builtin ? " the built-in plan" : ""));
    if (builtin) continue;
    if (!top || score > top_score) top_score = score, top_worst = worst, top = &c;
    // A plan that wins on average but loses beyond the noise margin at one size is not stored.
    if (worst < 1.0 - req.margin) continue;
    if (score > best_score) best_score = score, best = &c, best_t = t;
  }
  std::string times;
  for (std::size_t k = 0; k < sizes.size(); ++k)
    times += detail::format(" n={}: {:.1f} -> {:.1f} us", sizes[k], base[k] * 1e6, best_t[k] * 1e6);
  TunePairResult out;
  out.type = type;
  out.op = op;
  if (!best || best_score < 1.0 + req.margin) {
    out.summary =
        detail::format("built-in plan kept ({}, margin {:.0f}%)",
                       top ? detail::format("best candidate {} {:.3f}x, {:.3f}x at its worst size",
                                            top->label(), top_score, top_worst)
                           : std::string("no candidate ran"),
                       req.margin * 100);
    return out;
  }
  TuneEntry e;
  e.device = dev.name;
  e.driver = dev.driver;
  e.type = type;
  e.op = op;
  e.strategy = best->strategy;
  e.auto_runs = best->strategy;
  e.values = best->values;
  e.note =
      detail::format("clrdx tune {}: {:.3f}x the built-in plan;{}", today(), best_score, times);
  out.entry = e;
  out.summary = detail::format("{} ({:.3f}x;{})", best->label(), best_score, times);
  return out;
}

// The device's throughput on host input, a device group's share (rdx/multi.hpp): f32 sums of
// 2^24 elements (fewer where one allocation is smaller) copied from the caller's memory as
// rdx::reduce copies it (core/host_input.hpp) and reduced; the median of 5 calls after a first
// and a discarded one.
TuneEntry host_throughput(Context& ctx) {
  const DeviceInfo& dev = ctx.device_info();
  const std::uint64_t n =
      std::min<std::uint64_t>(std::uint64_t{1} << 24, dev.max_alloc / sizeof(float));
  const auto host = generate(Type::F32, "mod:7", n);
  const double seconds =
      detail::time_calls([&] { reduce(ctx, Type::F32, host.data(), n, Op::Sum); }, 5, {});
  const double mbps = static_cast<double>(n * sizeof(float)) / seconds / 1e6;
  TuneEntry e;
  e.device = dev.name;
  e.driver = dev.driver;
  e.host_mbps = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(mbps)));
  e.note =
      detail::format("clrdx tune {}: f32 sums of {} host elements, median of 5 calls", today(), n);
  return e;
}

}  // namespace

TuneResult tune(Context& ctx, const TuneRequest& request, const TuningTable& stored,
                const std::function<void(const TunePairResult&)>& on_pair) {
  const DeviceInfo& dev = ctx.device_info();
  for (const auto& [type, op] : request.pairs) {
    if (!op_allows(op, type))
      throw ArgumentError(detail::format("{} is not defined for {}", name(op), name(type)));
    if (type == Type::F64 && !dev.fp64)
      throw UnsupportedError(
          detail::format("tune: f64 needs fp64, which '{}' does not have", dev.name));
  }
  if (!request.pairs.empty() && request.sizes.empty())
    throw ArgumentError("tune: no sizes to measure");
  // Plans as they are without this device's stored entries: the baseline to beat.
  TuningTable baseline_table = builtin_tuning();
  for (auto& e : stored.entries)
    if (!same_device_entry(e, dev)) baseline_table.entries.push_back(e);
  TuneResult result;
  for (const auto& [type, op] : request.pairs) {
    result.pairs.push_back(tune_pair(ctx, request, baseline_table, type, op));
    if (on_pair) on_pair(result.pairs.back());
  }
  if (request.host_throughput) result.host = host_throughput(ctx);
  return result;
}

}  // namespace rdx
