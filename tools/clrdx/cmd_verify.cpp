#include <fmt/ranges.h>
#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/verify.hpp"

namespace clrdx {
namespace {

std::vector<std::string> pick_strategies(const std::string& sel) {
  std::vector<std::string> names;
  for (auto& s : rdx::strategies())
    if (sel == "all" || sel == s.name) names.emplace_back(s.name);
  if (sel == "auto") names.emplace_back("auto");
  if (names.empty())
    throw rdx::ArgumentError(rdx::detail::format(
        "unknown strategy '{}' (see `clrdx strategies`, or all)", rdx::detail::printable(sel)));
  return names;
}

struct Tally {
  std::uint64_t passed = 0, failed = 0, skipped = 0;
  std::vector<std::string> failures;
  std::map<std::string, std::uint64_t> skip_reasons;

  // One case, named `what`: `run` returns "" when the result is right, else why it is not. An
  // UnsupportedError is a skip; an ArgumentError passes where `refusal_expected`; any other
  // exception fails.
  void check(const std::string& what, const std::function<std::string()>& run,
             bool refusal_expected = false) {
    try {
      record(what, run());
    } catch (const rdx::UnsupportedError& e) {
      ++skipped;
      ++skip_reasons[e.what()];
    } catch (const rdx::ArgumentError& e) {
      record(what, refusal_expected ? "" : e.what());
    } catch (const std::exception& e) {
      record(what, e.what());
    }
  }

 private:
  void record(const std::string& what, const std::string& why) {
    if (why.empty()) {
      ++passed;
    } else {
      ++failed;
      failures.push_back(rdx::detail::format("{}: {}", what, why));
    }
  }
};

// One row of results on stdout, added to `total`: a strategy's built-in operators, or (`set`
// "composites") its runs of the composites.
void report(const rdx::DeviceInfo& dev, const std::string& strategy, std::string_view set,
            const Tally& t, bool json, Tally& total) {
  if (json) {
    nlohmann::json j = {
        {"device", dev.name},   {"device_index", dev.index}, {"strategy", strategy},
        {"set", set},           {"passed", t.passed},        {"failed", t.failed},
        {"skipped", t.skipped}, {"failures", t.failures},    {"skip_reasons", t.skip_reasons}};
    std::cout << j.dump() << "\n";
  } else {
    rdx::detail::print("{} {} / {}{}: {} passed, {} failed, {} skipped\n",
                       t.failed ? "FAIL" : "ok  ", dev.name, strategy,
                       set == "operators" ? "" : rdx::detail::format(" ({})", set), t.passed,
                       t.failed, t.skipped);
    for (auto& f : t.failures)
      rdx::detail::print("  mismatch: {}\n", f);
    for (auto& [why, count] : t.skip_reasons)
      rdx::detail::print("  skipped {}: {}\n", count, why);
  }
  total.passed += t.passed;
  total.failed += t.failed;
  total.skipped += t.skipped;
}

}  // namespace

// Every composite on every type at a few sizes up to max_n, with opts (its strategy): a strategy
// that cannot run users' reductions skips them all.
Tally verify_composites(rdx::Context& ctx, const rdx::Options& opts,
                        const std::vector<rdx::Type>& types, std::uint64_t max_n,
                        std::uint64_t seed) {
  Tally t;
  std::vector<std::uint64_t> sizes = {1, 1000, 100003};
  std::erase_if(sizes, [&](std::uint64_t n) { return n > std::max<std::uint64_t>(max_n, 1); });
  for (rdx::Type type : types) {
    for (rdx::Stat s : rdx::kAllStats) {
      for (std::uint64_t n : sizes) {
        const std::string what =
            rdx::detail::format("{} {} {} n={}", opts.strategy, rdx::name(s), rdx::name(type), n);
        t.check(what, [&] { return rdx::check_stat(ctx, s, type, n, seed + n, opts); });
      }
    }
  }
  return t;
}

// Every built-in operator in `ops` that has a matching transform, on every type, as a user's
// reduction (rdx::check_transform) at a few sizes up to max_n, with opts (its strategy).
Tally verify_transforms(rdx::Context& ctx, const rdx::Options& opts,
                        const std::vector<rdx::Type>& types, const std::vector<rdx::Op>& ops,
                        std::uint64_t max_n, std::uint64_t seed) {
  Tally t;
  std::vector<std::uint64_t> sizes = {1, 1000, 100003};
  std::erase_if(sizes, [&](std::uint64_t n) { return n > std::max<std::uint64_t>(max_n, 1); });
  for (rdx::Type type : types)
    for (rdx::Op op : ops) {
      if (!rdx::transform_matches_builtin(op, type)) continue;
      for (std::uint64_t n : sizes) {
        const std::string what = rdx::detail::format("{} {} as a map {} n={}", opts.strategy,
                                                     rdx::name(op), rdx::name(type), n);
        t.check(what, [&] { return rdx::check_transform(ctx, op, type, n, seed + n, opts); });
      }
    }
  return t;
}

// Segmented reductions (rdx/segmented.hpp): every type and operator in the lists on the offsets
// of rdx::segment_layouts, every axis of rdx::axis_shapes, and the first and last axes at once of
// their 3-D and 4-D shapes with the first reversed, against each segment's reference.
Tally verify_segmented(rdx::Context& ctx, std::size_t wg, const std::vector<rdx::Type>& types,
                       const std::vector<rdx::Op>& ops, std::uint64_t seed) {
  Tally t;
  const auto layouts = rdx::segment_layouts(wg, seed);
  for (rdx::Type type : types)
    for (rdx::Op op : ops) {
      if (!rdx::op_allows(op, type)) continue;
      for (const auto& off : layouts) {
        const std::string what =
            rdx::detail::format("segmented {} {} segments={} n={}", rdx::name(op), rdx::name(type),
                                off.size() - 1, off.back());
        t.check(what, [&] {
          const auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, off.back(), seed);
          const auto r = rdx::reduce_segments(ctx, type, data.data(), off.back(), off, op);
          return rdx::check_segments(r, data.data(), off);
        });
      }
      for (const auto& shape : rdx::axis_shapes()) {
        std::uint64_t n = 1;
        for (std::uint64_t d : shape)
          n *= d;
        const auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, n, seed);
        for (std::size_t axis = 0; axis < shape.size(); ++axis) {
          const std::string what = rdx::detail::format(
              "axis {} of {} {} {}", axis, fmt::join(shape, "x"), rdx::name(op), rdx::name(type));
          t.check(what, [&] {
            const auto r = rdx::reduce_axis(ctx, type, data.data(), shape, axis, op);
            return rdx::check_axis(r, data.data(), shape, axis);
          });
        }
        // 3-D and 4-D: the first and the last axis at once, with the first reversed (NumPy's
        // a[::-1]): the view form, a negative stride and an offset.
        if (shape.size() < 3) continue;
        rdx::View v = rdx::View::contiguous(shape);
        v.strides.assign(shape.size(), 1);
        for (std::size_t k = shape.size(); k-- > 1;)
          v.strides[k - 1] = v.strides[k] * static_cast<std::int64_t>(shape[k]);
        if (shape[0] > 0) v.offset = (shape[0] - 1) * static_cast<std::uint64_t>(v.strides[0]);
        v.strides[0] = -v.strides[0];
        const std::int64_t ends[] = {0, -1};
        t.check(rdx::detail::format("axes 0,-1 of {} reversed {} {}", fmt::join(shape, "x"),
                                    rdx::name(op), rdx::name(type)),
                [&] {
                  const auto r = rdx::reduce_axes(ctx, type, data.data(), v, ends, op);
                  return rdx::check_axes(r, data.data(), v, ends);
                });
      }
    }
  return t;
}

