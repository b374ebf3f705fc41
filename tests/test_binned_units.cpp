// The fixed-bin sum's host operations (ops/binned_sum.cpp), without a device: one state for the
// same elements in any order and any split merged in any order (what makes AnyDevice's bits
// independent of the grid), its validity checks, and its value within the bound.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ops/binned_sum.hpp"

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace {

using rdx::detail::BinnedSum;

template <class F>
std::vector<double> data(std::uint64_t seed, int spread) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x;
  for (int k = 0; k < 20000; ++k)
    x.push_back(static_cast<F>(std::ldexp(u(g), static_cast<int>(g() % spread) - spread / 2)));
  x.push_back(std::numeric_limits<F>::max() / 4);  // bin 0's compressed deposits
  x.push_back(std::numeric_limits<F>::denorm_min() * 3);
  return x;
}

BinnedSum deposited(rdx::Type bin, const std::vector<double>& x, std::size_t b, std::size_t e) {
  BinnedSum s = rdx::detail::binned_zero(bin);
  for (std::size_t i = b; i < e; ++i)
    rdx::detail::deposit_binned(s, x[i]);
  return s;
}

template <class F>
void check_order_free(rdx::Type bin) {
  for (int spread : {4, 60, 2 * std::numeric_limits<F>::max_exponent}) {
    INFO("spread " << spread);
    std::vector<double> x = data<F>(static_cast<std::uint64_t>(spread), spread);
    const BinnedSum whole = deposited(bin, x, 0, x.size());
    const auto words = rdx::detail::binned_words(whole);
    CHECK(rdx::detail::binned_valid(whole, x.size()));
    std::mt19937_64 g(3);
    for (int round = 0; round < 3; ++round) {
      std::shuffle(x.begin(), x.end(), g);
      CHECK(rdx::detail::binned_words(deposited(bin, x, 0, x.size())) == words);
      // Pieces of random lengths, merged in a random order.
      std::vector<BinnedSum> parts;
      for (std::size_t at = 0; at < x.size();) {
        const std::size_t len = std::min<std::size_t>(x.size() - at, 1 + g() % 3000);
        parts.push_back(deposited(bin, x, at, at + len));
        at += len;
      }
      std::shuffle(parts.begin(), parts.end(), g);
      while (parts.size() > 1) {
        const std::size_t i = g() % (parts.size() - 1);
        rdx::detail::add_binned(parts[i], parts[i + 1]);
        parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      }
      CHECK(rdx::detail::binned_words(parts[0]) == words);
    }
    // Its value near the long double sum of these elements (where that does not overflow; the
    // device tests check every case against the exact sum).
    long double plain = 0, mag = 0;
    for (double v : x) {
      plain += v;
      mag += std::fabs(static_cast<long double>(v));
    }
    if (std::fabs(plain) < std::numeric_limits<F>::max() / 2 &&
        std::isfinite(static_cast<double>(mag))) {
      const rdx::Scalar r =
          rdx::detail::round_exact(rdx::detail::binned_exact(whole), bin, bin, x.size());
      const long double depth = static_cast<long double>(rdx::detail::binned_depth(bin, x.size()));
      CHECK(std::fabs(r.as<F>() - plain) <=
            depth * std::numeric_limits<F>::epsilon() * mag + std::fabs(plain) * 1e-18L);
    }
    // Not states a deposit makes.
    BinnedSum bad = whole;
    bad.car[1] = static_cast<std::int64_t>(x.size()) * 4;
    CHECK_FALSE(rdx::detail::binned_valid(bad, x.size()));
    bad = whole;
    bad.pri[2] = whole.pri[2] * 1.25;  // out of its renormed quarter
    CHECK_FALSE(rdx::detail::binned_valid(bad, x.size()));
    CHECK_FALSE(rdx::detail::binned_valid(whole, 0));
    CHECK(rdx::detail::binned_valid(rdx::detail::binned_zero(bin), 0));
    CHECK(rdx::detail::binned_lowest_bit(bin) == (bin == rdx::Type::F32 ? -118 : -1015));
  }
}

}  // namespace

TEST_CASE("binned sums on the host: one state in any order and split") {
  check_order_free<float>(rdx::Type::F32);
  check_order_free<double>(rdx::Type::F64);
}

// A device may flush f32 subnormals (OpenCL does not require them): the bins stop at the last
// normal grid, so flushing changes nothing. The host's SSE arithmetic with FTZ and DAZ stands in
// for such a device.
TEST_CASE("binned sums on the host: the same state with subnormals flushed" * doctest::skip(
#if defined(__SSE2__)
                                                                                  false
#else
                                                                                  true
#endif
                                                                                  )) {
#if defined(__SSE2__)
  const auto states = [](rdx::Type bin, const std::vector<double>& x) {
    std::vector<std::array<std::int64_t, 2 * rdx::detail::kBinnedFold>> out;
    for (std::size_t b = 0; b < x.size(); b += 97)
      out.push_back(rdx::detail::binned_words(deposited(bin, x, b, std::min(x.size(), b + 200))));
    out.push_back(rdx::detail::binned_words(deposited(bin, x, 0, x.size())));
    return out;
  };
  std::vector<double> f = data<float>(9, 2 * std::numeric_limits<float>::max_exponent);
  for (double v : {0x1p-130, 0x1p-110, 0x1p-128, 0x1p-126, -0x1p-149, 0x1.8p-120})
    f.push_back(v);
  std::vector<double> d = data<double>(9, 2 * std::numeric_limits<double>::max_exponent);
  for (double v : {0x1p-1030, 0x1p-1000, -0x1p-1074, 0x1p-1022})
    d.push_back(v);
  const auto ieee_f = states(rdx::Type::F32, f), ieee_d = states(rdx::Type::F64, d);
  struct Flushing {  // flush to zero and denormals are zero, until the scope ends
    unsigned int csr = _mm_getcsr();
    Flushing() { _mm_setcsr(csr | 0x8040u); }
    ~Flushing() { _mm_setcsr(csr); }
  };
  decltype(states(rdx::Type::F32, f)) ftz_f, ftz_d;
  {
    const Flushing flushing;
    ftz_f = states(rdx::Type::F32, f);
    ftz_d = states(rdx::Type::F64, d);
  }
  CHECK(ftz_f == ieee_f);
  CHECK(ftz_d == ieee_d);
#endif
}
