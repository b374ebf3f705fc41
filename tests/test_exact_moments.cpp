// var and std under rdx::Determinism AnyDevice and Exact: the correctly rounded population variance
// and its square root, checked against GMP (every element scaled by 2^1074, its square by
// 2^2148) by the rounding rule itself: the result's neighbours' midpoints bracket the exact value.
// Then the same bits across grids, work-group sizes, windows, levels and device buffers, and the
// documented edges (empty, one element, NaN, infinities, a square that overflows).
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "exact_reference.hpp"
#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

using rdx_test::add_scaled;
using rdx_test::ctx;
using rdx_test::Exact;
using rdx_test::fp64;

// The exact variance of x (each element as a double) as 4N / n^2 * 2^-2150: `four_n` = 4N and
// `n2` = n^2, N = n * sum(X^2) - sum(X)^2 with X = x * 2^1074.
struct Moments {
  Exact four_n, n2;
};

template <class T>
void exact_moments(Moments& m, const std::vector<T>& x) {
  Exact s1, s2, t;
  for (T v : x) {
    mpz_set_ui(t.z, 0);
    add_scaled(t.z, static_cast<double>(v));
    mpz_add(s1.z, s1.z, t.z);
    mpz_addmul(s2.z, t.z, t.z);
  }
  mpz_set_ui(m.n2.z, static_cast<unsigned long>(x.size()));
  mpz_mul(m.four_n.z, s2.z, m.n2.z);
  mpz_submul(m.four_n.z, s1.z, s1.z);
  mpz_mul_2exp(m.four_n.z, m.four_n.z, 2);
  mpz_mul(m.n2.z, m.n2.z, m.n2.z);
}

// "" when r (of type A) is the variance (root: its square root) rounded to nearest: the midpoints
// between r and its neighbours bracket the exact value (a tie accepts either neighbour).
template <class A>
std::string check_moment(const Moments& m, A r, bool root) {
  if (!std::isfinite(r) || r < 0) return rdx::detail::format("{} for a finite variance", r);
  if (r == 0) return mpz_sgn(m.four_n.z) == 0 ? "" : "0 for a variance above 0";
  Exact mid, lhs;
  for (const A nb :
       {std::nextafter(r, A(0)), std::nextafter(r, std::numeric_limits<A>::infinity())}) {
    // The midpoint times 2^1075.
    mpz_set_ui(mid.z, 0);
    add_scaled(mid.z, static_cast<double>(r));
    add_scaled(mid.z, static_cast<double>(nb));
    if (root) {
      mpz_mul(lhs.z, mid.z, mid.z);  // times 2^2150
    } else {
      mpz_mul_2exp(lhs.z, mid.z, 1075);
    }
    mpz_mul(lhs.z, lhs.z, m.n2.z);
    const int c = mpz_cmp(lhs.z, m.four_n.z);  // midpoint against the exact value
    if (nb < r ? c > 0 : c < 0)
      return rdx::detail::format("{:a} is nearer than {:a}", static_cast<double>(nb),
                                 static_cast<double>(r));
  }
  return "";
}

std::uint64_t bits(const rdx::Scalar& s) {
  return s.bits;
}

template <class T>
rdx::StatResult stat(rdx::Stat s, const std::vector<T>& x, const rdx::Options& o) {
  const rdx::Array in[] = {rdx::Array::of(std::span<const T>(x))};
  return rdx::reduce(ctx(), s, in, x.size(), o);
}

// Checks var and std of x under both levels in the accumulator A (o.acc when set).
template <class A, class T>
void check_var_std(const std::vector<T>& x, rdx::Options o) {
  Moments m;
  exact_moments(m, x);
  for (rdx::Determinism d : {rdx::Determinism::Exact, rdx::Determinism::AnyDevice}) {
    o.determinism = d;
    const rdx::StatResult v = stat(rdx::Stat::Var, x, o), s = stat(rdx::Stat::Std, x, o);
    INFO("determinism " << rdx::name(d));
    CHECK(v.plan.strategy == "exact_sum");
    CHECK(check_moment<A>(m, v.value.as<A>(), false) == "");
    CHECK(check_moment<A>(m, s.value.as<A>(), true) == "");
  }
  // The check can fail: a neighbour of the result is not the rounded value.
  const A v = stat(rdx::Stat::Var, x, o).value.template as<A>();
  if (v > 0) {
    CHECK(check_moment<A>(m, std::nextafter(v, A(0)), false) != "");
    CHECK(check_moment<A>(m, std::nextafter(v, A(1e300)), false) != "");
  }
}

