// The exact reference of the exact sums' tests (test_exact_sum.cpp, test_exact_moments.cpp):
// float values as GMP integers, scaled by 2^1074 (every double's bits are then integer bits).
#pragma once
#include <gmp.h>

#include <cmath>
#include <cstdint>

namespace rdx_test {

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

}  // namespace rdx_test
