// Reproducible and exact float sums (rdx::Determinism): the results against an exact reference
// (GMP integers: every element scaled by 2^1074) checked by the rounding rule itself (no closer
// neighbour, ties to even, overflow past the largest finite value plus half an ulp), on data made
// to defeat plain sums; and the same bits across work-group sizes, grids, layouts, host chunks,
// device buffers and the two levels.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "exact_reference.hpp"
#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

using rdx_test::add_scaled;
using rdx_test::check_rounded;
using rdx_test::ctx;
using rdx_test::Exact;
using rdx_test::exact_sum;
using rdx_test::fp64;
using rdx_test::hard_cases;

template <class T>
rdx::Result exact(const std::vector<T>& x, rdx::Options o = {}) {
  o.determinism = rdx::Determinism::Exact;
  return rdx::reduce(ctx(), rdx::type_of<T>(), x.data(), x.size(), rdx::Op::Sum, o);
}

// Three ways of accumulating: the device's default, a grid stride straight into the digits (the
// CPUs' default is blocks on one work-item per group; cl/exact_sum.cl), and without the double
// windows.
template <class T, class A>
void check_cases() {
  for (const auto& c : hard_cases<T>(7)) {
    const std::string& name = c.first;  // not a structured binding: INFO captures it (clang 14)
    const std::vector<T>& x = c.second;
    INFO(name << " " << rdx::name(rdx::type_of<T>()) << " into " << rdx::name(rdx::type_of<A>()));
    Exact s;
    exact_sum(s.z, x);
    const bool neg_zero =
        std::all_of(x.begin(), x.end(), [](T v) { return v == 0 && std::signbit(v); });
    rdx::Options plain, stride, no_fold;
    plain.acc = stride.acc = no_fold.acc = rdx::type_of<A>();
    stride.work_group_size = std::min<std::size_t>(64, ctx().device_info().max_work_group);
    stride.tuning.set("blocked", 0);
    no_fold.tuning.set("fold", 0);
    for (const rdx::Options& o : {plain, stride, no_fold}) {
      const rdx::Result r = exact(x, o);
      INFO(r.plan.describe());
      CHECK(r.plan.strategy == "exact_sum");
      CHECK(check_rounded<A>(s.z, r.value.as<A>(), neg_zero) == "");
    }
  }
}

// The bits of a Scalar, for comparisons of NaN too.
std::uint64_t bits(const rdx::Scalar& s) {
  return s.bits;
}

}  // namespace

TEST_CASE("exact sums: correctly rounded against GMP on data that defeats plain sums") {
  check_cases<float, float>();
  if (!fp64()) return;
  check_cases<float, double>();
  check_cases<double, double>();
}

TEST_CASE("exact sums: NaN, infinities and empty inputs") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  CHECK(std::isnan(exact(std::vector<float>{1, nan, 2}).value.as<float>()));
  CHECK(std::isnan(exact(std::vector<float>{inf, -inf}).value.as<float>()));
  CHECK(exact(std::vector<float>{inf, 1e30f, inf}).value.as<float>() == inf);
  CHECK(exact(std::vector<float>{-inf, 3e38f, 3e38f}).value.as<float>() == -inf);
  CHECK(exact(std::vector<float>{3e38f, 3e38f}).value.as<float>() == inf);  // overflow
  const rdx::Result empty = exact(std::vector<float>{});
  CHECK(empty.value.as<float>() == 0);
  CHECK_FALSE(std::signbit(empty.value.as<float>()));
}