std::vector<float> offset_f32(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u(0.0f, 3.0f);
  std::vector<float> x(n);
  for (float& v : x)
    v = 1e4f + u(g);  // the mean far above the spread: a one-pass sum of squares cancels
  return x;
}

template <class T>
std::vector<T> wide(std::size_t n, int span, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> x(n);
  for (T& v : x)
    v = static_cast<T>(std::ldexp(u(g), static_cast<int>(g() % (2 * span)) - span));
  return x;
}

}  // namespace

TEST_CASE("exact moments: var and std correctly rounded against GMP") {
  rdx::Options o;
  if (!fp64()) {
    // The squares are summed in doubles.
    o.determinism = rdx::Determinism::Exact;
    CHECK_THROWS_AS(stat(rdx::Stat::Var, offset_f32(10, 1), o), rdx::UnsupportedError);
    return;
  }
  SUBCASE("f32 near 1e4, f64 accumulator") {
    check_var_std<double>(offset_f32(100003, 1), o);
  }
  SUBCASE("f32 near 1e4, f32 accumulator") {
    o.acc = rdx::Type::F32;
    check_var_std<float>(offset_f32(100003, 2), o);
  }
  SUBCASE("f32 across 2^-60..2^60") {
    check_var_std<double>(wide<float>(70001, 60, 3), o);
  }
  SUBCASE("f32 1e30, 1, -1e30") {
    check_var_std<double>(std::vector<float>{1e30f, 1, -1e30f}, o);
  }
  SUBCASE("f64 near 1e8, spread 1e-3") {
    std::mt19937_64 g(4);
    std::uniform_real_distribution<double> u(0.0, 1e-3);
    std::vector<double> x(50001);
    for (double& v : x)
      v = 1e8 + u(g);
    check_var_std<double>(x, o);
  }
  SUBCASE("f64 across 2^-400..2^400") {
    check_var_std<double>(wide<double>(40001, 400, 5), o);
  }
  SUBCASE("i32, f64 accumulator") {
    std::mt19937_64 g(6);
    std::vector<std::int32_t> x(30001);
    for (auto& v : x)
      v = static_cast<std::int32_t>(g());
    check_var_std<double>(x, o);
  }
}

TEST_CASE("exact moments: the same bits across grids, windows, levels and device buffers") {
  if (!fp64()) return;  // the previous case checks the refusal
  const std::vector<float> x = wide<float>(200003, 30, 7);
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  const rdx::StatResult var = stat(rdx::Stat::Var, x, o), sd = stat(rdx::Stat::Std, x, o);
  std::vector<double> y(x.begin(), x.end());
  for (double& v : y)
    v *= 1.0 + 1e-9;  // bits below f32's
  const rdx::StatResult var64 = stat(rdx::Stat::Var, y, o);
  for (int groups : {1, 7}) {
    for (int fold : {0, 1}) {
      rdx::Options v = o;
      v.determinism = fold ? rdx::Determinism::AnyDevice : rdx::Determinism::Exact;
      v.tuning.set("groups", groups).set("fold", fold);
      v.work_group_size = std::min<std::size_t>(16, ctx().device_info().max_work_group);
      INFO("groups " << groups << " fold " << fold);
      CHECK(bits(stat(rdx::Stat::Var, x, v).value) == bits(var.value));
      CHECK(bits(stat(rdx::Stat::Std, x, v).value) == bits(sd.value));
      CHECK(bits(stat(rdx::Stat::Var, y, v).value) == bits(var64.value));
    }
  }
  cl_int err = CL_SUCCESS;
  const rdx::DeviceArray dev[] = {
      {rdx::Type::F32, cl::Buffer(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  x.size() * 4, const_cast<float*>(x.data()), &err)}};
  REQUIRE(err == CL_SUCCESS);
  CHECK(bits(rdx::reduce(ctx(), rdx::Stat::Var, dev, x.size(), o).value) == bits(var.value));
}

