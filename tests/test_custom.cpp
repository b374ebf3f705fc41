// Users' reductions (rdx/custom.hpp): custom operators, maps over several inputs, states of
// several fields, chunked inputs and bad expressions, against host references.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "coverage.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

namespace {

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -1, float hi = 1) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v)
    x = d(g);
  return v;
}

// Sizes around the boundaries of the fast kernels' layouts: empty, one element, less than a
// vector, not a multiple of any vector width, and more than one work-item's block.
constexpr std::uint64_t kSizes[] = {0, 1, 3, 1000, 100003};

}  // namespace

TEST_CASE("custom: a combine of the user's own, with its identity") {
  // max |x|
  const auto r = rdx::Reduction::simple(rdx::Type::F32, "fmax(fabs(a), fabs(b))", "0");
  for (std::uint64_t n : kSizes) {
    CAPTURE(n);
    const auto v = random_floats(n, 7);
    const rdx::Array in[] = {rdx::Array::of<float>(v)};
    const auto res = rdx::reduce(ctx(), r, in, n);
    float want = 0;
    for (float x : v)
      want = std::max(want, std::fabs(x));
    REQUIRE(res.fields.size() == 1);
    CHECK(res.fields[0].as<float>() == want);
    CHECK(res.plan.reduction == "custom");
  }
}

TEST_CASE("custom: repeated calls, names and Options::profile") {
  // The context keeps each reduction's definitions and kernel after its first call: a second
  // reduction that differs in one character, or only in its name, must still get its own result
  // and its own name.
  const auto v = random_floats(1000, 11);
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  double sum = 0, sq = 0;
  for (float x : v) {
    sum += static_cast<double>(x) * 2;
    sq += static_cast<double>(x * 3.0f);  // the map runs in f32 (x is f32)
  }
  auto twice = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x * 2");
  auto thrice = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x * 3");
  for (int k = 0; k < 2; ++k) {
    CHECK(rdx::reduce(ctx(), twice, in, v.size()).fields.at(0).as<double>() ==
          doctest::Approx(sum).epsilon(1e-12));
    CHECK(rdx::reduce(ctx(), thrice, in, v.size()).fields.at(0).as<double>() ==
          doctest::Approx(sq).epsilon(1e-12));
  }
  twice.name = "doubled";
  rdx::Options prof;
  prof.profile = true;
  const auto r = rdx::reduce(ctx(), twice, in, v.size(), prof);
  CHECK(r.plan.reduction == "doubled");
  CHECK(r.fields.at(0).as<double>() == doctest::Approx(sum).epsilon(1e-12));
  CHECK(r.device_seconds > 0);
  CHECK(rdx::reduce(ctx(), twice, in, v.size()).device_seconds == 0);
}

TEST_CASE("custom: transform-reduce over one and two inputs, with the index") {
  for (std::uint64_t n : kSizes) {
    CAPTURE(n);
    const auto x = random_floats(n, 1), y = random_floats(n, 2);
    const rdx::Array one[] = {rdx::Array::of<float>(x)};
    const rdx::Array two[] = {rdx::Array::of<float>(x), rdx::Array::of<float>(y)};
    double sq = 0, dot = 0, l1 = 0;
    std::uint64_t above = 0, idx = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      sq += double(x[i] * x[i]);  // the map multiplies floats
      dot += double(x[i]) * y[i];
      l1 += std::fabs(double(x[i]) - y[i]);
      above += x[i] > 0.5f;
      idx += i;
    }
    auto f64 = [](rdx::Op op, const char* map) {
      return rdx::Reduction::transform(op, rdx::Type::F64, map);
    };
    CHECK(rdx::reduce(ctx(), f64(rdx::Op::Sum, "x * x"), one, n).fields[0].as<double>() ==
          doctest::Approx(sq).epsilon(1e-12));
    CHECK(rdx::reduce(ctx(), f64(rdx::Op::Sum, "(double)x0 * x1"), two, n).fields[0].as<double>() ==
          doctest::Approx(dot).epsilon(1e-12));
    CHECK(rdx::reduce(ctx(), f64(rdx::Op::Sum, "fabs((double)x0 - x1)"), two, n)
              .fields[0]
              .as<double>() == doctest::Approx(l1).epsilon(1e-12));
    const auto count = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::U64, "x > 0.5f");
    CHECK(rdx::reduce(ctx(), count, one, n).fields[0].as<std::uint64_t>() == above);
    const auto index = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::U64, "i");
    CHECK(rdx::reduce(ctx(), index, one, n).fields[0].as<std::uint64_t>() == idx);
  }
}

TEST_CASE("custom: fast_strided with fewer work-items than the elements past the last vector") {
  // u8 elements load 16 at a time: a group of 2 work-items leaves 12 of 60 past the last vector.
  std::vector<std::uint8_t> x(60);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<std::uint8_t>(i * 7 + 3);
  const rdx::Array one[] = {rdx::Array::of<std::uint8_t>(x)};
  rdx::Options o;
  o.strategy = "fast_strided";
  o.work_group_size = 2;
  const auto twice = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::U64, "x * 2");
  for (const std::uint64_t n : {std::uint64_t{60}, std::uint64_t{47}, std::uint64_t{33}}) {
    CAPTURE(n);
    std::uint64_t w = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      w += std::uint64_t{x[i]} * 2;
    CHECK(rdx::reduce(ctx(), twice, one, n, o).fields[0].as<std::uint64_t>() == w);
  }
  // f32 input: a built-in sum's grid of 4 groups of 2 is cut to 2 for the host's finish; a
  // user's reduction, which the last group finishes, keeps 4.
  std::vector<float> f(60);
  double want = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    f[i] = static_cast<float>(i % 13) - 6.5f;
    want += 3.0 * f[i];
  }
  const rdx::Array floats[] = {rdx::Array::of<float>(f)};
  const auto thrice = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "3.0 * x");
  const rdx::StateResult user = rdx::reduce(ctx(), thrice, floats, f.size(), o);
  CHECK(user.fields[0].as<double>() == want);
  CHECK(user.plan.params.get("groups") == 4u);
  CHECK(user.plan.params.get("host_finish") == 0u);
  const rdx::Result built_in =
      rdx::reduce(ctx(), rdx::Type::F32, f.data(), f.size(), rdx::Op::Sum, o);
  CHECK(built_in.plan.params.get("groups") == 2u);
  CHECK(built_in.plan.params.get("host_finish") == 1u);
}

