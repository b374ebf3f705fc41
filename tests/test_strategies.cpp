// Every strategy x type x operator x size (the shared case table) against the host reference,
// on the device named by RDX_DEVICE (default: cpu, i.e. PoCL).
//   RDX_TEST_SHARD=i/N      run the strategies whose position modulo N is i
//   RDX_TEST_TYPES=reduced  only i32 and f32 (for the second PoCL work-group method: barriers
//                           and work-item loops do not depend on the element type)
//   RDX_TEST_MAX_N          largest random size (default 4Mi = 2^22)
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <string>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

using namespace rdx;

namespace {

std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

bool in_shard(std::size_t position) {
  const std::string shard = env("RDX_TEST_SHARD", "0/1");
  const auto slash = shard.find('/');
  const std::size_t i = std::stoul(shard.substr(0, slash)), n = std::stoul(shard.substr(slash + 1));
  return position % n == i;
}

bool type_selected(Type t) {
  if (env("RDX_TEST_TYPES", "all") != "reduced") return true;
  return t == Type::I32 || t == Type::F32;
}

}  // namespace

TEST_CASE("every strategy matches the host reference, and never writes its input") {
  Context ctx(env("RDX_DEVICE", "cpu"));
  const std::uint64_t max_n = std::stoull(env("RDX_TEST_MAX_N", "4194304"));
  Options generic;  // case sizes around the usual work-group size, whatever auto runs
  generic.strategy = "localtree";
  const std::size_t wg =
      make_plan(ctx.device_info(), Type::I32, Op::Sum, 1, generic).work_group_size;
  const auto cases = verify_cases(wg, ctx.device_info().fp64, max_n, 20261122);
  const auto all = strategies();
  for (std::size_t pos = 0; pos < all.size(); ++pos) {
    if (!in_shard(pos)) continue;
    const std::string strategy(all[pos].name);
    Options opts;
    opts.strategy = strategy;
    std::map<std::string, int> skipped;
    std::size_t checked = 0;
    for (const auto& c : cases) {
      if (!type_selected(c.type)) continue;
      const auto data = make_case_data(c.type, c.op, c.pattern, c.n, c.seed);
      const std::string what =
          fmt::format("{} {} {} n={} {}", strategy, name(c.op), name(c.type), c.n, name(c.pattern));
      CAPTURE(what);
      // Device-resident input: the strategy must leave the buffer exactly as it found it.
      cl_int err = CL_SUCCESS;
      cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_WRITE, std::max<std::size_t>(data.size(), 1),
                     nullptr, &err);
      REQUIRE(err == CL_SUCCESS);
      if (!data.empty())
        REQUIRE(ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, data.size(), data.data()) ==
                CL_SUCCESS);
      try {
        if (c.n == 0) {
          if (is_index_op(c.op)) {
            CHECK_THROWS_AS(reduce(ctx, c.type, buf, 0, c.op, opts), ArgumentError);
          } else {
            CHECK(reduce(ctx, c.type, buf, 0, c.op, opts).value == identity(c.op, c.type));
          }
          ++checked;
          continue;
        }
        const Result r = reduce(ctx, c.type, buf, c.n, c.op, opts);
        const auto ref = reference_reduce(c.type, c.type, c.op, data.data(), c.n);
        CHECK_MESSAGE(check_result(r.plan, r.value, r.index, ref) == "", what);
        std::vector<unsigned char> after(data.size());
        REQUIRE(ctx.queue().enqueueReadBuffer(buf, CL_TRUE, 0, after.size(), after.data()) ==
                CL_SUCCESS);
        CHECK_MESSAGE(after == data, what, ": input buffer modified");
        ++checked;
      } catch (const UnsupportedError& e) {
        ++skipped[e.what()];  // reported below, never counted as checked
      }
    }
    MESSAGE(fmt::format("{}: {} cases checked on {}", strategy, checked, ctx.device_info().name));
    for (auto& [why, count] : skipped)
      MESSAGE(fmt::format("{}: {} SKIPPED: {}", strategy, count, why));
    CHECK_MESSAGE(checked > 0, strategy, ": no case ran");
  }
}