TEST_CASE("exact moments: empty, one element, NaN, infinities and overflowing squares") {
  // The squares are summed in doubles (the refusal without fp64: the first case).
  if (!fp64()) FAIL("the device has no fp64: this test checked nothing");
  rdx::Options o;
  o.determinism = rdx::Determinism::AnyDevice;
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(std::isnan(stat(rdx::Stat::Var, std::vector<float>{}, o).value.as<double>()));
  const double one = stat(rdx::Stat::Var, std::vector<float>{3.5f}, o).value.as<double>();
  CHECK(one == 0);
  CHECK_FALSE(std::signbit(one));
  CHECK(stat(rdx::Stat::Std, std::vector<double>(1000, -2.25), o).value.as<double>() == 0);
  CHECK(std::isnan(stat(rdx::Stat::Var, std::vector<float>{1, NAN, 2}, o).value.as<double>()));
  CHECK(std::isnan(stat(rdx::Stat::Std, std::vector<double>{1, inf, 2}, o).value.as<double>()));
  // A square beyond f64's range: +inf (documented), not NaN.
  CHECK(stat(rdx::Stat::Var, std::vector<double>{1e200, 1}, o).value.as<double>() == inf);
  // minmax's values and first indexes do not depend on the order: it runs at every level.
  const std::vector<float> x = {2, -0.0f, 0.0f, 5, -1, 5, -1};
  const rdx::StatResult mm = stat(rdx::Stat::MinMax, x, o);
  CHECK(mm.value.as<float>() == -1);
  CHECK(*mm.index == 4);
  CHECK(mm.max->as<float>() == 5);
  CHECK(*mm.max_index == 3);
}

// var and std at the default level (RunToRun) against the same GMP reference: their relative error
// against NumPy's two-pass algorithm computed here in doubles (pairwise sums, mean first, then the
// squared deviations), on data with a large offset and a small spread and near f64's overflow.
namespace {

// NumPy's pairwise sum (numpy/core/src/umath/loops_utils.h: 8 accumulators up to 128 elements).
template <class F>
F numpy_sum(const F* a, std::size_t n) {
  if (n < 8) {
    F r = 0;
    for (std::size_t i = 0; i < n; ++i)
      r += a[i];
    return r;
  }
  if (n <= 128) {
    F r[8];
    for (std::size_t j = 0; j < 8; ++j)
      r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8)
      for (std::size_t j = 0; j < 8; ++j)
        r[j] += a[i + j];
    F s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i)
      s += a[i];
    return s;
  }
  std::size_t h = n / 2;
  h -= h % 8;
  return numpy_sum(a, h) + numpy_sum(a + h, n - h);
}

// NumPy's var (ddof = 0) of x in F: the mean first, then the mean of the squared deviations.
template <class F, class T>
F numpy_var(const std::vector<T>& x) {
  std::vector<F> y(x.begin(), x.end());
  const F mean = numpy_sum(y.data(), y.size()) / static_cast<F>(y.size());
  for (F& v : y)
    v = (v - mean) * (v - mean);
  return numpy_sum(y.data(), y.size()) / static_cast<F>(y.size());
}

// |r - V| / V for the exact variance V of m (root: |r^2 - V| / 2V, std's relative error).
double relative_error(const Moments& m, double r, bool root) {
  if (!std::isfinite(r)) return std::numeric_limits<double>::infinity();
  Exact got, t;
  add_scaled(got.z, r);
  if (root) {
    mpz_mul(got.z, got.z, got.z);  // times 2^2148
    mpz_mul_2exp(got.z, got.z, 2);
  } else {
    mpz_mul_2exp(got.z, got.z, 1076);
  }
  mpz_mul(got.z, got.z, m.n2.z);  // then 4 n^2 r (or 4 n^2 r^2) times 2^2150, as 4N
  mpz_sub(t.z, got.z, m.four_n.z);
  mpz_abs(t.z, t.z);
  mpq_t q;
  mpq_init(q);
  mpz_set(mpq_numref(q), t.z);
  mpz_set(mpq_denref(q), m.four_n.z);
  if (root) mpz_mul_2exp(mpq_denref(q), mpq_denref(q), 1);
  mpq_canonicalize(q);
  const double e = mpq_get_d(q);
  mpq_clear(q);
  return e;
}

