// rdx::tune on a real device (PoCL by default): a small search returns entries that name this
// device, hold one of the candidates, and give the reference's result when a call uses them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

using namespace rdx;

TEST_CASE("tune: a small search returns valid entries for this device") {
  Context ctx(rdx_test::device());
  const DeviceInfo& dev = ctx.device_info();
  TuneRequest req;
  req.pairs = {{Type::I32, Op::Sum}};
  req.sizes = {4096};
  req.repeat = 1;
  req.margin = 0;  // any candidate faster at every size is stored: the entry path runs more often
  std::vector<std::string> lines;
  req.log = [&](const std::string& line) { lines.push_back(line); };
  int reported = 0;
  const TuneResult r = tune(ctx, req, TuningTable{}, [&](const TunePairResult& p) {
    ++reported;
    CHECK(p.type == Type::I32);
  });
  CHECK(reported == 1);
  const auto candidates = tune_candidates();
  // The built-in plan's line, then one per candidate that ran.
  REQUIRE(lines.size() >= 2);
  CHECK(lines.size() <= candidates.size() + 1);
  CHECK(lines[0].rfind("tune: i32 sum: built-in ", 0) == 0);
  REQUIRE(r.pairs.size() == 1);
  const TunePairResult& p = r.pairs[0];
  CHECK(p.type == Type::I32);
  CHECK(p.op == Op::Sum);
  CHECK_FALSE(p.summary.empty());
  std::size_t expected = 1;  // the host throughput
  if (p.entry) {
    ++expected;
    const TuneEntry& e = *p.entry;
    CHECK(e.device == dev.name);
    CHECK(e.driver == dev.driver);
    CHECK(e.type == Type::I32);
    CHECK(e.op == Op::Sum);
    CHECK(e.auto_runs == e.strategy);
    bool listed = false;
    for (const TuneCandidate& c : candidates)
      listed = listed || (c.strategy == e.strategy && c.values == e.values);
    CHECK(listed);
    // The entry, used, gives the host reference's result.
    const std::uint64_t n = 100003;
    const auto host = generate(Type::I32, "mod:7", n);
    Options o;
    o.strategy = e.strategy;
    o.tuning = e.values;
    const Result got = reduce(ctx, Type::I32, host.data(), n, Op::Sum, o);
    CHECK(got.plan.strategy == e.strategy);
    CHECK(check_result(got.plan, got.value, got.index,
                       reference_reduce(Type::I32, Type::I32, Op::Sum, host.data(), n)) == "");
  } else {
    CHECK(p.summary.rfind("built-in plan kept", 0) == 0);
  }
  REQUIRE(r.host);
  CHECK(r.host->host_mbps >= 1);
  CHECK(r.host->device == dev.name);
  CHECK(r.host->driver == dev.driver);
  CHECK_FALSE(r.host->type);
  const std::vector<TuneEntry> all = r.entries();
  REQUIRE(all.size() == expected);
  CHECK(all.back().host_mbps == r.host->host_mbps);
}

TEST_CASE("tune: requests it cannot measure are refused") {
  Context ctx(rdx_test::device());
  TuneRequest req;
  req.sizes = {4096};
  req.host_throughput = false;
  req.pairs = {{Type::F32, Op::Xor}};
  CHECK_THROWS_AS(tune(ctx, req, TuningTable{}), ArgumentError);
  req.pairs = {{Type::I32, Op::Sum}};
  req.sizes = {0};
  CHECK_THROWS_AS(tune(ctx, req, TuningTable{}), ArgumentError);
  req.sizes = {ctx.device_info().max_alloc / 4 + 1};
  CHECK_THROWS_AS(tune(ctx, req, TuningTable{}), ArgumentError);
}