TEST_CASE("exact sums: the same bits across grids, work-group sizes, chunks and levels") {
  std::mt19937_64 g(11);
  std::vector<float> x(300001);
  // The first half narrow enough for the double windows, the rest too wide for them.
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(
        std::ldexp(double(g() % 100000) - 50000, int(g() % (i < 150000 ? 6 : 60)) - 30));
  std::vector<double> y(x.begin(), x.end());
  for (double& v : y)
    v *= 1 + std::ldexp(1.0, -40);
  const rdx::Result want = exact(x);
  const rdx::Result want64 = fp64() ? exact(y) : want;
  const auto same = [&](rdx::Options o, const char* what) {
    INFO(what);
    CHECK(bits(exact(x, o).value) == bits(want.value));
    if (fp64()) CHECK(bits(exact(y, o).value) == bits(want64.value));
  };
  for (std::size_t wg : {16, 64, 256}) {
    if (wg > ctx().device_info().max_work_group) continue;
    rdx::Options o;
    o.work_group_size = wg;
    same(o, "work-group size");
  }
  for (int groups : {1, 3, 64}) {
    for (int blocked : {0, 1}) {
      for (int fold : {0, 1}) {
        if (fold && !fp64()) continue;
        rdx::Options o;
        o.tuning.set("groups", groups).set("blocked", blocked).set("fold", fold);
        same(o, "groups, layout and windows");
      }
    }
  }
  for (std::uint64_t chunk : {1000, 65536, 299999}) {
    rdx::Options o;
    o.tuning.set("chunk", chunk);
    same(o, "host chunks");
  }
  // Streams: slots of 1000 and 65536 elements, pushes that straddle them (AnyDevice's fixed bins:
  // test_binned_sum.cpp).
  for (std::uint64_t slot : {1000, 65536}) {
    {
      INFO("stream slot " << slot);
      rdx::Options o;
      o.determinism = rdx::Determinism::Exact;
      rdx::Stream s(ctx(), rdx::Type::F32, rdx::Op::Sum, o, slot * 4);
      rdx_test::push_in_pieces(s, x);
      const rdx::Result r = s.finish();
      CHECK(r.plan.strategy == "exact_sum");
      CHECK(bits(r.value) == bits(want.value));
      if (fp64()) {
        rdx::Stream s64(ctx(), rdx::Type::F64, rdx::Op::Sum, o, slot * 8);
        s64.push(std::span<const double>(y));
        CHECK(bits(s64.finish().value) == bits(want64.value));
      }
    }
  }
  rdx::Options no_fp;  // an empty stream: +0
  no_fp.determinism = rdx::Determinism::Exact;
  rdx::Stream empty(ctx(), rdx::Type::F32, rdx::Op::Sum, no_fp);
  const rdx::Result e = empty.finish();
  CHECK(e.value.as<float>() == 0);
  CHECK_FALSE(std::signbit(e.value.as<float>()));
  rdx::Options any;  // exact, from host data and from a device buffer
  any.determinism = rdx::Determinism::Exact;
  CHECK(bits(rdx::reduce(ctx(), rdx::Type::F32, x.data(), x.size(), rdx::Op::Sum, any).value) ==
        bits(want.value));
  // A device buffer.
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * 4, x.data(),
               &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(bits(rdx::reduce(ctx(), rdx::Type::F32, b, x.size(), rdx::Op::Sum, any).value) ==
        bits(want.value));
  // A plain sum of this data differs in its last bits, or not; the exact one is the reference's.
  Exact s;
  exact_sum(s.z, x);
  CHECK(check_rounded<float>(s.z, want.value.as<float>(), false) == "");
}

TEST_CASE("exact sums: what the levels accept and refuse") {
  const std::vector<std::int32_t> i = {1, -5, 7};
  const std::vector<float> f = {1, 2, 3};
  rdx::Options o;
  o.determinism = rdx::Determinism::AnyDevice;
  // Order-independent operators run as they do by default.
  CHECK(rdx::reduce(ctx(), rdx::Type::I32, i.data(), 3, rdx::Op::Sum, o).value.as<int>() == 3);
  CHECK(rdx::reduce(ctx(), rdx::Type::F32, f.data(), 3, rdx::Op::Max, o).plan.strategy !=
        "exact_sum");
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Type::F32, f.data(), 3, rdx::Op::Prod, o),
                  rdx::UnsupportedError);
  o.strategy = "fast_strided";
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Type::F32, f.data(), 3, rdx::Op::Sum, o),
                  rdx::ArgumentError);
  o.strategy = "auto";
  // Enqueued: an integer sum runs (float sums: the case below).
  cl_int err = CL_SUCCESS;
  const cl_mem_flags copy = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  cl::Buffer ib(ctx().cl_context(), copy, std::size_t{12}, const_cast<std::int32_t*>(i.data()),
                &err);
  cl::Buffer fb(ctx().cl_context(), copy, std::size_t{12}, const_cast<float*>(f.data()), &err);
  cl::Buffer out(ctx().cl_context(), cl_mem_flags{CL_MEM_READ_WRITE}, std::size_t{8}, nullptr,
                 &err);
  REQUIRE(err == CL_SUCCESS);
  rdx::enqueue_reduce(ctx(), rdx::Type::I32, ib, 3, rdx::Op::Sum, out, 0, {}, o).wait();
  std::int32_t sum = 0;
  REQUIRE(ctx().queue().enqueueReadBuffer(out, CL_TRUE, 0, 4, &sum) == CL_SUCCESS);
  CHECK(sum == 3);
  const rdx::Array in[] = {rdx::Array::of(std::span<const float>(f))};
  // Float fields that are not sums are refused; count's integers run.
  const rdx::Reduction prod = rdx::Reduction::transform(rdx::Op::Prod, rdx::Type::F32, "x");
  CHECK_THROWS_AS(rdx::reduce(ctx(), prod, in, 3, o), rdx::UnsupportedError);
  CHECK(rdx::reduce(ctx(), rdx::Stat::Count, in, 3, o).value.as<std::uint64_t>() == 3);
  const std::vector<std::uint64_t> off = {0, 3};
  CHECK(rdx::reduce_segments(ctx(), rdx::Type::F32, f.data(), 3, off, rdx::Op::Max, o)
            .value(0)
            .as<float>() == 3);
  o.tuning.set("vector_bytes", 16);  // a tunable the fixed bins do not have
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Type::F32, f.data(), 3, rdx::Op::Sum, o),
                  rdx::ArgumentError);
}