// var and std of x against its exact variance: each at least as accurate as NumPy's two-pass
// result in F, or within the relative error `floor`.
template <class F, class T>
void check_default_level(const std::vector<T>& x, double var, double sd, double floor) {
  Moments m;
  exact_moments(m, x);
  REQUIRE(mpz_sgn(m.four_n.z) > 0);
  const F np = numpy_var<F>(x);
  const double np_var = relative_error(m, static_cast<double>(np), false);
  const double np_std = relative_error(m, static_cast<double>(std::sqrt(np)), true);
  INFO("var " << var << " relative error " << relative_error(m, var, false) << ", NumPy's "
              << np_var);
  INFO("std " << sd << " relative error " << relative_error(m, sd, true) << ", NumPy's " << np_std);
  // Where NumPy's sum of squares overflows, the floor alone.
  CHECK(relative_error(m, var, false) <= (std::isfinite(np_var) ? std::max(np_var, floor) : floor));
  CHECK(relative_error(m, sd, true) <= (std::isfinite(np_std) ? std::max(np_std, floor) : floor));
}

template <class T>
std::vector<T> offset_data(std::size_t n, double offset, double spread, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, spread);
  std::vector<T> x(n);
  for (T& v : x)
    v = static_cast<T>(offset + u(g));
  return x;
}

// The data of the cases below: the report's four and more of each kind.
std::vector<std::vector<double>> hard_f64() {
  std::vector<std::vector<double>> out = {
      offset_data<double>(5000, 1e8, 1e-3, 11), offset_data<double>(100000, 1e12, 1, 12),
      offset_data<double>(100000, 1e9, 1, 13), offset_data<double>(77777, -3e15, 7, 14),
      offset_data<double>(3, 1e16, 8, 15),
      // A small spread at a small magnitude: the scaled state keeps it as a normal double.
      offset_data<double>(1000, 1e-140, 1e-141, 16)};
  // The variance near f64's largest value: the squared deviations fit, their sum over n need not.
  out.push_back({1.5 * std::ldexp(1.0, 511), -std::ldexp(1.0, 511)});
  std::vector<double> pairs;
  for (int k = 0; k < 500; ++k)
    pairs.insert(pairs.end(), {1.5 * std::ldexp(1.0, 511), -std::ldexp(1.0, 511)});
  out.push_back(pairs);
  // Two elements whose own variance overflows among many zeros: the whole one does not.
  std::vector<double> spike(100000, 0.0);
  spike[123] = std::ldexp(1.0, 515);
  spike[77777] = -std::ldexp(1.0, 515);
  out.push_back(spike);
  return out;
}

// The floor of a relative error over n elements in a float of this epsilon: a rounding per level
// of a pairwise tree, two per merge of a work-item's run (measured: 17 eps at n = 1e5).
double floor_for(std::size_t n, double eps) {
  return (8 + 2 * std::log2(static_cast<double>(n))) * eps;
}
constexpr double kEps64 = std::numeric_limits<double>::epsilon();

}  // namespace

TEST_CASE("stats accuracy: var and std at the default level, a large offset and a small spread") {
  // The hard data are f64.
  if (!fp64()) FAIL("the device has no fp64: this test checked nothing");
  const std::vector<std::vector<double>> data = hard_f64();
  for (std::size_t k = 0; k < data.size(); ++k) {
    const std::vector<double>& x = data[k];
    CAPTURE(k);
    CAPTURE(x.size());
    const rdx::StatResult v = stat(rdx::Stat::Var, x, {}), s = stat(rdx::Stat::Std, x, {});
    CHECK(v.plan.strategy != "exact_sum");
    check_default_level<double>(x, v.value.as<double>(), s.value.as<double>(),
                                floor_for(x.size(), kEps64));
  }
  // A variance beyond f64's range is +inf; its square root is finite.
  const std::vector<double> huge = {std::ldexp(1.0, 540), -std::ldexp(1.0, 540)};
  CHECK(stat(rdx::Stat::Var, huge, {}).value.as<double>() ==
        std::numeric_limits<double>::infinity());
  CHECK(stat(rdx::Stat::Std, huge, {}).value.as<double>() == std::ldexp(1.0, 540));
}

