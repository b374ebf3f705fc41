// The exact reference of the exact sums' tests (test_exact_sum.cpp, test_exact_moments.cpp,
// test_exact_segments.cpp): float values as GMP integers, scaled by 2^1074 (every double's bits
// are then integer bits), the rounding rule checked against them (check_rounded), and the
// context the files share, and hard_cases: data that defeats plain sums (test_binned_sum.cpp too).
#pragma once
#include <gmp.h>

#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace rdx_test {

// The context of the exact sums' tests: device() ($RDX_DEVICE, else PoCL's CPU device).
inline rdx::Context& ctx() {
  static rdx::Context c(device());
  return c;
}

inline bool fp64() {
  return ctx().device_info().fp64;
}

// An exact integer: the value times 2^1074.
struct Exact {
  mpz_t z;
  Exact() { mpz_init(z); }
  ~Exact() { mpz_clear(z); }
  Exact(const Exact&) = delete;
  Exact& operator=(const Exact&) = delete;
};

// v (finite) times 2^1074, added to acc.
inline void add_scaled(mpz_t acc, double v) {
  if (v == 0) return;
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m * 2^e, 0.5 <= |m| < 1
  // |m| * 2^53 is an integer; v * 2^1074 = (m * 2^53) * 2^(e - 53 + 1074)
  const auto im = static_cast<std::int64_t>(std::ldexp(m, 53));
  mpz_t t;
  mpz_init_set_si(t, static_cast<long>(im));
  const int shift = e - 53 + 1074;
  if (shift >= 0)
    mpz_mul_2exp(t, t, static_cast<mp_bitcnt_t>(shift));
  else
    mpz_tdiv_q_2exp(t, t, static_cast<mp_bitcnt_t>(-shift));  // exact: v's bits end at 2^-1074
  mpz_add(acc, acc, t);
  mpz_clear(t);
}

template <class T>
void exact_sum(mpz_t out, const std::vector<T>& x) {
  mpz_set_ui(out, 0);
  for (T v : x)
    add_scaled(out, static_cast<double>(v));
}

// |s - r * 2^1074| into d.
inline void distance(mpz_t d, const mpz_t s, double r) {
  mpz_t rr;
  mpz_init(rr);
  add_scaled(rr, r);
  mpz_sub(d, s, rr);
  mpz_abs(d, d);
  mpz_clear(rr);
}

// "" when r (of type A) is the sum s of elements that are all finite, rounded to nearest, ties
// to even; `all_neg_zero`: every element was -0.
template <class A>
std::string check_rounded(const mpz_t s, A r, bool all_neg_zero) {
  if (std::isnan(r)) return "NaN for finite elements";
  if (std::isinf(r)) {
    // Overflow: |s| >= the largest finite value plus half its ulp.
    const A big = std::numeric_limits<A>::max();
    const double half_ulp =
        std::ldexp(1.0, std::numeric_limits<A>::max_exponent - std::numeric_limits<A>::digits - 1);
    mpz_t t, a;
    mpz_inits(t, a, nullptr);
    add_scaled(t, static_cast<double>(big));
    mpz_t h;
    mpz_init(h);
    add_scaled(h, half_ulp);
    mpz_add(t, t, h);
    mpz_abs(a, s);
    const bool ok = mpz_cmp(a, t) >= 0 && (mpz_sgn(s) > 0) == (r > 0);
    mpz_clears(t, a, h, nullptr);
    return ok ? "" : "an infinity below the overflow threshold";
  }
  if (mpz_sgn(s) == 0) {
    if (r != 0) return rdx::detail::format("{} for an exact 0", r);
    return std::signbit(r) == all_neg_zero ? "" : "the sign of zero";
  }
  mpz_t d, dn;
  mpz_inits(d, dn, nullptr);
  distance(d, s, static_cast<double>(r));
  std::string err;
  for (A n : {std::nextafter(r, std::numeric_limits<A>::infinity()),
              std::nextafter(r, -std::numeric_limits<A>::infinity())}) {
    if (std::isinf(n)) continue;
    distance(dn, s, static_cast<double>(n));
    const int c = mpz_cmp(d, dn);
    if (c > 0)
      err = rdx::detail::format("{:a} is nearer than {:a}", static_cast<double>(n),
                                static_cast<double>(r));
    if (c == 0) {  // a tie: r's last significand bit is 0
      int e = 0;
      const double m = std::frexp(static_cast<double>(r), &e);
      const int bits =
          std::min(std::numeric_limits<A>::digits,
                   e - std::numeric_limits<A>::min_exponent + std::numeric_limits<A>::digits);
      const auto q = static_cast<std::int64_t>(std::ldexp(std::fabs(m), bits));
      if (q & 1) err = rdx::detail::format("a tie rounded to odd {:a}", static_cast<double>(r));
    }
  }
  mpz_clears(d, dn, nullptr);
  return err;
}