TEST_CASE("custom: a map's vector form gives the bits of the lane-by-lane form") {
  // fast_blocked on a CPU runs a reduction that has a vector form (has_vector_form) VW lanes at
  // once; Options::tuning scalar_map = 1 runs the same reduction lane by lane. Other devices run
  // it lane by lane either way.
  const bool cpu = ctx().device_info().kind == rdx::DeviceKind::CPU;
  const std::uint64_t n = 100003;  // several work-items of several blocks, and a tail
  const auto x = random_floats(n, 21, -2, 2), y = random_floats(n, 22, -2, 2);
  std::vector<double> xd(x.begin(), x.end());
  std::vector<std::int32_t> xi(n);
  std::vector<std::uint64_t> xu(n);
  std::mt19937 g(23);
  for (std::uint64_t k = 0; k < n; ++k) {
    xi[k] = static_cast<std::int32_t>(g());
    xu[k] = (std::uint64_t{g()} << 32) | g();
  }
  const rdx::Array fx[] = {rdx::Array::of<float>(x)};
  const rdx::Array fxy[] = {rdx::Array::of<float>(x), rdx::Array::of<float>(y)};
  const rdx::Array dx[] = {rdx::Array::of<double>(xd)};
  const rdx::Array ix[] = {rdx::Array::of<std::int32_t>(xi)};
  const rdx::Array ux[] = {rdx::Array::of<std::uint64_t>(xu)};
  // Host references: floats in double (within the sum's error bound), integers exact.
  double sq = 0, dot = 0, half = 0, amax = 0, roots = 0;
  std::uint32_t low10 = 0, wrapped = 0;  // i32 sums wrap: kept in uint32
  std::uint64_t low = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    sq += double(x[k] * x[k]);
    dot += double(x[k] * y[k]);
    half += xd[k] * 0.5 + 1e-3;
    amax = std::max(amax, double(std::fabs(x[k])));
    roots += double(std::sqrt(std::fabs(x[k])) / (y[k] + 3.0f));
    low10 += static_cast<std::uint32_t>(xi[k] & 1023);
    wrapped += static_cast<std::uint32_t>(xi[k]);
    low ^= ~xu[k] & 255;
  }
  struct Case {
    rdx::Reduction r;
    std::span<const rdx::Array> in;
    bool vector;  // expected to run its vector form on a CPU
    double want, tolerance;
  };
  const Case cases[] = {
      {rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x * x"), fx, true, sq, 1e-4},
      {rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x0 * x1"), fxy, true, dot, 1e-3},
      {rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x * 0.5 + 1e-3"), dx, true, half,
       1e-9},
      {rdx::Reduction::simple(rdx::Type::F32, "fmax(fabs(a), fabs(b))", "0"), fx, true, amax, 0},
      {rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "sqrt(fabs(x0)) / (x1 + 3.0f)"), fxy,
       true, roots, 1e-4},
      {rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::I32, "x & 1023"), ix, true,
       double(static_cast<std::int32_t>(low10)), 0},
      {rdx::Reduction::transform(rdx::Op::Xor, rdx::Type::U64, "~x & 255"), ux, true, double(low),
       0},
      // Its vector form does not compile (uint16 + int16 has no implicit conversion, where uint
      // + int converts): it runs lane by lane.
      {rdx::Reduction::simple(rdx::Type::I32, "(int)((uint)(a) + (int)(b))", "0"), ix, false,
       double(static_cast<std::int32_t>(wrapped)), 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.r.fields[0].map);
    CAPTURE(c.r.fields[0].combine);
    rdx::Options vec, lanes;
    vec.strategy = lanes.strategy = "fast_blocked";
    lanes.tuning.set("scalar_map", 1);
    const auto a = rdx::reduce(ctx(), c.r, c.in, n, vec);
    const auto b = rdx::reduce(ctx(), c.r, c.in, n, lanes);
    CHECK(a.plan.params.get("vector_map") == std::optional<std::uint64_t>(cpu && c.vector));
    CHECK(b.plan.params.get("vector_map") == std::optional<std::uint64_t>(0));
    CHECK(a.fields.at(0).bits == b.fields.at(0).bits);
    const double got = a.fields[0].as<double>();
    if (c.tolerance == 0)
      CHECK(got == c.want);
    else
      CHECK(got == doctest::Approx(c.want).epsilon(c.tolerance));
  }
}

TEST_CASE("custom: a built-in operator as a map of x gives the built-in's result") {
  // Reduction::transform(op, type, "x") is the built-in operator as a user's reduction: the same
  // OpenCL C combine and identity (ops/operators.hpp), checked against the built-in's reference.
  // On CPUs the integer sums, and, or and xor run in their vector form. A signed narrow, a 32-bit
  // and an unsigned 64-bit integer, and both floats (clrdx verify runs every type). Each (type,
  // operator) is a program of its own: the quick tier runs every operator on i32 and f32, and
  // sum, max and xor (floats: no xor) on the others (api.loopvec.whole: every operator on each).
  const bool quick = rdx::test::quick_tier();
  for (rdx::Type type :
       {rdx::Type::I8, rdx::Type::I32, rdx::Type::U64, rdx::Type::F32, rdx::Type::F64}) {
    if (type == rdx::Type::F64 && !ctx().device_info().fp64) continue;
    const bool every_op = !quick || type == rdx::Type::I32 || type == rdx::Type::F32;
    for (rdx::Op op : rdx::kAllOps) {
      if (!rdx::transform_matches_builtin(op, type)) continue;
      if (!every_op && op != rdx::Op::Sum && op != rdx::Op::Xor && op != rdx::Op::Max) continue;
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{100003}}) {
        CAPTURE(rdx::name(type));
        CAPTURE(rdx::name(op));
        CAPTURE(n);
        CHECK(rdx::check_transform(ctx(), op, type, n, 40 + n) == "");
      }
    }
  }
  CHECK_FALSE(rdx::transform_matches_builtin(rdx::Op::Prod, rdx::Type::F32));
  CHECK_FALSE(rdx::transform_matches_builtin(rdx::Op::ArgMax, rdx::Type::I32));
  CHECK_FALSE(rdx::transform_matches_builtin(rdx::Op::Xor, rdx::Type::F64));
}

TEST_CASE("custom: a state of several fields (sum and count at once)") {
  rdx::Reduction r;
  r.name = "sum_count";
  r.fields = {{"s", rdx::Type::F64, "0", "x", "a.s + b.s"},
              {"c", rdx::Type::U32, "0", "x > 0", "a.c + b.c"},
              {"big", rdx::Type::U8, "0", "x > 0.9f", "max(a.big, b.big)"}};
  for (std::uint64_t n : kSizes) {
    CAPTURE(n);
    const auto v = random_floats(n, 3);
    const rdx::Array in[] = {rdx::Array::of<float>(v)};
    double s = 0;
    std::uint32_t c = 0;
    std::uint8_t big = 0;
    for (float x : v) {
      s += x;
      c += x > 0;
      big = std::max<std::uint8_t>(big, x > 0.9f);
    }
    const auto res = rdx::reduce(ctx(), r, in, n);
    REQUIRE(res.fields.size() == 3);
    CHECK(res.fields[0].as<double>() == doctest::Approx(s).epsilon(1e-12));
    CHECK(res.fields[1].as<std::uint32_t>() == c);
    CHECK(res.fields[2].as<std::uint8_t>() == big);
    CHECK(res.plan.reduction == "sum_count");
  }
}

TEST_CASE("custom: every strategy that can run a user's state runs it") {
  // Three fields (f64, u32, u16) over two inputs of different types, with the index: the sum of
  // x0 * x1, how many x0 > 0, the largest i % 1000 where x1 < -0.9.
  rdx::Reduction r;
  r.name = "three";
  r.fields = {{"s", rdx::Type::F64, "0", "x0 * x1", "a.s + b.s"},
              {"c", rdx::Type::U32, "0", "x0 > 0", "a.c + b.c"},
              {"k", rdx::Type::U16, "0", "x1 < -0.9 ? (ushort)(i % 1000) : 0", "max(a.k, b.k)"}};
  // One field of 4 bytes, and two of 8 bytes in all: what the atomic strategies take (one word).
  const auto one = rdx::Reduction::simple(rdx::Type::I32, "a + b", "0", "x % 7");
  rdx::Reduction pair;
  pair.name = "pair";
  pair.fields = {{"s", rdx::Type::I32, "0", "x % 7", "a.s + b.s"},
                 {"c", rdx::Type::U32, "0", "x > 0", "a.c + b.c"}};
  // Sizes across work-group and launch boundaries: empty, one, a few groups, one past 4096.
  for (std::uint64_t n :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{4097}}) {
    const auto x = random_floats(n, 11);
    std::vector<double> y(n);
    std::vector<std::int32_t> z(n);
    std::mt19937 g(12);
    for (std::uint64_t i = 0; i < n; ++i) {
      y[i] = std::uniform_real_distribution<double>(-1, 1)(g);
      z[i] = static_cast<std::int32_t>(g() % 2001) - 1000;
    }
    double s = 0;
    std::uint32_t c = 0;
    std::uint16_t k = 0;
    std::int32_t mod = 0;
    std::uint32_t positive = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      positive += z[i] > 0;
      s += double(x[i]) * y[i];
      c += x[i] > 0;
      if (y[i] < -0.9) k = std::max<std::uint16_t>(k, static_cast<std::uint16_t>(i % 1000));
      mod += z[i] % 7;
    }
    const rdx::Array in[] = {rdx::Array::of<float>(x), rdx::Array::of<double>(y)};
    const rdx::Array zin[] = {rdx::Array::of<std::int32_t>(z)};
    for (const rdx::StrategyInfo& info : rdx::strategies()) {
      const std::string name(info.name);
      CAPTURE(name);
      CAPTURE(n);
      rdx::Options o;
      o.strategy = name;
      if (name == "amp_sequential") {  // it combines on the host
        CHECK_THROWS_AS(rdx::reduce(ctx(), one, zin, n, o), rdx::UnsupportedError);
        continue;
      }
      CHECK(rdx::reduce(ctx(), one, zin, n, o).fields[0].as<std::int32_t>() == mod);
      if (name.starts_with("atomic_")) {  // one word of 4 or 8 bytes
        const auto res = rdx::reduce(ctx(), pair, zin, n, o);
        CHECK(res.fields[0].as<std::int32_t>() == mod);
        CHECK(res.fields[1].as<std::uint32_t>() == positive);
        CHECK_THROWS_AS(rdx::reduce(ctx(), r, in, n, o), rdx::UnsupportedError);  // 16 bytes
        continue;
      }
      const auto res = rdx::reduce(ctx(), r, in, n, o);
      CHECK(res.plan.strategy == name);
      REQUIRE(res.fields.size() == 3);
      CHECK(res.fields[0].as<double>() == doctest::Approx(s).epsilon(1e-12));
      CHECK(res.fields[1].as<std::uint32_t>() == c);
      CHECK(res.fields[2].as<std::uint16_t>() == k);
    }
  }
}

