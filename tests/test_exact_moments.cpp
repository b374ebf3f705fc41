// var and std under rdx::Determinism AnyDevice and Exact: the correctly rounded population variance
// and its square root, checked against GMP (every element scaled by 2^1074, its square by
// 2^2148) by the rounding rule itself: the result's neighbours' midpoints bracket the exact value.
// Then the same bits across grids, work-group sizes, windows, levels and device buffers, and the
// documented edges (empty, one element, NaN, infinities, a square that overflows).
#include <doctest/doctest.h>
#include <fmt/format.h>

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
  if (!std::isfinite(r) || r < 0) return fmt::format("{} for a finite variance", r);
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
      return fmt::format("{:a} is nearer than {:a}", static_cast<double>(nb),
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
  if (!fp64()) return;
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
