#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "commands.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/verify.hpp"

namespace clrdx {

int cmd_reduce(const ReduceArgs& a) {
  const rdx::Op op = rdx::parse_op(a.op);
  std::optional<rdx::Type> type;
  if (!a.type.empty()) type = rdx::parse_type(a.type);
  rdx::Options opts;
  opts.strategy = a.strategy;
  opts.work_group_size = a.wg;
  if (!a.acc.empty()) opts.acc = rdx::parse_type(a.acc);

  LoadedInput in;
  if (!a.input.empty()) {
    in = load_input(a.input, type);
  } else if (!a.generate.empty()) {
    if (!type) throw rdx::ArgumentError("--generate needs --type");
    if (a.count.empty()) throw rdx::ArgumentError("--generate needs --count");
    in.type = *type;
    in.count = parse_count(a.count);
    in.data = rdx::generate(in.type, a.generate, in.count, parse_count(a.seed));
  } else {
    throw rdx::ArgumentError("give --input FILE or --generate PATTERN --count N");
  }

  rdx::Context ctx(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  const rdx::Result r = rdx::reduce(ctx, in.type, in.data.data(), in.count, op, opts);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (a.json) {
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"strategy", r.plan.strategy},
                        {"type", std::string(rdx::name(in.type))},
                        {"acc", std::string(rdx::name(r.plan.acc))},
                        {"op", std::string(rdx::name(op))},
                        {"count", in.count},
                        {"result", to_json(r.value)},
                        {"work_group_size", r.plan.work_group_size},
                        {"seconds", seconds}};
    if (r.index) j["index"] = *r.index;
    std::cout << j.dump() << "\n";
  } else if (r.index) {
    fmt::print("{} {}\n", r.value.to_string(), *r.index);
  } else {
    fmt::print("{}\n", r.value.to_string());
  }
  return 0;
}

}  // namespace clrdx