TEST_CASE("custom: device inputs, and inputs of different types") {
  const std::uint64_t n = 5001;
  std::vector<std::int16_t> w(n);
  std::vector<double> y(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    w[i] = static_cast<std::int16_t>(i % 7) - 3;
    y[i] = 0.25 * double(i);
  }
  double want = 0;
  for (std::uint64_t i = 0; i < n; ++i)
    want += w[i] * y[i];
  const auto r = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x0 * x1");
  const rdx::Array host[] = {rdx::Array::of<std::int16_t>(w), rdx::Array::of<double>(y)};
  CHECK(rdx::reduce(ctx(), r, host, n).fields[0].as<double>() == want);
  cl::Buffer bw(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 2, w.data());
  cl::Buffer by(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 8, y.data());
  const rdx::DeviceArray dev[] = {{rdx::Type::I16, bw}, {rdx::Type::F64, by}};
  CHECK(rdx::reduce(ctx(), r, dev, n).fields[0].as<double>() == want);
  CHECK_THROWS_AS(rdx::reduce(ctx(), r, dev, n + 1), rdx::ArgumentError);  // past the buffers
}

TEST_CASE("custom: bad expressions are refused before anything is compiled") {
  const std::vector<float> v(10, 1.0f);
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  auto refused = [&](const char* combine, const char* map = "x") {
    CAPTURE(combine);
    CAPTURE(map);
    CHECK_THROWS_AS(
        rdx::reduce(ctx(), rdx::Reduction::simple(rdx::Type::F32, combine, "0", map), in, 10),
        rdx::ArgumentError);
  };
  refused("a + b; }");
  refused("a + b) {");
  refused("(a + b");
  refused("a + b)");
  refused("a + c");  // not a documented name
  refused("a +\n#define X 1\n b");
  refused("a + b /* comment */");
  refused("a + __kernel_name");
  refused("a + b", "x1");  // one input: x1 is not there
  refused("a + b", "");
  refused("a + \"b\"");
  rdx::Reduction two;
  two.fields = {{"s", rdx::Type::F32, "0", "x", "a.s + b.t"},
                {"c", rdx::Type::U32, "0", "1", "a.c + b.c"}};
  CHECK_THROWS_AS(rdx::reduce(ctx(), two, in, 10), rdx::ArgumentError);  // no field t
  two.fields[0].combine = "a.s + b.s";
  const rdx::Field c = two.fields[1];
  two.fields[1] = {"WG", c.type, c.identity, c.map, c.combine};  // upper case: the kernels' macros
  CHECK_THROWS_AS(rdx::reduce(ctx(), two, in, 10), rdx::ArgumentError);
  two.fields[1] = {"global", c.type, c.identity, c.map, c.combine};
  CHECK_THROWS_AS(rdx::reduce(ctx(), two, in, 10), rdx::ArgumentError);
  two.fields[1] = {"s", c.type, c.identity, c.map, c.combine};  // twice
  CHECK_THROWS_AS(rdx::reduce(ctx(), two, in, 10), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Reduction{}, in, 10), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::Reduction::transform(rdx::Op::ArgMin, rdx::Type::F32, "x"),
                  rdx::ArgumentError);
  // A strategy that does not run users' reductions says so.
  rdx::Options o;
  o.strategy = "amp_sequential";
  CHECK_THROWS_AS(
      rdx::reduce(ctx(), rdx::Reduction::simple(rdx::Type::F32, "a + b", "0"), in, 10, o),
      rdx::UnsupportedError);
}

TEST_CASE("custom: a compiler error in an expression names the expression") {
  const std::vector<float> v(10, 1.0f);
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  // fmax of three arguments: valid names, but not OpenCL C.
  const auto r = rdx::Reduction::simple(rdx::Type::F32, "fmax(a, b, a)", "0");
  try {
    rdx::reduce(ctx(), r, in, 10);
    FAIL("no error");
  } catch (const rdx::ExpressionError& e) {
    CHECK(e.text == "fmax(a, b, a)");
    CHECK(std::string(e.what()).find("combine") != std::string::npos);
    CHECK(std::string(e.what()).find("fmax(a, b, a)") != std::string::npos);
    CHECK(!e.messages.empty());
  }
}

