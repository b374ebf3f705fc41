// `clrdx reduce` for what reads whole inputs into memory: composites (--op minmax, mean, ...),
// transform-reduce (--map with a built-in operator) and custom reductions (--combine,
// --identity), over one to four arrays of the same length.
#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <vector>

#include "commands.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

namespace clrdx {
namespace {

struct Loaded {
  rdx::Type type;
  std::vector<unsigned char> bytes;
  std::uint64_t count() const { return bytes.size() / rdx::size_of(type); }
};

Loaded load_file(const std::string& path, std::optional<rdx::Type> type) {
  InputFile f = open_input(path, type);
  Loaded l{f.type, std::vector<unsigned char>(f.head.begin(), f.head.end())};
  constexpr std::size_t kStep = std::size_t{16} << 20;
  for (;;) {
    const std::size_t at = l.bytes.size();
    l.bytes.resize(at + kStep);
    const std::size_t got = read_full(f.fd, l.bytes.data() + at, kStep, path);
    l.bytes.resize(at + got);
    if (got < kStep) break;
  }
  f.check_data_size(l.bytes.size());
  return l;
}

}  // namespace

int cmd_reduce_whole(const ReduceArgs& a, const ReduceRequest& req) {
  std::vector<Loaded> in;
  if (!a.input.empty()) {
    in.push_back(load_file(a.input, req.type));
    for (const std::string& p : a.inputs)
      if (!p.empty()) in.push_back(load_file(p, in[0].type));
  } else {
    const rdx::Type t = *req.type;
    const std::uint64_t n = parse_count(a.count, "--count"), seed = parse_count(a.seed, "--seed");
    in.push_back({t, rdx::generate(t, a.generate, n, seed)});
    if (req.stat == rdx::Stat::Dot)  // a second array from the next seed
      in.push_back({t, rdx::generate(t, a.generate, n, seed + 1)});
  }
  const std::uint64_t n = in[0].count();
  std::vector<rdx::Array> arrays;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k].count() != n)
      throw rdx::ArgumentError(
          fmt::format("the inputs differ in length: {} has {} elements, "
                      "the first {}",
                      k == 0 ? "--input" : fmt::format("--input{}", k + 1), in[k].count(), n));
    arrays.push_back({in[k].type, in[k].bytes.data()});
  }

  rdx::Context ctx(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  rdx::StatResult r;
  std::string what;
  if (req.stat) {
    r = rdx::reduce(ctx, *req.stat, arrays, n, req.opts, a.map);
    what = rdx::name(*req.stat);
  } else {
    const rdx::Type acc = req.opts.acc.value_or(in[0].type);
    const rdx::Reduction red =
        req.custom ? rdx::Reduction::simple(acc, a.combine, a.identity, a.map.empty() ? "x" : a.map)
                   : rdx::Reduction::transform(req.op, acc, a.map);
    const rdx::StateResult s = rdx::reduce(ctx, red, arrays, n, req.opts);
    r.value = s.fields.at(0);
    r.plan = s.plan;
    what = req.custom ? "custom" : std::string(rdx::name(req.op));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (a.json) {
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"strategy", r.plan.strategy},
                        {"type", std::string(rdx::name(in[0].type))},
                        {"acc", std::string(rdx::name(r.value.type))},
                        {"op", what},
                        {"count", n},
                        {"result", to_json(r.value)},
                        {"index", nullptr},
                        {"work_group_size", r.plan.work_group_size},
                        {"seconds", seconds}};
    if (!a.map.empty()) j["map"] = a.map;
    if (r.index) j["index"] = *r.index;
    if (r.max) {
      j["max"] = to_json(*r.max);
      j["max_index"] = *r.max_index;
    }
    std::cout << j.dump() << "\n";
  } else if (r.max) {
    fmt::print("{} {} {} {}\n", r.value.to_string(), *r.index, r.max->to_string(), *r.max_index);
  } else {
    fmt::print("{}\n", r.value.to_string());
  }
  return 0;
}

}  // namespace clrdx
