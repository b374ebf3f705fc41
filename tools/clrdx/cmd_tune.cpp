// clrdx tune: measures the grids of auto's two one-launch strategies (fast_strided, fast_blocked)
// on one device for each element type and operator asked for, and stores the best in the tuning
// file (rdx/tuning.hpp) as entries for that device and driver, which every later Context on it
// plans with. A configuration replaces the built-in plan only when it is faster by more than the
// noise margin at the sizes measured (geometric mean of the per-size speedups), and is slower by
// no more than the margin at any one of them.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iostream>
#include <optional>

#include "commands.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "timing.hpp"

namespace clrdx {
namespace {

// A candidate: strategy plus tunables (what Options::tuning can override).
struct Candidate {
  std::string strategy;
  rdx::Params v;
  std::string label() const {
    std::string r = strategy == "fast_blocked" ? "blocked" : "strided";
    for (const auto& [name, value] : v.items())
      r += fmt::format(" {}={}", name, value);
    return r;
  }
};

// The search space: the built-in defaults and their neighbours, the ranges sweeps found
// interesting (bench/sweep_fast.sh); about 8 programs per strategy to build per type and operator.
std::vector<Candidate> candidates() {
  std::vector<Candidate> c;
  for (auto [wg, gpc, unroll, vb] : {std::tuple{256u, 8u, 2u, 16u},
                                     {256u, 4u, 2u, 16u},
                                     {256u, 16u, 2u, 16u},
                                     {512u, 4u, 2u, 16u},
                                     {128u, 16u, 2u, 16u},
                                     {256u, 8u, 4u, 16u},
                                     {256u, 8u, 1u, 16u},
                                     {256u, 8u, 2u, 32u}})
    c.push_back({"fast_strided", rdx::Params()
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
    c.push_back({"fast_blocked", rdx::Params()
                                     .set("wg", 1)
                                     .set("groups_per_cu", gpc)
                                     .set("vector_bytes", vb)
                                     .set("min_per_item", min)});
  return c;
}

rdx::Options options_for(const Candidate& c) {
  rdx::Options o;
  o.strategy = c.strategy;
  o.tuning = c.v;
  return o;
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

bool same_device_entry(const rdx::TuneEntry& e, const rdx::DeviceInfo& dev) {
  return e.device == dev.name && e.driver == dev.driver;
}

}  // namespace

int cmd_tune(const TuneArgs& a) {
  const std::string path = a.file.empty() ? rdx::tuning_file() : a.file;
  if (path.empty())
    throw rdx::ArgumentError("no tuning file: RDX_TUNING_FILE=off and no --file given");
  const rdx::TuningTable stored = rdx::load_tuning(path);  // a malformed file stops here
  // A file that could not be written would waste the whole measurement: fail first.
  if (!a.dry_run) rdx::check_tuning_file_writable(path);
  rdx::Context ctx(a.device);
  const rdx::DeviceInfo& dev = ctx.device_info();
  rdx::TuningUpdate update;
  update.device = dev.name;
  update.driver = dev.driver;

  if (a.clear) {
    std::size_t removed = 0;
    if (a.dry_run) {
      removed = static_cast<std::size_t>(
          std::count_if(stored.entries.begin(), stored.entries.end(),
                        [&](const rdx::TuneEntry& e) { return same_device_entry(e, dev); }));
    } else {
      update.clear = true;
      removed = rdx::update_tuning_file(path, update).removed;
    }
    fmt::print("{}: removed {} entries for {} (driver {}){}\n", path, removed, dev.name, dev.driver,
               a.dry_run ? " (dry run: nothing written)" : "");
    return 0;
  }

  std::vector<std::pair<rdx::Type, rdx::Op>> pairs;
  for (const rdx::Type type : parse_type_list(a.types))
    for (const rdx::Op op : parse_op_list(a.ops)) {
      if (!rdx::op_allows(op, type))
        throw rdx::ArgumentError(
            fmt::format("{} is not defined for {}", rdx::name(op), rdx::name(type)));
      if (type == rdx::Type::F64 && !dev.fp64) {
        std::cerr << fmt::format("tune: skipping f64: '{}' has no fp64\n", dev.name);
        continue;
      }
      pairs.push_back({type, op});
    }
  const auto sizes = parse_counts(a.sizes);
  // Plans as they are without this device's stored entries: the baseline to beat.
  rdx::TuningTable baseline_table = rdx::builtin_tuning();
  for (auto& e : stored.entries)
    if (!same_device_entry(e, dev)) baseline_table.entries.push_back(e);

  fmt::print("tuning {} (driver {}), sizes {}; the built-in plan against {} candidates\n", dev.name,
             dev.driver, a.sizes, candidates().size());
  std::vector<rdx::TuneEntry> found;
  for (const auto& pair : pairs) {
    const rdx::Type type = pair.first;  // (not a structured binding: the lambdas below use them)
    const rdx::Op op = pair.second;
    std::vector<cl::Buffer> inputs;
    std::vector<rdx::Reference> refs;
    for (auto n : sizes) {
      if (n == 0 || n > dev.max_alloc / rdx::size_of(type))
        throw rdx::ArgumentError(
            fmt::format("size {} is 0 or exceeds the device's largest "
                        "allocation",
                        n));
      const auto host = rdx::generate(type, "mod:7", n);
      inputs.push_back(bench_input(ctx, host));
      refs.push_back(rdx::reference_reduce(type, type, op, host.data(), n));
    }
    auto measure = [&](const rdx::Options& o, const std::string& what) {
      std::vector<double> t;
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        const Timed timed = time_reduce(ctx, type, inputs[k], sizes[k], op, o, a.repeat);
        const auto& r = timed.result;
        if (auto bad = rdx::check_result(r.plan, r.value, r.index, refs[k]); !bad.empty())
          throw rdx::Error(
              fmt::format("tune: {} gave a wrong result at n={}: {}", what, sizes[k], bad));
        t.push_back(timed.seconds);
      }
      return t;
    };
    // The built-in plan: auto under the table without this device's entries.
    const rdx::Plan base_plan =
        rdx::make_plan(dev, type, op, sizes.back(), rdx::Options{}, baseline_table);
    rdx::Options base_opts;
    base_opts.strategy = base_plan.strategy;
    base_opts.tuning = rdx::resolve_tuning(baseline_table, dev, base_plan.strategy, type, op);
    std::cerr << fmt::format("tune: {} {}: built-in {}\n", rdx::name(type), rdx::name(op),
                             base_plan.describe());
    // Every configuration, the built-in plan first, is timed in each of kRounds rounds and keeps
    // its best time per size: a slow moment of a shared machine then hurts no configuration more
    // than another.
    constexpr int kRounds = 3;
    const auto all = candidates();
    std::vector<std::optional<rdx::Options>> configs = {base_opts};
    for (const auto& c : all)
      configs.push_back(options_for(c));
    std::vector<std::vector<double>> best_times(configs.size(),
                                                std::vector<double>(sizes.size(), HUGE_VAL));
    for (int round = 0; round < kRounds; ++round)
      for (std::size_t k = 0; k < configs.size(); ++k) {
        if (!configs[k]) continue;
        try {
          const auto t = measure(*configs[k], k ? all[k - 1].label() : "the built-in plan");
          for (std::size_t j = 0; j < t.size(); ++j)
            best_times[k][j] = std::min(best_times[k][j], t[j]);
        } catch (const rdx::UnsupportedError&) {
          if (k == 0) throw;
          configs[k].reset();  // e.g. a work-group size the device does not take
        } catch (const rdx::ArgumentError&) {
          if (k == 0) throw;
          configs[k].reset();
        }
      }
    const std::vector<double>& base = best_times[0];
    double best_score = 1.0;  // of the best candidate that may be stored
    const Candidate* best = nullptr;
    std::vector<double> best_t = base;
    double top_score = 0, top_worst = 0;  // of the best candidate measured, storable or not
    const Candidate* top = nullptr;
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
      const Candidate& c = all[k - 1];
      // The built-in values themselves are among the candidates (the same plan at every size
      // timed; several candidates can be, where a tunable does not change the plan); they are
      // never stored.
      bool builtin = c.strategy == base_plan.strategy;
      for (std::size_t j = 0; builtin && j < sizes.size(); ++j)
        builtin = rdx::make_plan(dev, type, op, sizes[j], *configs[k], baseline_table) ==
                  rdx::make_plan(dev, type, op, sizes[j], base_opts, baseline_table);
      std::cerr << fmt::format("tune:   {:<44} {:.3f}x (worst size {:.3f}x){}\n", c.label(), score,
                               worst, builtin ? " the built-in plan" : "");
      if (builtin) continue;
      if (!top || score > top_score) top_score = score, top_worst = worst, top = &c;
      // A plan that wins on average but loses beyond the noise margin at one size is not stored.
      if (worst < 1.0 - a.margin) continue;
      if (score > best_score) best_score = score, best = &c, best_t = t;
    }
    std::string times;
    for (std::size_t k = 0; k < sizes.size(); ++k)
      times += fmt::format(" n={}: {:.1f} -> {:.1f} us", sizes[k], base[k] * 1e6, best_t[k] * 1e6);
    if (!best || best_score < 1.0 + a.margin) {
      fmt::print("  {} {}: built-in plan kept ({}, margin {:.0f}%)\n", rdx::name(type),
                 rdx::name(op),
                 top ? fmt::format("best candidate {} {:.3f}x, {:.3f}x at its worst size",
                                   top->label(), top_score, top_worst)
                     : std::string("no candidate ran"),
                 a.margin * 100);
      continue;
    }
    rdx::TuneEntry e;
    e.device = dev.name;
    e.driver = dev.driver;
    e.type = type;
    e.op = op;
    e.strategy = best->strategy;
    e.auto_runs = best->strategy;
    e.values = best->v;
    e.note = fmt::format("clrdx tune {}: {:.3f}x the built-in plan;{}", today(), best_score, times);
    fmt::print("  {} {}: {} ({:.3f}x;{})\n", rdx::name(type), rdx::name(op), best->label(),
               best_score, times);
    found.push_back(e);
  }

  // The device's throughput on host input, a device group's share (rdx/multi.hpp): f32 sums of
  // 2^24 elements (fewer where one allocation is smaller) copied from pageable host memory and
  // reduced; the median of 5 calls after a warm-up.
  {
    const std::uint64_t n =
        std::min<std::uint64_t>(std::uint64_t{1} << 24, dev.max_alloc / sizeof(float));
    const auto host = rdx::generate(rdx::Type::F32, "mod:7", n);
    const auto once = [&] {
      const auto t0 = std::chrono::steady_clock::now();
      rdx::reduce(ctx, rdx::Type::F32, host.data(), n, rdx::Op::Sum);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    once();
    std::vector<double> t;
    for (int k = 0; k < 5; ++k)
      t.push_back(once());
    std::sort(t.begin(), t.end());
    const double mbps = static_cast<double>(n * sizeof(float)) / t[2] / 1e6;
    rdx::TuneEntry e;
    e.device = dev.name;
    e.driver = dev.driver;
    e.host_mbps = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(mbps)));
    e.note =
        fmt::format("clrdx tune {}: f32 sums of {} host elements, median of 5 calls", today(), n);
    fmt::print("  host input: {} MB/s (a device group's share of host data)\n", e.host_mbps);
    found.push_back(e);
    update.host_measured = true;
  }

  if (a.dry_run) {
    fmt::print("dry run: {} entries not written to {}\n", found.size(), path);
    return 0;
  }
  // This device's entries for the pairs measured are replaced; everything else in the file as it
  // is now (other runs may have written it meanwhile) stays.
  update.measured = pairs;
  update.entries = found;
  const rdx::TuningFileChange change = rdx::update_tuning_file(path, update);
  fmt::print("wrote {} entries for this device to {} ({} in all)\n", found.size(), path,
             change.total);
  return 0;
}

}  // namespace clrdx