namespace {

// What rdx::reduce throws for the map `map` (combine a + b, identity 0) over one f32 input, as
// its message; "" when it throws nothing.
std::string refusal(const std::string& map, const std::string& combine = "a + b",
                    const std::string& identity = "0") {
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  try {
    rdx::reduce(ctx(), rdx::Reduction::simple(rdx::Type::F32, combine, identity, map), in,
                v.size());
  } catch (const rdx::ArgumentError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not an ArgumentError: ") + e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("custom: expressions cannot reach memory: pointers, addresses, stores") {
  // Each would compile: a read or write through a pointer made from the index or an input's
  // address (a crash, or a write outside the element), an assignment or increment of an input.
  struct Case {
    const char* map;
    const char* says;
  };
  const Case cases[] = {
      {"x = 1", "assigns ('=')"},
      {"x += 1", "assigns ('+=')"},
      {"x <<= 1", "assigns ('<<=')"},
      {"x++", "increments or decrements ('++')"},
      {"--x", "increments or decrements ('--')"},
      {"(x, 2)", "comma operator"},
      {"*((float*)&x + 3) = 1.0f", "dereferences a pointer"},
      {"(float)*(&x)", "dereferences a pointer"},
      {"x * &x", "takes an address"},
      {"(ulong)&x", "takes an address"},
      {"(float)((float*)i)", "casts to a pointer type ('float *')"},
      {"(&x)[3]", "takes an address"},
      {"x0[3]", "indexes"},
      {"fabs(x)[0]", "indexes"},
      {"x->y", "'->'"},
      {"sizeof(x)", "'sizeof'"},
      {"float", "outside a cast"},
      {"fabs", "without calling it"},
      {"x(1)", "not a built-in function"},
      {"'a'", "quote"},
      {"x ? 1", "'?' without its ':'"},
      {"x : 1", "':' without its '?'"},
      {"x x", "where an operator is expected"},
      {"x +", "ends where an operand is expected"},
      {"*((float*)(ulong)i)", "dereferences a pointer"},  // the report's SIGSEGV
  };
  for (const Case& c : cases) {
    CAPTURE(c.map);
    const std::string why = refusal(c.map);
    CHECK(has(why, c.says));
    CHECK(has(why, "the map `"));
  }
  // The same rules for combines and identities; a state of several fields needs a.NAME.
  CHECK(has(refusal("x", "*(&a)"), "dereferences a pointer"));
  CHECK(has(refusal("x", "a + b", "*(float*)0"), "dereferences a pointer"));
  CHECK(has(refusal("x", "a + b", "INFINITY = 0"), "assigns"));
  rdx::Reduction two;
  two.fields = {{"s", rdx::Type::F32, "0", "x", "a + b.s"}, {"c", rdx::Type::U32, "0", "1", "0"}};
  const std::vector<float> v(4, 1.0f);
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  CHECK_THROWS_WITH_AS(rdx::reduce(ctx(), two, in, 4), doctest::Contains("whole"),
                       rdx::ArgumentError);
}

TEST_CASE("custom: expressions are bounded in length, nesting and operators") {
  // PoCL's compiler overflows its stack on a chain of 20,000 terms (10,000 compile): the bounds
  // refuse that long before, and what they allow compiles and computes.
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  auto chain = [](std::size_t terms) {
    std::string e = "x";
    for (std::size_t k = 1; k < terms; ++k)
      e += "+x";
    return e;
  };
  auto nested = [](std::size_t depth) {
    return std::string(depth, '(') + "x" + std::string(depth, ')');
  };
  auto sum_of = [&](const std::string& map) {
    return rdx::reduce(ctx(), rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, map), in,
                       v.size())
        .fields.at(0)
        .as<float>();
  };
  // The largest that pass: 1024 operators (1025 terms: 21 * 1025), 64 levels.
  CHECK(sum_of(chain(1025)) == 21.0f * 1025);
  CHECK(sum_of(nested(64)) == 21.0f);
  auto negated = [](std::size_t times) {
    std::string e;
    for (std::size_t k = 0; k < times; ++k)
      e += "- ";
    return e + "x";
  };
  CHECK(sum_of(negated(64)) == 21.0f);
  CHECK(has(refusal(chain(1026)), "more than 1024 operators"));
  CHECK(has(refusal(chain(20000)), "longer than 4096 characters"));
  CHECK(has(refusal(nested(65)), "nests deeper than 64 levels"));
  CHECK(has(refusal(negated(65)), "nests deeper than 64 levels"));
  CHECK(has(refusal("x" + std::string(5000, ' ')), "longer than 4096 characters"));
  std::string ternaries = "x";
  for (int k = 0; k < 65; ++k)
    ternaries = "x > 0 ? x : " + ternaries;
  CHECK(has(refusal(ternaries), "nests deeper than 64 levels"));
  // A long expression's message quotes its start only.
  CHECK(refusal(chain(20000)).size() < 400);
}

TEST_CASE("custom: what the documentation allows still runs") {
  // Casts to scalar types, unary operators, ?:, calls of built-ins, constants, C's number forms,
  // the index, several inputs and fields (docs/custom.md), against host loops.
  if (!ctx().device_info().fp64)  // the cases below reduce f64 data: none of them can run
    FAIL("the device has no fp64: this test checked nothing");
  const std::uint64_t n = 1000;
  std::vector<float> x(n);
  std::vector<std::int32_t> y(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
    y[i] = static_cast<std::int32_t>(i % 23) - 11;
  }
  const rdx::Array in[] = {rdx::Array::of<float>(x), rdx::Array::of<std::int32_t>(y)};
  struct Case {
    const char* map;
    double (*host)(float, std::int32_t, std::uint64_t);
  };
  const Case cases[] = {
      {"(double)x0 * -x1", [](float a, std::int32_t b, std::uint64_t) { return -double(a) * b; }},
      {"x0 > 0.0f && x1 < 0 ? 1 : !(x1 & 1) ? 2 : 3",
       [](float a, std::int32_t b, std::uint64_t) -> double {
         return a > 0 && b < 0 ? 1 : !(b & 1) ? 2 : 3;
       }},
      {"(double)((~x1 >> 1) | (x1 << 2) ^ 0x7)",
       [](float, std::int32_t b, std::uint64_t) {
         return double((~b >> 1) |
                       (static_cast<std::int32_t>(static_cast<std::uint32_t>(b) << 2) ^ 0x7));
       }},
      {"fmax(fabs((double)x0), 0x1p-1) + (double)(i % 10UL) + M_PI - M_PI",
       [](float a, std::int32_t, std::uint64_t i) {
         return std::fmax(std::fabs(double(a)), 0.5) + double(i % 10) + M_PI - M_PI;
       }},
      {"convert_double(min(x1, 3)) + (double)select(1, 2, x1 > 0) + +1.5e0",
       [](float, std::int32_t b, std::uint64_t) {
         return double(std::min(b, 3)) + (b > 0 ? 2 : 1) + 1.5;
       }},
  };
  for (const Case& c : cases) {
    CAPTURE(c.map);
    double want = 0;
    for (std::uint64_t i = 0; i < n; ++i)
      want += c.host(x[i], y[i], i);
    const auto r = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, c.map);
    CHECK(rdx::reduce(ctx(), r, in, n).fields.at(0).as<double>() ==
          doctest::Approx(want).epsilon(1e-12));
  }
}

TEST_CASE("custom: an identity that is not neutral is refused, whatever runs it") {
  // Issue 33: a + b with identity 5 on 1..6 gave 111 (auto), 1271 (localtree), 21 (exact) and 10
  // on an empty input. The identity is checked on the device before anything runs.
  const std::vector<float> v = {1, 2, 3, 4, 5, 6};
  const rdx::Array in[] = {rdx::Array::of<float>(v)};
  const auto five = rdx::Reduction::simple(rdx::Type::F32, "a + b", "5");
  for (const char* strategy : {"auto", "localtree", "atomic_global", "hybrid"}) {
    CAPTURE(strategy);
    rdx::Options o;
    o.strategy = strategy;
    for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{6}}) {
      CAPTURE(n);
      CHECK_THROWS_WITH_AS(rdx::reduce(ctx(), five, in, n, o),
                           doctest::Contains("the identity `5` of the reduction 'custom' is not "
                                             "neutral for its combine `a + b`"),
                           rdx::ArgumentError);
    }
  }
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  CHECK_THROWS_AS(rdx::reduce(ctx(), five, in, 6, exact), rdx::ArgumentError);
  const std::uint64_t off[] = {0, 2, 6};
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), five, in, 6, off), rdx::ArgumentError);
  // The message gives the value: 5 + 5.
  CHECK(has(refusal("x", "a + b", "5"), "combining it with itself (5) gives 10, not 5"));
  // Identities that combine with themselves to themselves but not with a value: the probes
  // (the map of elements 0 and 1) find them.
  CHECK(has(refusal("x", "min(a, b)", "0"),
            "combining it with 1 (the map of the element 1 at "
            "index 1) gives 0, not 1"));
  CHECK(has(refusal("x", "a * b", "0"), "gives 0, not 1"));
  CHECK(has(refusal("x + 2", "fmax(a, b)", "3"), "gives 3, not 2"));
  CHECK(has(refusal("x", "a < b ? a : b", "-1"), "is not neutral"));
  rdx::Reduction two;
  two.name = "two";
  two.fields = {{"s", rdx::Type::F32, "0", "x", "a.s + b.s"},
                {"m", rdx::Type::U32, "1", "(uint)x", "max(a.m, b.m)"}};
  CHECK_THROWS_WITH_AS(rdx::reduce(ctx(), two, in, 6),
                       doctest::Contains("the identity `1` of field 'm' of the reduction 'two'"),
                       rdx::ArgumentError);
}

