// Every strategy x type x operator x size (the shared case table) against the host reference,
// on the device named by RDX_DEVICE (default: cpu, i.e. PoCL).
//   RDX_TEST_SHARD=i/N      run shard i of N (strategies dealt by their number of pairs)
//   RDX_TEST_MATRIX=full|covering|barriers   the (type, operator) pairs per strategy
//                           (rdx::test::Coverage, tests/coverage.hpp; default covering)
//   RDX_TEST_MAX_N          largest random size (default 4Mi = 2^22)
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "coverage.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

using namespace rdx;
using rdx::test::Coverage;
using rdx::test::pair_in_matrix;

namespace {

std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

Coverage matrix() {
  const std::string m = env("RDX_TEST_MATRIX", "covering");
  if (m == "full") return Coverage::Full;
  if (m == "barriers") return Coverage::Barriers;
  REQUIRE_MESSAGE(m == "covering", "RDX_TEST_MATRIX is full, covering or barriers, not ", m);
  return Coverage::Covering;
}

// The strategies of shard i of N: kernel builds (one per pair) dominate the time, so strategies
// are dealt heaviest first, each to the shard with the fewest pairs so far.
std::vector<bool> shard_members(Coverage coverage) {
  const std::string shard = env("RDX_TEST_SHARD", "0/1");
  const auto slash = shard.find('/');
  const std::size_t i = std::stoul(shard.substr(0, slash)), n = std::stoul(shard.substr(slash + 1));
  const auto all = strategies();
  std::vector<std::pair<std::size_t, std::size_t>> weight;  // (pairs, position)
  for (std::size_t pos = 0; pos < all.size(); ++pos) {
    std::size_t pairs = 0;
    for (Type t : kAllTypes)
      for (Op op : kAllOps)
        pairs += pair_in_matrix(coverage, all[pos].name, pos, t, op);
    weight.push_back({pairs, pos});
  }
  std::stable_sort(weight.begin(), weight.end(),
                   [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<std::size_t> load(n, 0);
  std::vector<bool> mine(all.size(), false);
  for (auto [pairs, pos] : weight) {
    const std::size_t to = std::min_element(load.begin(), load.end()) - load.begin();
    load[to] += pairs;
    mine[pos] = to == i;
  }
  return mine;
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
  const Coverage coverage = matrix();
  const std::vector<bool> mine = shard_members(coverage);
  for (std::size_t pos = 0; pos < all.size(); ++pos) {
    if (!mine[pos]) continue;
    const std::string strategy(all[pos].name);
    Options opts;
    opts.strategy = strategy;
    std::map<std::string, int> skipped;
    std::size_t checked = 0;
    for (const auto& c : cases) {
      if (!pair_in_matrix(coverage, strategy, pos, c.type, c.op)) continue;
      const auto data = make_case_data(c.type, c.op, c.pattern, c.n, c.seed);
      const std::string what = rdx::detail::format("{} {} {} n={} {}", strategy, name(c.op),
                                                   name(c.type), c.n, name(c.pattern));
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
            // The identity, in the result's type (an f16's min: an f16 infinity).
            CHECK(reduce(ctx, c.type, buf, 0, c.op, opts).value ==
                  result_value(c.op, c.type, identity(c.op, computed_type(c.type))));
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
    MESSAGE(rdx::detail::format("{}: {} cases checked on {}", strategy, checked,
                                ctx.device_info().name));
    for (auto& [why, count] : skipped)
      MESSAGE(rdx::detail::format("{}: {} SKIPPED: {}", strategy, count, why));
    CHECK_MESSAGE(checked > 0, strategy, ": no case ran");
  }
}
