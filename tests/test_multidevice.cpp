// One reduction over several devices (rdx/multi.hpp): the parts' results combined in device order
// give what one device gives (integers, min, max, argmin/argmax's global first index, and float
// sums under AnyDevice and Exact bit for bit) whatever the shares and the empty parts, from host
// data and from shards; and the device lists. ctest `multidevice` runs these with two PoCL
// devices (POCL_DEVICES="pthread pthread"); elsewhere the group is two Contexts of one device.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

// Two contexts: two CPU devices where there are, else two of the test device.
struct Pair {
  std::unique_ptr<rdx::Context> a, b;
  Pair() {
    std::vector<rdx::DeviceInfo> cpus;
    for (const rdx::DeviceInfo& d : rdx::list_devices())
      if (d.kind == rdx::DeviceKind::CPU) cpus.push_back(d);
    const bool two = cpus.size() >= 2 && rdx_test::device() == "cpu";
    a = std::make_unique<rdx::Context>(two ? std::to_string(cpus[0].index) : rdx_test::device());
    b = std::make_unique<rdx::Context>(two ? std::to_string(cpus[1].index) : rdx_test::device());
  }
};

Pair& pair() {
  static Pair p;
  return p;
}

rdx::DeviceGroup group() {
  return rdx::DeviceGroup(std::vector<rdx::Context*>{pair().a.get(), pair().b.get()});
}

template <class T>
rdx::Result one(const std::vector<T>& x, rdx::Op op, const rdx::Options& o = {}) {
  return rdx::reduce(*pair().a, rdx::type_of<T>(), x.data(), x.size(), op, o);
}

template <class T>
rdx::GroupResult two(rdx::DeviceGroup& g, const std::vector<T>& x, rdx::Op op,
                     const rdx::Options& o = {}) {
  return rdx::reduce(g, rdx::type_of<T>(), x.data(), x.size(), op, o);
}

}  // namespace

TEST_CASE("group: host data gives one device's integers, extremes and global first indexes") {
  std::mt19937 gen(3);
  std::vector<std::int32_t> x(100003);
  for (auto& v : x)
    v = static_cast<std::int32_t>(gen() % 2001) - 1000;
  // The minimum and maximum occur on both sides of every split below: the first must win.
  x[10] = x[99990] = -5000;
  x[50001] = x[7] = 5000;
  rdx::DeviceGroup g = group();
  for (const std::vector<double>& w :
       {std::vector<double>{1, 1}, std::vector<double>{9, 1}, std::vector<double>{1, 1e-9}}) {
    g.set_shares(w);
    INFO("shares " << w[0] << ":" << w[1]);
    for (rdx::Op op : {rdx::Op::Sum, rdx::Op::Min, rdx::Op::Max, rdx::Op::Xor, rdx::Op::ArgMin,
                       rdx::Op::ArgMax}) {
      const rdx::Result want = one(x, op);
      const rdx::GroupResult got = two(g, x, op);
      CHECK(got.value.bits == want.value.bits);
      CHECK(got.index == want.index);
    }
  }
  g.set_shares(std::vector<double>{1, 1});
  const rdx::GroupResult r = two(g, x, rdx::Op::ArgMin);
  CHECK(*r.index == 10);
  REQUIRE(r.parts.size() == 2);
  CHECK(r.parts[1].first == r.parts[0].n);
  CHECK(r.parts[0].n + r.parts[1].n == x.size());
  // Fewer elements than devices: one part; none: the identity.
  const std::vector<std::int32_t> single = {42};
  CHECK(two(g, single, rdx::Op::Sum).parts.size() == 1);
  CHECK(two(g, single, rdx::Op::Sum).value.as<std::int32_t>() == 42);
  const std::vector<std::int32_t> none;
  CHECK(two(g, none, rdx::Op::Sum).value.as<std::int32_t>() == 0);
  CHECK(two(g, none, rdx::Op::Sum).parts.empty());
}