int cmd_verify(const VerifyArgs& a) {
  const auto devices = pick_devices(a.device);
  const auto names = pick_strategies(a.strategy);
  const std::uint64_t max_n = a.quick ? (1 << 17) : parse_count(a.max_n);
  const std::uint64_t seed = parse_count(a.seed);
  const std::vector<rdx::Type> types = parse_type_list(a.types);
  const std::vector<rdx::Op> ops = parse_op_list(a.ops);
  Tally total;
  for (const auto& dev : devices) {
    rdx::Context ctx(std::to_string(dev.index));
    rdx::Options generic;  // case sizes around the usual work-group size, whatever auto runs
    generic.strategy = rdx::kBaselineStrategy;
    const std::size_t wg =
        rdx::make_plan(dev, rdx::Type::I32, rdx::Op::Sum, 1, generic).work_group_size;
    std::vector<rdx::Case> cases;
    for (const rdx::Case& c : rdx::verify_cases(wg, true, max_n, seed))
      if (std::find(types.begin(), types.end(), c.type) != types.end() &&
          std::find(ops.begin(), ops.end(), c.op) != ops.end())
        cases.push_back(c);
    for (const auto& strategy : names) {
      Tally t;
      rdx::Options opts;
      opts.strategy = strategy;
      std::cerr << rdx::detail::format("verify: {} / {}: {} cases\n", dev.name, strategy,
                                       cases.size());
      for (const auto& c : cases) {
        const auto data = rdx::make_case_data(c.type, c.op, c.pattern, c.n, c.seed);
        const std::string what = rdx::detail::format("{} {} {} n={} {}", strategy, rdx::name(c.op),
                                                     rdx::name(c.type), c.n, rdx::name(c.pattern));
        // Only argmin/argmax of empty input is expected to refuse (an ArgumentError).
        t.check(
            what,
            [&] {
              const rdx::Result r = rdx::reduce(ctx, c.type, data.data(), c.n, c.op, opts);
              if (c.n == 0)
                return r.value == rdx::result_value(c.op, c.type, rdx::identity(c.op, r.plan.acc))
                           ? std::string()
                           : std::string("empty input: not the identity");
              const auto ref = rdx::reference_reduce(c.type, r.plan.acc, c.op, data.data(), c.n);
              return rdx::check_result(r.plan, r.value, r.index, ref);
            },
            c.n == 0 && rdx::is_index_op(c.op));
      }
      report(dev, strategy, "operators", t, a.json, total);
      // The operators as users' reductions (rdx/custom.hpp), and with --ops all the composites
      // (rdx/stats.hpp), on this strategy.
      report(dev, strategy, "maps", verify_transforms(ctx, opts, types, ops, max_n, seed), a.json,
             total);
      if (a.ops == "all")
        report(dev, strategy, "composites", verify_composites(ctx, opts, types, max_n, seed),
               a.json, total);
    }
    // Segmented reductions choose their own form: with auto (or all), once per device.
    if (a.strategy == "all" || a.strategy == "auto")
      report(dev, "auto", "segmented", verify_segmented(ctx, wg, types, ops, seed), a.json, total);
  }
  if (!a.json)
    rdx::detail::print("verify: {} passed, {} failed, {} skipped\n", total.passed, total.failed,
                       total.skipped);
  return total.failed ? 1 : 0;
}

}  // namespace clrdx