TEST_CASE("custom: neutral identities pass the check") {
  // Sums, products, minima and maxima (with NaN, infinities and the type's extremes), combines
  // that normalise their operands, maps that give NaN at the probes, and maps that divide (not
  // probed), each against a host loop.
  const std::uint64_t n = 1000;
  std::vector<float> x(n);
  std::vector<std::int32_t> k(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(int(i % 37) - 18) * 0.5f;
    k[i] = static_cast<std::int32_t>(i * 7919 % 2001) - 1000;
  }
  const rdx::Array fx[] = {rdx::Array::of<float>(x)};
  const rdx::Array ik[] = {rdx::Array::of<std::int32_t>(k)};
  float lo = INFINITY, hi = -INFINITY, amax = 0, logs = -INFINITY, inv = 0;
  double prod = 1;
  std::int32_t imin = INT32_MAX, imax = INT32_MIN;
  for (float e : x) {
    lo = std::min(lo, e);
    hi = std::max(hi, e);
    amax = std::max(amax, std::fabs(e));
    if (e > 2) logs = std::max(logs, std::log(e - 2.0f));
  }
  for (std::int32_t e : k) {
    imin = std::min(imin, e);
    imax = std::max(imax, e);
  }
  for (std::uint64_t i = 0; i < 40; ++i)
    prod *= 1.0 + 0.01 * double(i % 5);
  auto f32 = [&](const char* combine, const char* identity, const char* map = "x") {
    return rdx::reduce(ctx(), rdx::Reduction::simple(rdx::Type::F32, combine, identity, map), fx, n)
        .fields.at(0)
        .as<float>();
  };
  CHECK(f32("a + b", "0", "x - x") == 0.0f);
  CHECK(f32("a + b", "-0.0f", "(float)(i % 2)") == 500.0f);
  CHECK(f32("a < b ? a : b", "INFINITY") == lo);
  CHECK(f32("fmin(a, b)", "NAN") == lo);
  CHECK(f32("fmax(a, b)", "-INFINITY") == hi);
  CHECK(f32("fmax(a, b)", "-FLT_MAX") == hi);
  CHECK(f32("fmax(fabs(a), fabs(b))", "0", "-x") == amax);  // normalises: |-1| for -1
  CHECK(f32("fmax(a, b)", "-INFINITY", "log(x - 2.0f)") ==
        doctest::Approx(logs).epsilon(1e-6));  // NaN at the probes
  for (float e : x)
    inv += e == 0 ? 0.0f : 1.0f / e;
  CHECK(f32("a + b", "0", "x == 0.0f ? 0.0f : 1.0f / x") == doctest::Approx(inv).epsilon(1e-5));
  if (!ctx().device_info().fp64) {
    MESSAGE("the device has no fp64: the f64 cases are not run");
    return;
  }
  const std::vector<float> few(x.begin(), x.begin() + 40);
  const rdx::Array fp[] = {rdx::Array::of<float>(few)};
  CHECK(rdx::reduce(
            ctx(),
            rdx::Reduction::simple(rdx::Type::F64, "a * b", "1", "1.0 + 0.01 * (double)(i % 5)"),
            fp, few.size())
            .fields.at(0)
            .as<double>() == doctest::Approx(prod).epsilon(1e-12));
  auto i32 = [&](const char* combine, const char* identity) {
    return rdx::reduce(ctx(), rdx::Reduction::simple(rdx::Type::I32, combine, identity), ik, n)
        .fields.at(0)
        .as<std::int32_t>();
  };
  CHECK(i32("min(a, b)", "INT_MAX") == imin);
  CHECK(i32("max(a, b)", "INT_MIN") == imax);
  CHECK(i32("a & b", "~0") == [&] {
    std::int32_t all = ~0;
    for (std::int32_t e : k)
      all &= e;
    return all;
  }());
  // The composites' states (minmax's index fields, var's guarded merge) pass too.
  const auto mm = rdx::minmax(ctx(), std::span<const float>(x));
  CHECK(mm.min == lo);
  CHECK(mm.max == hi);
}

namespace {

// Two-pass population variance in long double: the reference of var and std.
long double two_pass_var(const auto& v) {
  long double m = 0;
  for (auto x : v)
    m += x;
  m /= v.size();
  long double s = 0;
  for (auto x : v)
    s += (x - m) * (x - m);
  return s / v.size();
}

}  // namespace

TEST_CASE("stats: mean, var and std on data built to break the naive formula") {
  // A large offset and a small spread: E[x^2] - E[x]^2 in f64 loses every digit here.
  for (std::uint64_t n :
       {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{1000}, std::uint64_t{100003}}) {
    CAPTURE(n);
    std::mt19937 g(5);
    std::uniform_real_distribution<double> d(0, 1);
    std::vector<double> x(n);
    for (auto& e : x)
      e = 1e9 + d(g);
    long double mean = 0;
    for (double e : x)
      mean += e;
    mean /= n;
    const long double var = two_pass_var(x);
    CHECK(rdx::mean(ctx(), std::span<const double>(x)) ==
          doctest::Approx(double(mean)).epsilon(1e-15));
    const double got = rdx::var(ctx(), std::span<const double>(x));
    CHECK(std::fabs(got - double(var)) <= 1e-6 * (double(var) + 1e-3));
    CHECK(rdx::stddev(ctx(), std::span<const double>(x)) ==
          doctest::Approx(std::sqrt(double(var))).epsilon(1e-6));
    // f32 data accumulates in f64 by default.
    std::vector<float> f(n);
    for (std::uint64_t i = 0; i < n; ++i)
      f[i] = 1e4f + static_cast<float>(d(g));
    const long double fvar = two_pass_var(f);
    CHECK(std::fabs(rdx::var(ctx(), std::span<const float>(f)) - double(fvar)) <=
          1e-9 * (double(fvar) + 1e-6));
  }
  const std::vector<float> none;
  CHECK(std::isnan(rdx::mean(ctx(), std::span<const float>(none))));
  CHECK(std::isnan(rdx::var(ctx(), std::span<const float>(none))));
  const std::vector<std::int32_t> ints = {1, 2, 3, 4};
  CHECK(rdx::mean(ctx(), std::span<const std::int32_t>(ints)) == 2.5);
  CHECK(rdx::var(ctx(), std::span<const std::int32_t>(ints)) == 1.25);
}

TEST_CASE("stats: norm2 near the overflow and underflow limits") {
  auto ref = [](const auto& v) {
    long double s = 0;  // long double's range holds the squares of every f64 here
    for (auto x : v)
      s += static_cast<long double>(x) * x;
    return static_cast<double>(std::sqrt(s));
  };
  for (float scale : {1e30f, 1e-30f, 1.0f, 3e38f, 1e-44f}) {
    CAPTURE(scale);
    std::vector<float> v(1001);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = scale * static_cast<float>((i % 5) + 1) / 5;
    const double want = ref(v);
    const double got = rdx::norm2(ctx(), std::span<const float>(v));
    CHECK(std::isfinite(got) == std::isfinite(float(want)));
    if (std::isfinite(float(want))) CHECK(got == doctest::Approx(want).epsilon(1e-5));
  }
  for (double scale : {1e300, 1e-300, 1e-310, 1.0}) {
    CAPTURE(scale);
    std::vector<double> v(1001);
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = (i % 2 ? -scale : scale) * static_cast<double>((i % 5) + 1);
    v[3] = 0;
    CHECK(rdx::norm2(ctx(), std::span<const double>(v)) == doctest::Approx(ref(v)).epsilon(1e-13));
  }
  // Magnitudes from both ends at once.
  const std::vector<double> mixed = {1e300, 1e-300, 3.0, 4.0};
  CHECK(rdx::norm2(ctx(), std::span<const double>(mixed)) == 1e300);
  const std::vector<float> small = {3e-30f, 4e-30f};
  CHECK(rdx::norm2(ctx(), std::span<const float>(small)) == doctest::Approx(5e-30).epsilon(1e-6));
  const std::vector<float> with_inf = {1.0f, INFINITY};
  CHECK(std::isinf(rdx::norm2(ctx(), std::span<const float>(with_inf))));
  const std::vector<float> with_nan = {1.0f, NAN, 1e30f};
  CHECK(std::isnan(rdx::norm2(ctx(), std::span<const float>(with_nan))));
}