TEST_CASE("group: float sums under AnyDevice and Exact are one device's bits") {
  std::mt19937_64 gen(4);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<float> x(200001);
  for (auto& v : x)
    v = static_cast<float>(std::ldexp(u(gen), static_cast<int>(gen() % 60) - 30));
  x[5] = 1e30f;
  x[150000] = -1e30f;
  rdx::DeviceGroup g = group();
  for (rdx::Determinism d : {rdx::Determinism::AnyDevice, rdx::Determinism::Exact}) {
    rdx::Options o;
    o.determinism = d;
    const rdx::Result want = one(x, rdx::Op::Sum, o);
    for (double w : {1.0, 3.0, 1e-6}) {
      g.set_shares(std::vector<double>{1, w});
      const rdx::GroupResult got = two(g, x, rdx::Op::Sum, o);
      CHECK(got.value.bits == want.value.bits);
      CHECK(got.parts.at(0).result.plan.strategy ==
            (d == rdx::Determinism::AnyDevice ? "binned_sum" : "exact_sum"));
    }
  }
  // run_to_run: the rounded parts' sum, within the bound of the parts' depths.
  g.set_shares(std::vector<double>{1, 1});
  const rdx::GroupResult plain = two(g, x, rdx::Op::Sum);
  double abs_sum = 0;
  for (float v : x)
    abs_sum += std::fabs(v);
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  CHECK(std::fabs(plain.value.as<float>() - one(x, rdx::Op::Sum, exact).value.as<float>()) <=
        abs_sum * 1e-3);
  // Float products are refused.
  CHECK_THROWS_AS(two(g, x, rdx::Op::Prod), rdx::UnsupportedError);
}