// Data that defeats plain sums, for elements of T.
template <class T>
std::vector<std::pair<std::string, std::vector<T>>> hard_cases(std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  std::mt19937_64 g(seed);
  std::vector<std::pair<std::string, std::vector<T>>> all;
  // Catastrophic cancellation: 1e30, 1, -1e30 and shuffles of it.
  std::vector<T> c;
  for (int k = 0; k < 3000; ++k)
    for (T v : {T(1e30), T(1), T(-1e30)})
      c.push_back(v);
  all.emplace_back("1e30, 1, -1e30", c);
  std::shuffle(c.begin(), c.end(), g);
  all.emplace_back("1e30, 1, -1e30 shuffled", c);
  // The whole exponent range, both signs, subnormals included.
  std::vector<T> w;
  std::uniform_int_distribution<int> ex(L::min_exponent - L::digits, L::max_exponent - 1);
  std::uniform_real_distribution<double> mant(0.5, 1.0);
  for (int k = 0; k < 50000; ++k) {
    const T v = static_cast<T>(std::ldexp(mant(g), ex(g)));
    w.push_back(g() & 1 ? -v : v);
  }
  all.emplace_back("exponents across the range", w);
  // Subnormals only; signed zeros.
  std::vector<T> sub;
  for (int k = 0; k < 20000; ++k)
    sub.push_back(static_cast<T>((g() % 3 == 0 ? -1 : 1) * L::denorm_min() * T(g() % 1000)));
  all.emplace_back("subnormals", sub);
  all.emplace_back("-0 only", std::vector<T>(1000, T(-0.0)));
  all.emplace_back("-0 and +0", std::vector<T>{T(-0.0), T(0.0), T(-0.0)});
  // Long runs that lose their low bits in a plain sum.
  std::vector<T> runs(1, T(1));
  runs.insert(runs.end(), 200000, L::epsilon() / T(3));
  all.emplace_back("1 then many eps/3", runs);
  // Ties: 1 + 2^-digits (to even: 1), and (1 + 2^(1-digits)) + 2^-digits (up).
  all.emplace_back("a tie to even", std::vector<T>{T(1), std::ldexp(T(1), -L::digits)});
  all.emplace_back("a tie up", std::vector<T>{T(1) + L::epsilon(), std::ldexp(T(1), -L::digits)});
  // Near overflow: finite, and beyond.
  all.emplace_back("near overflow",
                   std::vector<T>{L::max(), L::max(), -L::max(), -L::max() / T(2)});
  all.emplace_back("overflow", std::vector<T>{L::max(), L::max() / T(2)});
  // For the double windows (cl/exact_sum.cl): most vectors fit one, and the others each one way
  // of not fitting: a tiny element (bits below the window), a larger one (a new window), an
  // infinity's neighbour near the top of the range, and a magnitude that drifts.
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<T> u(70000);
  for (T& v : u)
    v = static_cast<T>(unit(g));
  all.emplace_back("uniform in (-1, 1)", u);
  for (std::size_t i = 0; i < u.size(); i += 2999)
    u[i] = static_cast<T>(std::ldexp(unit(g), -80));
  for (std::size_t i = 1000; i < u.size(); i += 4999)
    u[i] = static_cast<T>(std::ldexp(unit(g), 40));
  all.emplace_back("uniform with rare tiny and large", u);
  std::vector<T> drift(70000);
  for (std::size_t i = 0; i < drift.size(); ++i)
    drift[i] = static_cast<T>(std::ldexp(unit(g), static_cast<int>(i / 1500 % 60) - 30));
  all.emplace_back("a drifting magnitude", drift);
  std::vector<T> edges(20000);
  for (std::size_t i = 0; i < edges.size(); ++i)
    edges[i] = static_cast<T>(std::ldexp(
        unit(g), i < 10000 ? L::max_exponent - 1 - int(i % 12) : L::min_exponent + int(i % 12)));
  all.emplace_back("near the ends of the exponent range", edges);
  return all;
}

// x pushed into s in pieces of uneven lengths (777 .. 5776 elements) that straddle its slots.
template <class T>
void push_in_pieces(rdx::Stream& s, const std::vector<T>& x) {
  for (std::size_t at = 0; at < x.size();) {
    const std::size_t m = std::min<std::size_t>(x.size() - at, 777 + at % 5000);
    s.push(x.data() + at, m);
    at += m;
  }
}

}  // namespace rdx_test