TEST_CASE("stats: minmax, dot and count") {
  std::vector<float> v = {3, NAN, -2, 7, -2, 7, NAN, 1};
  auto m = rdx::minmax(ctx(), std::span<const float>(v));
  CHECK(m.min == -2);
  CHECK(m.min_index == 2);
  CHECK(m.max == 7);
  CHECK(m.max_index == 3);
  const std::vector<float> nans = {NAN, NAN};
  m = rdx::minmax(ctx(), std::span<const float>(nans));
  CHECK(std::isnan(m.min));
  CHECK(m.min_index == 0);
  const std::vector<float> none;
  CHECK_THROWS_AS(rdx::minmax(ctx(), std::span<const float>(none)), rdx::ArgumentError);
  // 16-bit floats: the elements in their own type, as min and max give them (rdx::result_type),
  // whole and per segment.
  {
    const std::vector<rdx::f16> h = {rdx::f16(0.1), rdx::f16(-2.25), rdx::f16(65504.0),
                                     rdx::f16(-2.25)};
    const std::vector<rdx::bf16> b = {rdx::bf16(3.0), rdx::bf16(-1e30), rdx::bf16(0.1)};
    const rdx::Array hin[] = {{rdx::Type::F16, h.data()}}, bin[] = {{rdx::Type::BF16, b.data()}};
    const rdx::StatResult hr = rdx::reduce(ctx(), rdx::Stat::MinMax, hin, h.size());
    CHECK(hr.value.type == rdx::Type::F16);
    CHECK(hr.value.bits == h[1].bits);
    CHECK(*hr.index == 1);
    CHECK(hr.max->type == rdx::Type::F16);
    CHECK(hr.max->bits == h[2].bits);
    const rdx::StatResult br = rdx::reduce(ctx(), rdx::Stat::MinMax, bin, b.size());
    CHECK(br.value.type == rdx::Type::BF16);
    CHECK(br.value.bits == b[1].bits);
    CHECK(br.max->bits == b[0].bits);
    const std::vector<std::uint64_t> cuts = {0, 1, 4};
    const rdx::SegmentedStats seg =
        rdx::reduce_segments(ctx(), rdx::Stat::MinMax, hin, h.size(), cuts);
    REQUIRE(seg.size() == 2);
    CHECK(seg.type == rdx::Type::F16);
    CHECK(seg.value(0).bits == h[0].bits);
    CHECK(seg.max(0).bits == h[0].bits);
    CHECK(seg.value(1).bits == h[1].bits);
    CHECK(seg.indices[1] == 0);  // counted from the segment's start
    CHECK(seg.max(1).bits == h[2].bits);
  }
  for (std::uint64_t n : kSizes) {
    CAPTURE(n);
    std::vector<std::int32_t> x(n);
    std::mt19937 g(9);
    for (auto& e : x)
      e = static_cast<std::int32_t>(g() % 2001) - 1000;
    if (n) {
      const auto lo = std::min_element(x.begin(), x.end()) - x.begin();
      const auto hi = std::max_element(x.begin(), x.end()) - x.begin();
      const auto mm = rdx::minmax(ctx(), std::span<const std::int32_t>(x));
      CHECK(mm.min == x[lo]);
      CHECK(mm.min_index == std::uint64_t(lo));
      CHECK(mm.max == x[hi]);
      CHECK(mm.max_index == std::uint64_t(hi));
    }
    std::int32_t dot = 0;
    std::uint64_t nonzero = 0, positive = 0;
    for (std::int32_t e : x) {
      dot =
          static_cast<std::int32_t>(static_cast<std::uint32_t>(dot) +
                                    static_cast<std::uint32_t>(e) * static_cast<std::uint32_t>(e));
      nonzero += e != 0;
      positive += e > 0;
    }
    CHECK(rdx::dot(ctx(), std::span<const std::int32_t>(x), std::span<const std::int32_t>(x)) ==
          dot);
    CHECK(rdx::count(ctx(), std::span<const std::int32_t>(x)) == nonzero);
    CHECK(rdx::count(ctx(), std::span<const std::int32_t>(x), "x > 0") == positive);
  }
  const std::vector<float> f = {0.0f, -0.0f, NAN, 1.0f};
  CHECK(rdx::count(ctx(), std::span<const float>(f)) == 2);  // NaN is not zero, as in NumPy
  const std::vector<float> shorter(3);
  CHECK_THROWS_AS(rdx::dot(ctx(), std::span<const float>(f), std::span<const float>(shorter)),
                  rdx::ArgumentError);
  rdx::Options o;
  o.acc = rdx::Type::I32;
  CHECK_THROWS_AS(rdx::mean(ctx(), std::span<const float>(f), o), rdx::ArgumentError);
  const rdx::Array one[] = {rdx::Array::of<float>(f)};
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Stat::Mean, one, 4, {}, "x > 0"), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Stat::Dot, one, 4), rdx::ArgumentError);
}

TEST_CASE("stats: any, all and count_nonzero follow NumPy on every type") {
  // NumPy: any is true where an element is non-zero, all where every one is; NaN is non-zero,
  // -0.0 is zero; any of nothing is false, all of nothing true. The expected values come from
  // those rules applied to each case here, element by element.
  for (rdx::Type t : rdx::kAllTypes) {
    INFO(rdx::name(t));
    rdx::visit_type(t, [&](auto z) {
      using T = decltype(z);
      std::vector<std::vector<T>> cases = {
          {}, {T(0)}, {T(1)}, {T(0), T(0), T(3)}, std::vector<T>(5000, T(7))};
      cases.back()[4321] = T(0);  // one zero among many non-zero elements
      if constexpr (std::is_floating_point_v<T>) {
        cases.push_back({T(-0.0), T(0)});
        cases.push_back({std::numeric_limits<T>::quiet_NaN()});
        cases.push_back({std::numeric_limits<T>::quiet_NaN(), T(-0.0)});
        cases.push_back({-std::numeric_limits<T>::infinity(), T(2.5)});
      }
      for (const auto& c : cases) {
        CAPTURE(c.size());
        std::uint64_t nonzero = 0;
        for (T v : c)
          nonzero += !(v == T(0));  // NaN == 0 is false: non-zero
        const std::span<const T> x(c);
        CHECK(rdx::any(ctx(), x) == (nonzero > 0));
        CHECK(rdx::all(ctx(), x) == (nonzero == c.size()));
        CHECK(rdx::count_nonzero(ctx(), x) == nonzero);
        const rdx::Array one[] = {rdx::Array::of(x)};
        const rdx::StatResult r = rdx::reduce(ctx(), rdx::Stat::Any, one, c.size());
        CHECK(r.value.type == rdx::Type::U8);
      }
      // The predicate, as count's (two types: it is count's map, which test_custom's count
      // cases cover).
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>) {
        const std::vector<T> v = {T(1), T(2), T(3)};
        CHECK(rdx::any(ctx(), std::span<const T>(v), "x > 2"));
        CHECK_FALSE(rdx::all(ctx(), std::span<const T>(v), "x > 2"));
        CHECK(rdx::all(ctx(), std::span<const T>(v), "x > 0"));
      }
    });
  }
  CHECK(rdx::find_stat("count_nonzero") == rdx::Stat::Count);
  CHECK(rdx::is_logical(rdx::Stat::Any));
  CHECK_FALSE(rdx::is_logical(rdx::Stat::Count));
  const std::vector<float> f = {1.0f};
  const rdx::Array one[] = {rdx::Array::of<float>(f)};
  rdx::Options o;
  o.acc = rdx::Type::U8;
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Stat::All, one, 1, o), rdx::ArgumentError);
}