TEST_CASE("stats accuracy: var and std of f32 data, in f64 and in f32") {
  const std::vector<float> x = offset_data<float>(100003, 1e4, 1, 21);
  rdx::Options o;
  if (fp64()) {
    const rdx::StatResult v = stat(rdx::Stat::Var, x, o), s = stat(rdx::Stat::Std, x, o);
    REQUIRE(v.value.type == rdx::Type::F64);
    check_default_level<double>(x, v.value.as<double>(), s.value.as<double>(),
                                floor_for(x.size(), kEps64));
  }
  o.acc = rdx::Type::F32;
  // The last: a std near 3e-16, whose variance a scaled state would keep as an f32 subnormal.
  for (const std::vector<float>& y :
       {x, offset_data<float>(30000, 3e6, 0.5, 22), offset_data<float>(4097, -1e7, 4, 23),
        offset_data<float>(4096, 1e-10, 1e-15, 24)}) {
    CAPTURE(y.size());
    const rdx::StatResult v = stat(rdx::Stat::Var, y, o), s = stat(rdx::Stat::Std, y, o);
    REQUIRE(v.value.type == rdx::Type::F32);
    check_default_level<float>(y, v.value.as<float>(), s.value.as<float>(),
                               floor_for(y.size(), std::numeric_limits<float>::epsilon()));
  }
}

TEST_CASE("stats accuracy: var and std per segment and along an axis") {
  if (!fp64()) FAIL("the device has no fp64 (the hard data are f64): this test checked nothing");
  // Segments of the hard data, each a different size (1, 2, a few, thousands).
  std::vector<double> x;
  std::vector<std::uint64_t> offsets = {0};
  for (const std::vector<double>& d : hard_f64()) {
    x.insert(x.end(), d.begin(), d.end());
    offsets.push_back(x.size());
  }
  for (double v : {5.0, -7.0, 5.0}) {
    x.push_back(1e14 + v);
    offsets.push_back(x.size());
  }
  const rdx::Array in[] = {rdx::Array::of(std::span<const double>(x))};
  const rdx::SegmentedStats v = rdx::reduce_segments(ctx(), rdx::Stat::Var, in, x.size(), offsets),
                            s = rdx::reduce_segments(ctx(), rdx::Stat::Std, in, x.size(), offsets);
  REQUIRE(v.size() == offsets.size() - 1);
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
    const std::vector<double> seg(x.begin() + static_cast<std::ptrdiff_t>(offsets[k]),
                                  x.begin() + static_cast<std::ptrdiff_t>(offsets[k + 1]));
    CAPTURE(k);
    if (seg.size() == 1) {
      CHECK(v.value(k).as<double>() == 0);
      continue;
    }
    check_default_level<double>(seg, v.value(k).as<double>(), s.value(k).as<double>(),
                                floor_for(seg.size(), kEps64));
  }
  // Rows of 1e12 plus a spread of 1 (each row its own offset), along both axes.
  const std::uint64_t rows = 300, cols = 257;
  std::vector<double> a = offset_data<double>(rows * cols, 1e12, 1, 31);
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c)
      a[r * cols + c] += 1e10 * static_cast<double>(c % 5);
  const rdx::Array ain[] = {rdx::Array::of(std::span<const double>(a))};
  const std::uint64_t shape[] = {rows, cols};
  for (std::size_t axis : {0, 1}) {
    CAPTURE(axis);
    const rdx::SegmentedStats av = rdx::reduce_axis(ctx(), rdx::Stat::Var, ain, shape, axis),
                              as = rdx::reduce_axis(ctx(), rdx::Stat::Std, ain, shape, axis);
    const std::uint64_t outs = axis == 0 ? cols : rows, len = axis == 0 ? rows : cols;
    REQUIRE(av.size() == outs);
    for (std::uint64_t k = 0; k < outs; ++k) {
      std::vector<double> line(len);
      for (std::uint64_t j = 0; j < len; ++j)
        line[j] = axis == 0 ? a[j * cols + k] : a[k * cols + j];
      CAPTURE(k);
      check_default_level<double>(line, av.value(k).as<double>(), as.value(k).as<double>(),
                                  floor_for(len, kEps64));
    }
  }
}
