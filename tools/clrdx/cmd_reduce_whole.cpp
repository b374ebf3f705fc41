// `clrdx reduce` for what reduces whole inputs at once: composites (--op minmax, mean, ...),
// transform-reduce (--map with a built-in operator) and custom reductions (--combine,
// --identity), over one to four arrays of the same length. Regular files are mapped, not read
// into memory (the library copies them to the device chunk by chunk); pipes are read whole.
#include "core/format.hpp"
#include "core/text.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "whole_input.hpp"

namespace clrdx {

std::vector<Loaded> load_inputs(const ReduceArgs& a, const ReduceRequest& req) {
  std::vector<Loaded> in;
  if (!a.input.empty()) {
    in.push_back(load_file(a.input, req.type));
    for (int k = 0; k < 3; ++k) {
      const std::string& p = a.inputs[k];
      if (p.empty()) continue;
      // A raw file takes the first input's type; a .npy file's own type must agree with it.
      in.push_back(load_file(p, req.type.value_or(in[0].type), /*raw_default=*/!req.type));
      if (in.back().type != in[0].type)
        throw rdx::ArgumentError(rdx::detail::format(
            "--input{} {} holds {} elements but --input {} holds {}: the inputs are "
            "of one type",
            k + 2, rdx::detail::printable(p), rdx::name(in.back().type),
            rdx::detail::printable(a.input), rdx::name(in[0].type)));
    }
  } else {
    const rdx::Type t = *req.type;
    const std::uint64_t n = parse_count(a.count, "--count"), seed = parse_count(a.seed, "--seed");
    for (std::uint64_t k = 0; k < (req.stat == rdx::Stat::Dot ? 2u : 1u); ++k) {
      Loaded l(t);  // dot: a second array from the next seed
      l.owned = rdx::generate(t, a.generate, n, seed + k);
      l.bytes = l.owned.size();
      in.push_back(std::move(l));
    }
  }
  const std::uint64_t n = in[0].count();
  for (std::size_t k = 0; k < in.size(); ++k)
    if (in[k].count() != n)
      throw rdx::ArgumentError(rdx::detail::format(
          "the inputs differ in length: {} has {} elements, "
          "the first {}",
          k == 0 ? "--input" : rdx::detail::format("--input{}", k + 1), in[k].count(), n));
  return in;
}

std::vector<rdx::Array> arrays_of(const std::vector<Loaded>& in) {
  std::vector<rdx::Array> arrays;
  for (const Loaded& l : in)
    arrays.push_back({l.type, l.data()});
  return arrays;
}

rdx::Reduction reduction_of(const ReduceArgs& a, const ReduceRequest& req, rdx::Type first) {
  const rdx::Type acc = req.opts.acc.value_or(first);
  return req.custom
             ? rdx::Reduction::simple(acc, a.combine, a.identity, a.map.empty() ? "x" : a.map)
             : rdx::Reduction::transform(req.op, acc, a.map);
}

int cmd_reduce_whole(const ReduceArgs& a, const ReduceRequest& req) {
  const std::vector<Loaded> in = load_inputs(a, req);
  const std::uint64_t n = in[0].count();
  const std::vector<rdx::Array> arrays = arrays_of(in);

  rdx::Context ctx(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  rdx::StatResult r;
  std::string what;
  if (req.stat) {
    r = rdx::reduce(ctx, *req.stat, arrays, n, req.opts, a.map);
    what = rdx::name(*req.stat);
  } else {
    const rdx::StateResult s =
        rdx::reduce(ctx, reduction_of(a, req, in[0].type), arrays, n, req.opts);
    r.value = s.fields.at(0);
    r.plan = s.plan;
    what = req.custom ? "custom" : std::string(rdx::name(req.op));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const bool logical = req.stat && rdx::is_logical(*req.stat);  // any, all: a bool
  const bool minmax = req.stat == rdx::Stat::MinMax;
  if (a.json) {
    nlohmann::json j = {
        {"device", ctx.device_info().name},
        {"strategy", r.plan.strategy},
        {"type", std::string(rdx::name(in[0].type))},
        // minmax gives elements in their type and compares them in their computed one
        {"acc",
         logical ? std::string("bool")
                 : std::string(rdx::name(minmax ? rdx::computed_type(in[0].type) : r.value.type))},
        {"op", what},
        {"count", n},
        {"result", to_json(r.value, logical)},
        {"index", nullptr},
        {"work_group_size", r.plan.work_group_size},
        {"seconds", seconds}};
    if (!a.map.empty()) j["map"] = a.map;
    if (r.index) j["index"] = *r.index;
    // The exact bits of a float result: a hexadecimal float (C's %a), as reduce's.
    if (rdx::is_float(r.value.type)) j["hex"] = hex_float(r.value);
    if (r.max) {
      j["max"] = to_json(*r.max);
      j["max_index"] = *r.max_index;
    }
    std::cout << j.dump() << "\n";
  } else if (r.max) {
    rdx::detail::print("{} {} {} {}\n", r.value.to_string(), *r.index, r.max->to_string(),
                       *r.max_index);
  } else {
    rdx::detail::print("{}\n", to_text(r.value, logical));
  }
  return 0;
}

}  // namespace clrdx