TEST_CASE("app context: an rdx::Context on the app's own context, device and queue") {
  // The app's objects, made without librdx (on the device the tests use).
  const rdx::Context probe(rdx_test::device());
  const cl::Device dev = probe.cl_device();
  cl::Context app_ctx(dev);
  cl::CommandQueue app_queue(app_ctx, dev);
  std::vector<float> v(4099);
  std::iota(v.begin(), v.end(), 1.0f);
  cl::Buffer buf(app_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data());
  const double want = double(v.size()) * (v.size() + 1) / 2;

  rdx::Context ctx(app_ctx, dev, app_queue);
  CHECK(ctx.cl_context()() == app_ctx());  // no second context
  CHECK(ctx.queue()() == app_queue());
  CHECK(ctx.device_info().name == probe.device_info().name);
  rdx::Options o;
  o.acc = rdx::Type::F64;
  CHECK(rdx::reduce_buffer<double, float>(ctx, buf, v.size(), rdx::Op::Sum, o) == want);
  const rdx::DeviceArray in[] = {{rdx::Type::F32, buf}};
  CHECK(rdx::reduce(ctx, rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x"), in, v.size())
            .fields[0]
            .as<double>() == want);

  // The C handles, retained: the app's own references stay valid after the Context ends.
  {
    rdx::Context wrapped = rdx::Context::wrap(app_ctx(), dev(), app_queue());
    CHECK(rdx::reduce_buffer<double, float>(wrapped, buf, v.size(), rdx::Op::Sum, o) == want);
  }
  CHECK(app_queue.finish() == CL_SUCCESS);

  // Objects that do not belong together.
  cl::Context other(dev);
  cl::CommandQueue other_queue(other, dev);
  CHECK_THROWS_AS(rdx::Context(app_ctx, dev, other_queue), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::Context(app_ctx, cl::Device(), app_queue), rdx::ArgumentError);
  // A buffer of another context is refused.
  cl::Buffer foreign(other, CL_MEM_READ_ONLY, 64);
  const rdx::DeviceArray bad[] = {{rdx::Type::F32, foreign}};
  CHECK_THROWS_AS(
      rdx::reduce(ctx, rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x"), bad, 4),
      rdx::ArgumentError);
}

TEST_CASE("async: results into the app's buffer, a chain with no host wait, and futures") {
  rdx::Context& c = ctx();
  const std::uint64_t n = 30011;
  std::vector<std::int32_t> v(n);
  for (std::uint64_t i = 0; i < n; ++i)
    v[i] = static_cast<std::int32_t>(i % 13) - 6;
  std::int64_t sum = 0, sq = 0;
  for (auto x : v) {
    sum += x;
    sq += std::int64_t{x} * x;
  }
  cl::Buffer data(c.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, v.data());
  cl::Buffer out(c.cl_context(), CL_MEM_READ_WRITE, 64);
  rdx::Options wide;
  wide.acc = rdx::Type::I64;
  // Two reductions into out[1] and out[2] (i64, at byte offsets 8 and 16), then a reduction of
  // out[1..2] that waits on both events: no host synchronisation in between.
  const cl::Event e1 =
      rdx::enqueue_reduce(c, rdx::Type::I32, data, n, rdx::Op::Sum, out, 8, {}, wide);
  const rdx::DeviceArray in[] = {{rdx::Type::I32, data}};
  const auto squares = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::I64, "(long)x * x");
  const cl::Event e2 = rdx::enqueue_reduce(c, squares, in, n, out, 16, {e1});
  cl::Buffer view(c.cl_context(), CL_MEM_READ_WRITE, 16);
  cl::Event e3;
  REQUIRE(c.queue().enqueueCopyBuffer(out, view, 8, 0, 16, nullptr, &e3) == CL_SUCCESS);
  const rdx::DeviceArray both[] = {{rdx::Type::I64, view}};
  const cl::Event e4 = rdx::enqueue_reduce(
      c, rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::I64, "x"), both, 2, out, 24, {e2, e3});
  // An empty input writes the identity.
  const cl::Event e5 = rdx::enqueue_reduce(c, rdx::Type::F32, data, 0, rdx::Op::Min, out, 32, {e4});
  REQUIRE(e5.wait() == CL_SUCCESS);
  std::int64_t got[4] = {};
  float empty_min = 0;
  REQUIRE(c.queue().enqueueReadBuffer(out, CL_TRUE, 8, 24, got) == CL_SUCCESS);
  REQUIRE(c.queue().enqueueReadBuffer(out, CL_TRUE, 32, 4, &empty_min) == CL_SUCCESS);
  CHECK(got[0] == sum);
  CHECK(got[1] == sq);
  CHECK(got[2] == sum + sq);
  CHECK(empty_min == INFINITY);
  CHECK(rdx::state_bytes(squares) == 8);
  // Refusals: an index operator, a misaligned or too small output.
  CHECK_THROWS_AS(rdx::enqueue_reduce(c, rdx::Type::I32, data, n, rdx::Op::ArgMax, out, 0),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::enqueue_reduce(c, rdx::Type::I32, data, n, rdx::Op::Sum, out, 2),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::enqueue_reduce(c, rdx::Type::I32, data, n, rdx::Op::Sum, out, 64),
                  rdx::ArgumentError);

  // Futures: host and device data, several at once on one context.
  auto f1 = rdx::reduce_async(c, rdx::Type::I32, v.data(), n, rdx::Op::Sum, wide);
  auto f2 = rdx::reduce_async(c, rdx::Type::I32, data, n, rdx::Op::ArgMin);
  auto f3 = rdx::reduce_async(c, rdx::Type::I32, v.data(), 0, rdx::Op::ArgMin);
  CHECK(f1.get().value.as<std::int64_t>() == sum);
  const rdx::Result m = f2.get();
  CHECK(m.value.as<std::int32_t>() == -6);
  CHECK(m.index == 0u);
  CHECK_THROWS_AS(f3.get(), rdx::ArgumentError);  // the exception travels in the future
}

TEST_CASE("stats: the nan* forms leave NaN out at every determinism level, as NumPy") {
  // The numbers 1, 2, 4 and 0.5: sum 7.5, product 4, mean 1.875, variance 7.1875 / 4 =
  // 1.796875 (NumPy's nanvar, ddof 0), all exact in f32 and f64: the exact levels give them
  // bit for bit, run_to_run within a few roundings (Chan's merges divide).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> d = {1.0, nan, 2.0, 4.0, nan, 0.5};
  const std::vector<float> f(d.begin(), d.end());
  const std::vector<double> none(5, nan);
  const bool fp64 = ctx().device_info().fp64;
  for (rdx::Determinism level :
       {rdx::Determinism::RunToRun, rdx::Determinism::AnyDevice, rdx::Determinism::Exact}) {
    CAPTURE(rdx::name(level));
    rdx::Options o;
    o.determinism = level;
    const bool run_to_run = level == rdx::Determinism::RunToRun;
    const auto near = [&](double got, double want) {
      return run_to_run ? std::fabs(got - want) <= 1e-6 * want : got == want;
    };
    if (fp64) {
      CHECK(rdx::nansum(ctx(), std::span<const double>(d), o) == 7.5);
      CHECK(rdx::nanmean(ctx(), std::span<const double>(d), o) == 1.875);
      CHECK(near(rdx::nanvar(ctx(), std::span<const double>(d), o), 1.796875));
      CHECK(near(rdx::nanstd(ctx(), std::span<const double>(d), o), std::sqrt(1.796875)));
      CHECK(rdx::nansum(ctx(), std::span<const double>(none), o) == 0.0);
      CHECK(std::isnan(rdx::nanmean(ctx(), std::span<const double>(none), o)));
      CHECK(std::isnan(rdx::nanvar(ctx(), std::span<const double>(none), o)));
      if (run_to_run) {
        CHECK(rdx::nanprod(ctx(), std::span<const double>(d), o) == 4.0);
        CHECK(rdx::nanprod(ctx(), std::span<const double>(none), o) == 1.0);
      } else {  // a float product is not reproducible yet
        CHECK_THROWS_AS(rdx::nanprod(ctx(), std::span<const double>(d), o), rdx::UnsupportedError);
      }
    }
    CHECK(rdx::nansum(ctx(), std::span<const float>(f), o) == 7.5f);
    if (fp64 || run_to_run) {  // f32 var and std under the exact levels need fp64
      o.acc = rdx::Type::F32;
      CHECK(rdx::nanmean(ctx(), std::span<const float>(f), o) == 1.875);
      CHECK(near(rdx::nanstd(ctx(), std::span<const float>(f), o),
                 static_cast<double>(std::sqrt(1.796875f))));
    }
  }
  // On integers they are sum, prod and mean (no NaN).
  const std::vector<std::int32_t> i = {3, -1, 4};
  CHECK(rdx::nansum(ctx(), std::span<const std::int32_t>(i)) == 6);
  CHECK(rdx::nanprod(ctx(), std::span<const std::int32_t>(i)) == -12);
  CHECK(rdx::nanmean(ctx(), std::span<const std::int32_t>(i)) == doctest::Approx(2.0));
}