TEST_CASE("group: shards on their devices") {
  std::vector<double> x(30000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<double>((i * 7919) % 1000) * 0.001 - 0.4;
  x[25000] = 9;  // the maximum in the second shard
  x[3] = 9;      // and first in the first
  rdx::DeviceGroup g = group();
  if (!pair().a->device_info().fp64 || !pair().b->device_info().fp64)
    FAIL("a device of the pair has no fp64 (the shards are f64): this test checked nothing");
  cl_int err = CL_SUCCESS;
  const cl_mem_flags copy = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  const rdx::Shard shards[] = {
      {cl::Buffer(pair().a->cl_context(), copy, 20000 * 8, x.data(), &err), 20000},
      {cl::Buffer(pair().b->cl_context(), copy, 10000 * 8, x.data() + 20000, &err), 10000}};
  REQUIRE(err == CL_SUCCESS);
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  CHECK(rdx::reduce(g, rdx::Type::F64, shards, rdx::Op::Sum, o).value.bits ==
        one(x, rdx::Op::Sum, o).value.bits);
  const rdx::GroupResult m = rdx::reduce(g, rdx::Type::F64, shards, rdx::Op::ArgMax);
  CHECK(*m.index == 3);
  CHECK(m.value.as<double>() == 9);
  CHECK_THROWS_AS(rdx::reduce(g, rdx::Type::F64, std::span(shards, 1), rdx::Op::Sum),
                  rdx::ArgumentError);
  // Enqueued from one thread (auto, fast_*: dispatch/partial_later.hpp), or each part on a thread
  // of its own (topdown): the same global first index, and the same integers.
  std::vector<std::int32_t> ints(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    ints[i] = static_cast<std::int32_t>(x[i] * 1000);
  const rdx::Shard int_shards[] = {
      {cl::Buffer(pair().a->cl_context(), copy, 20000 * 4, ints.data(), &err), 20000},
      {cl::Buffer(pair().b->cl_context(), copy, 10000 * 4, ints.data() + 20000, &err), 10000}};
  REQUIRE(err == CL_SUCCESS);
  for (const char* strategy : {"auto", "fast_strided", "fast_blocked", "topdown"}) {
    CAPTURE(strategy);
    rdx::Options s;
    s.strategy = strategy;
    const rdx::GroupResult a = rdx::reduce(g, rdx::Type::F64, shards, rdx::Op::ArgMax, s);
    CHECK(*a.index == 3);
    CHECK(a.value.as<double>() == 9);
    CHECK(a.parts.at(1).result.index == 5000);  // within its part
    const rdx::GroupResult sum = rdx::reduce(g, rdx::Type::I32, int_shards, rdx::Op::Sum, s);
    CHECK(sum.value.bits == one(ints, rdx::Op::Sum).value.bits);
    CHECK(sum.parts.at(0).result.plan.strategy == (std::string(strategy) == "auto"
                                                       ? one(ints, rdx::Op::Sum).plan.strategy
                                                       : std::string(strategy)));
  }
  // Shards at element offsets: the second shard's buffer holds the whole input, read from 20000.
  const rdx::Shard at[] = {
      shards[0],
      {cl::Buffer(pair().b->cl_context(), copy, x.size() * 8, x.data(), &err), 10000, 20000}};
  REQUIRE(err == CL_SUCCESS);
  CHECK(rdx::reduce(g, rdx::Type::F64, at, rdx::Op::Sum, o).value.bits ==
        one(x, rdx::Op::Sum, o).value.bits);
  const rdx::Shard past[] = {shards[0], {at[1].buffer, 10000, 20001}};
  CHECK_THROWS_AS(rdx::reduce(g, rdx::Type::F64, past, rdx::Op::Sum), rdx::ArgumentError);
}

TEST_CASE("group: device lists") {
  const std::vector<rdx::DeviceInfo> all = rdx::list_devices();
  REQUIRE_FALSE(all.empty());
  CHECK(rdx::select_devices(all, "all").size() == all.size());
  CHECK(rdx::select_devices(all, "0").at(0).index == 0);
  CHECK_THROWS_AS(rdx::select_devices(all, "0,0"), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::select_devices(all, "0,"), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::select_devices(all, "accelerator:all"), rdx::DeviceError);
  CHECK(rdx::is_device_list("gpu:all"));
  CHECK(rdx::is_device_list("0, 1"));
  CHECK(rdx::is_device_list("ALL"));
  CHECK_FALSE(rdx::is_device_list("cpu"));
  CHECK_FALSE(rdx::is_device_list("0:1"));
  std::size_t cpus = 0;
  for (const rdx::DeviceInfo& d : all)
    cpus += d.kind == rdx::DeviceKind::CPU;
  if (cpus) CHECK(rdx::select_devices(all, "cpu:all").size() == cpus);
  CHECK_THROWS_AS(rdx::DeviceGroup(std::vector<rdx::Context*>{pair().a.get(), pair().a.get()}),
                  rdx::ArgumentError);
  rdx::DeviceGroup g = group();
  CHECK_THROWS_AS(g.set_shares(std::vector<double>{1, 0}), rdx::ArgumentError);
  CHECK_THROWS_AS(g.set_shares(std::vector<double>{1}), rdx::ArgumentError);
}

TEST_CASE("group: shares from weights of any finite magnitude") {
  rdx::DeviceGroup g = group();
  const double top = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  // Each case: the weights and the shares they make (each weight over their sum, in exact
  // arithmetic: the sum's overflow must not reach them).
  const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
      {{top, top}, {0.5, 0.5}},
      {{top, top / 3}, {0.75, 0.25}},
      {{tiny, tiny}, {0.5, 0.5}},
      {{3 * tiny, tiny}, {0.75, 0.25}},
      {{1e300, 3e300}, {0.25, 0.75}}};
  for (const auto& c : cases) {
    const std::vector<double>& w = c.first;
    const std::vector<double>& want = c.second;
    g.set_shares(w);
    INFO(w[0], " ", w[1]);
    CHECK(g.shares()[0] == doctest::Approx(want[0]).epsilon(1e-15));
    CHECK(g.shares()[1] == doctest::Approx(want[1]).epsilon(1e-15));
    CHECK(g.shares()[0] + g.shares()[1] == doctest::Approx(1.0).epsilon(1e-15));
  }
  // The split follows them: both devices take half of the elements.
  g.set_shares(std::vector<double>{top, top});
  std::vector<std::int32_t> x(1001, 3);
  const rdx::GroupResult r = two(g, x, rdx::Op::Sum);
  REQUIRE(r.parts.size() == 2);
  CHECK(r.parts[0].n == 500);
  CHECK(r.value.as<std::int32_t>() == 3003);
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()})
    CHECK_THROWS_AS(g.set_shares(std::vector<double>{top, bad}), rdx::ArgumentError);
}