TEST_CASE("exact sums: transform-reduce, dot, mean and norm2 under both levels") {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<float> x(200003), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Mostly narrow, with a wide stretch: both the windows and the element-wise path.
    const int e = i > 150000 ? static_cast<int>(g() % 80) - 40 : 0;
    x[i] = static_cast<float>(std::ldexp(unit(g), e));
    y[i] = static_cast<float>(unit(g));
  }
  const std::span<const float> xs(x), ys(y);
  const rdx::Array one[] = {rdx::Array::of(xs)};
  const rdx::Array two[] = {rdx::Array::of(xs), rdx::Array::of(ys)};
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  // Transform-reduce: the exact sum of the mapped values (float products: IEEE's rounding).
  std::vector<float> squares(x.size()), products(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    squares[i] = x[i] * x[i];
    products[i] = x[i] * y[i];
  }
  Exact sq, dot;
  exact_sum(sq.z, squares);
  exact_sum(dot.z, products);
  const rdx::StateResult t = rdx::reduce(
      ctx(), rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x * x"), one, x.size(), o);
  CHECK(t.plan.strategy == "exact_sum");
  CHECK(check_rounded<float>(sq.z, t.fields.at(0).as<float>(), false) == "");
  o.acc = rdx::Type::F32;
  const rdx::StatResult d = rdx::reduce(ctx(), rdx::Stat::Dot, two, x.size(), o);
  CHECK(check_rounded<float>(dot.z, d.value.as<float>(), false) == "");
  o.acc.reset();
  // mean: the exact sum rounded in the accumulator, divided by n in it.
  rdx::Options sum_opts = o;
  sum_opts.acc = fp64() ? rdx::Type::F64 : rdx::Type::F32;
  const rdx::Result s =
      rdx::reduce(ctx(), rdx::Type::F32, x.data(), x.size(), rdx::Op::Sum, sum_opts);
  const rdx::StatResult m = rdx::reduce(ctx(), rdx::Stat::Mean, one, x.size(), o);
  if (fp64())
    CHECK(m.value.as<double>() == s.value.as<double>() / double(x.size()));
  else
    CHECK(m.value.as<float>() == s.value.as<float>() / float(x.size()));
  // The same bits across grids, windows and levels, and from device buffers.
  const rdx::StatResult n2 = rdx::reduce(ctx(), rdx::Stat::Norm2, one, x.size(), o);
  CHECK(n2.value.as<float>() > 0);
  for (int groups : {1, 7}) {
    for (int fold : {0, 1}) {
      if (fold && !fp64()) continue;
      rdx::Options v = o;
      v.determinism = fold ? rdx::Determinism::AnyDevice : rdx::Determinism::Exact;
      v.tuning.set("groups", groups).set("fold", fold);
      v.work_group_size = std::min<std::size_t>(16, ctx().device_info().max_work_group);
      INFO("groups " << groups << " fold " << fold);
      CHECK(bits(rdx::reduce(ctx(), rdx::Stat::Norm2, one, x.size(), v).value) == bits(n2.value));
      CHECK(bits(rdx::reduce(ctx(), rdx::Stat::Mean, one, x.size(), v).value) == bits(m.value));
      v.acc = rdx::Type::F32;
      CHECK(bits(rdx::reduce(ctx(), rdx::Stat::Dot, two, x.size(), v).value) == bits(d.value));
    }
  }
  cl_int err = CL_SUCCESS;
  const cl_mem_flags copy = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  const rdx::DeviceArray dev[] = {
      {rdx::Type::F32, cl::Buffer(ctx().cl_context(), copy, x.size() * 4, x.data(), &err)},
      {rdx::Type::F32, cl::Buffer(ctx().cl_context(), copy, y.size() * 4, y.data(), &err)}};
  REQUIRE(err == CL_SUCCESS);
  o.acc = rdx::Type::F32;
  CHECK(bits(rdx::reduce(ctx(), rdx::Stat::Dot, dev, x.size(), o).value) == bits(d.value));
  // An empty input: mean NaN, a sum +0.
  rdx::Options mean_opts = o;
  mean_opts.acc = rdx::Type::F32;
  CHECK(std::isnan(rdx::reduce(ctx(), rdx::Stat::Mean, one, 0, mean_opts).value.as<float>()));
  const rdx::StateResult empty = rdx::reduce(
      ctx(), rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x * x"), one, 0, o);
  CHECK(empty.fields.at(0).as<float>() == 0);
  CHECK_FALSE(std::signbit(empty.fields.at(0).as<float>()));
}

TEST_CASE("exact sums: enqueue_reduce rounds on the device, the bits of the synchronous form") {
  std::vector<float> x = hard_cases<float>(9).front().second;
  for (const auto& [label, v] : hard_cases<float>(9))
    if (v.size() > x.size() &&
        std::all_of(v.begin(), v.end(), [](float e) { return std::isfinite(e); }))
      x = v;
  std::vector<float> y(x.size());
  for (std::size_t k = 0; k < x.size(); ++k)
    y[k] = static_cast<float>(k % 13) - 6.5f;
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  cl_int err = CL_SUCCESS;
  const cl_mem_flags copy = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  cl::Buffer xb(ctx().cl_context(), copy, x.size() * 4, x.data(), &err);
  cl::Buffer yb(ctx().cl_context(), copy, y.size() * 4, y.data(), &err);
  cl::Buffer out(ctx().cl_context(), cl_mem_flags{CL_MEM_READ_WRITE}, std::size_t{64}, nullptr,
                 &err);
  REQUIRE(err == CL_SUCCESS);
  const auto read = [&](std::size_t offset, std::size_t bytes) {
    std::uint64_t v = 0;
    REQUIRE(ctx().queue().enqueueReadBuffer(out, CL_TRUE, offset, bytes, &v) == CL_SUCCESS);
    return v;
  };
  // A float sum into f32 at byte 4, and (fp64) into f64 at byte 8, chained by events.
  const rdx::Result want = rdx::reduce(ctx(), rdx::Type::F32, x.data(), x.size(), rdx::Op::Sum, o);
  cl::Event e =
      rdx::enqueue_reduce(ctx(), rdx::Type::F32, xb, x.size(), rdx::Op::Sum, out, 4, {}, o);
  rdx::Options wide = o;
  wide.acc = rdx::Type::F64;
  if (fp64())
    e = rdx::enqueue_reduce(ctx(), rdx::Type::F32, xb, x.size(), rdx::Op::Sum, out, 8, {e}, wide);
  e.wait();
  CHECK(read(4, 4) == want.value.bits);
  if (fp64())
    CHECK(read(8, 8) ==
          rdx::reduce(ctx(), rdx::Type::F32, x.data(), x.size(), rdx::Op::Sum, wide).value.bits);
  // A user's reduction of two float sums (x and x * y): each field rounded into its place.
  rdx::Reduction r;
  r.name = "sums";
  r.fields = {{"s", rdx::Type::F32, "0", "x0", "a.s + b.s"},
              {"p", rdx::Type::F32, "0", "x0 * x1", "a.p + b.p"}};
  const rdx::DeviceArray dev[] = {{rdx::Type::F32, xb}, {rdx::Type::F32, yb}};
  const rdx::StateResult sync = rdx::reduce(ctx(), r, dev, x.size(), o);
  std::vector<unsigned char> junk(64, 0xAB);
  REQUIRE(ctx().queue().enqueueWriteBuffer(out, CL_TRUE, 0, 64, junk.data()) == CL_SUCCESS);
  rdx::enqueue_reduce(ctx(), r, dev, x.size(), out, 16, {}, o).wait();
  CHECK(read(16 + rdx::field_offset(r, 0), 4) == sync.fields.at(0).bits);
  CHECK(read(16 + rdx::field_offset(r, 1), 4) == sync.fields.at(1).bits);
  CHECK(read(0, 8) == 0xABABABABABABABABull);  // nothing outside the state
  // Empty: +0 in every field.
  rdx::enqueue_reduce(ctx(), r, dev, 0, out, 16, {}, o).wait();
  CHECK(read(16, 8) == 0);
}