TEST_CASE("custom: a chunk form turns RDX_CHUNK elements into one state") {
  // A sum, a count and the sum of the indexes (RDX_INDEX: where the chunk's elements are): the
  // chunk form's state is exact here (small integers), so it must equal the element-by-element
  // one, and the plan says which ran.
  rdx::Reduction r;
  r.fields = {{"s", rdx::Type::F64, "0", "(double)x", "a.s + b.s"},
              {"c", rdx::Type::U64, "0", "1", "a.c + b.c"},
              {"ix", rdx::Type::U64, "0", "i", "a.ix + b.ix"}};
  r.chunk =
      "r.s = 0;\nr.ix = 0;\nfor (uint j = 0; j < RDX_CHUNK; ++j) {\n  r.s += (double)x[j];\n"
      "  r.ix += RDX_INDEX(j);\n}\nr.c = RDX_CHUNK;";
  std::vector<float> x(100003);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i % 17);
  const rdx::Array in[] = {rdx::Array::of(std::span<const float>(x))};
  if (!ctx().device_info().fp64) {
    MESSAGE("no fp64: the chunk form's f64 field is not run here");
    return;
  }
  for (std::uint64_t n : {std::uint64_t{0}, std::uint64_t{5}, std::uint64_t{1000},
                          static_cast<std::uint64_t>(x.size())}) {
    CAPTURE(n);
    rdx::Options one, strided;
    one.tuning.set("chunk", 1);
    strided.strategy = "fast_strided";
    const rdx::StateResult chunked = rdx::reduce(ctx(), r, in, n);
    const rdx::StateResult single = rdx::reduce(ctx(), r, in, n, one);
    const rdx::StateResult spread = rdx::reduce(ctx(), r, in, n, strided);
    CHECK(spread.fields.at(0).as<double>() ==
          std::accumulate(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), 0.0));
    CHECK(spread.fields.at(2).as<std::uint64_t>() == (n ? n * (n - 1) / 2 : 0));
    const double sum = std::accumulate(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n), 0.0);
    CHECK(chunked.fields.at(0).as<double>() == sum);
    CHECK(chunked.fields.at(1).as<std::uint64_t>() == n);
    CHECK(chunked.fields.at(2).as<std::uint64_t>() == (n ? n * (n - 1) / 2 : 0));
    CHECK(single.fields.at(2).as<std::uint64_t>() == (n ? n * (n - 1) / 2 : 0));
    CHECK(single.fields.at(0).as<double>() == sum);
    CHECK(single.fields.at(1).as<std::uint64_t>() == n);
    if (chunked.plan.strategy.starts_with("fast_")) {
      CHECK(chunked.plan.params.get("chunk").value_or(0) >= 8);
      CHECK(single.plan.params.get("chunk").value_or(1) == 0);
    }
  }
  // Refused before anything runs: two inputs, a directive, a comment; named when it fails to
  // compile.
  const rdx::Array two[] = {in[0], in[0]};
  CHECK_THROWS_AS(rdx::reduce(ctx(), r, two, 10), rdx::ArgumentError);
  for (const char* bad :
       {"#define X 1\nr.s = 0; r.c = 0;", "r.s = 0; /* r.c = 0; */", "r.s = 0; r.c = 0; // done"}) {
    rdx::Reduction b = r;
    b.chunk = bad;
    CHECK_THROWS_AS(rdx::reduce(ctx(), b, in, 10), rdx::ArgumentError);
  }
  rdx::Reduction broken = r;
  broken.chunk = "r.s = no_such_name;\nr.c = RDX_CHUNK;";
  try {
    rdx::reduce(ctx(), broken, in, 1000);
    FAIL("a chunk form that does not compile ran");
  } catch (const rdx::ExpressionError& e) {
    CHECK(std::string(e.what()).find("chunk of the reduction") != std::string::npos);
  }
}

TEST_CASE("stats: minmax's chunk form gives the first minimum and maximum, as element by element") {
  // Ties (the extremes repeat, the first must win), NaN first and inside (a number wins over
  // it), all NaN (the first NaN), on floats and integers, in both forms.
  rdx::Options one, strided;
  one.tuning.set("chunk", 1);
  strided.strategy = "fast_strided";  // RDX_INDEX over vectors `stride` apart, on any device
  const auto mm = [&](const auto& v, const rdx::Options& o) {
    const rdx::Array in[] = {rdx::Array::of(std::span(v))};
    return rdx::reduce(ctx(), rdx::Stat::MinMax, in, v.size(), o);
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t n : {std::size_t{5}, std::size_t{100}, std::size_t{20011}}) {
    CAPTURE(n);
    std::vector<float> f(n);
    std::vector<std::int32_t> k(n);
    for (std::size_t i = 0; i < n; ++i) {
      f[i] = static_cast<float>((i * 7919) % 101);
      k[i] = static_cast<std::int32_t>((i * 7919) % 101) - 50;
    }
    f[0] = nan;
    f[n / 2] = nan;
    // The reference: the first minimum and maximum among the numbers.
    std::size_t lo = 1, hi = 1, klo = 0, khi = 0;
    for (std::size_t i = 1; i < n; ++i) {
      if (!std::isnan(f[i]) && (std::isnan(f[lo]) || f[i] < f[lo])) lo = i;
      if (!std::isnan(f[i]) && (std::isnan(f[hi]) || f[i] > f[hi])) hi = i;
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (k[i] < k[klo]) klo = i;
      if (k[i] > k[khi]) khi = i;
    }
    for (const rdx::Options& opts : {rdx::Options{}, one, strided}) {
      const rdx::StatResult r = mm(f, opts);
      if (r.plan.strategy.starts_with("fast_"))
        CHECK((r.plan.params.get("chunk").value_or(0) > 0) == opts.tuning.empty());
      CHECK(r.value.as<float>() == f[lo]);
      CHECK(*r.index == lo);
      CHECK(r.max->as<float>() == f[hi]);
      CHECK(*r.max_index == hi);
      const rdx::StatResult ki = mm(k, opts);
      CHECK(*ki.index == klo);
      CHECK(*ki.max_index == khi);
      const std::vector<float> nans(n, nan);
      const rdx::StatResult all = mm(nans, opts);
      CHECK(std::isnan(all.value.as<float>()));
      CHECK(*all.index == 0);
      CHECK(*all.max_index == 0);
    }
  }
}

TEST_CASE("stats: var's chunk form agrees with the element-by-element state") {
  // Chunks of RDX_CHUNK elements with the first one an outlier (the case the shift bounds), a
  // large offset, NaN and infinities: both forms against each other and a two-pass reference.
  if (!ctx().device_info().fp64) {
    MESSAGE("no fp64: var's f64 accumulator is not run here");
    return;
  }
  std::mt19937 g(11);
  std::uniform_real_distribution<double> d(0, 1);
  rdx::Options one;
  one.tuning.set("chunk", 1);
  const auto var_of = [&](rdx::Stat s, const auto& v, const rdx::Options& o) {
    const rdx::Array in[] = {rdx::Array::of(std::span(v))};
    return rdx::reduce(ctx(), s, in, v.size(), o);
  };
  for (std::size_t n : {std::size_t{3}, std::size_t{131}, std::size_t{20011}}) {
    CAPTURE(n);
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = (i % 64 == 0 ? 1e6 : 0.0) + 1e9 + d(g);
    const double want = double(two_pass_var(x));
    const rdx::StatResult c = var_of(rdx::Stat::Var, x, {});
    const rdx::StatResult e = var_of(rdx::Stat::Var, x, one);
    CHECK(std::fabs(c.value.as<double>() - want) <= 1e-12 * want);
    CHECK(std::fabs(e.value.as<double>() - want) <= 1e-12 * want);
    std::vector<float> f(n);
    for (std::size_t i = 0; i < n; ++i)
      f[i] = static_cast<float>((i % 16 == 0 ? -300.0 : 0.0) + 1e4 + d(g));
    const double fwant = double(two_pass_var(f));
    CHECK(std::fabs(var_of(rdx::Stat::Var, f, {}).value.as<double>() - fwant) <= 1e-12 * fwant);
    // NaN: var's result is NaN, nanvar's that of the numbers, in either form.
    std::vector<float> nans = f;
    nans[n / 2] = std::numeric_limits<float>::quiet_NaN();
    CHECK(std::isnan(var_of(rdx::Stat::Var, nans, {}).value.as<double>()));
    std::vector<float> numbers = f;
    numbers.erase(numbers.begin() + static_cast<std::ptrdiff_t>(n / 2));
    const double nwant = double(two_pass_var(numbers));
    CHECK(std::fabs(var_of(rdx::Stat::NanVar, nans, {}).value.as<double>() - nwant) <=
          1e-12 * nwant);
    CHECK(std::fabs(var_of(rdx::Stat::NanVar, nans, one).value.as<double>() - nwant) <=
          1e-12 * nwant);
    // An infinity: NaN (inf - inf), as NumPy's var.
    std::vector<float> inf = f;
    inf[n - 1] = std::numeric_limits<float>::infinity();
    CHECK(std::isnan(var_of(rdx::Stat::Var, inf, {}).value.as<double>()));
    CHECK(std::isnan(var_of(rdx::Stat::Var, inf, one).value.as<double>()));
  }
}
