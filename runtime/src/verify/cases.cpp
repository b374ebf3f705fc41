// Data generators and the shared table of verification cases.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <set>

#include "core/text.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/verify.hpp"

namespace rdx {
namespace {

// splitmix64: small, fast and the same on every platform, so a seed names one data set.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

template <class F>
std::vector<unsigned char> fill(Type type, std::uint64_t n, F&& value_of) {
  if (n > std::numeric_limits<std::size_t>::max() / size_of(type))
    throw ArgumentError(
        fmt::format("{} elements of {} overflow a 64-bit byte count", n, name(type)));
  std::vector<unsigned char> out(n * size_of(type));
  visit_type(type, [&](auto z) {
    using T = decltype(z);
    T* p = reinterpret_cast<T*>(out.data());
    for (std::uint64_t i = 0; i < n; ++i)
      p[i] = value_of(T{}, i);
  });
  return out;
}

// The exponents of "wide"'s values for a float type of these std::numeric_limits whose sums
// accumulate in a type of largest exponent acc_max_exponent: from the smallest subnormal's
// (2^(min_exponent - digits)) to the largest finite value's (2^(max_exponent - 1)), but no higher
// than 33 below the accumulator's largest, so that 2^31 elements below 2^(hi + 1) sum below
// 2^(acc_max_exponent - 1), finite in any order of additions.
struct WideExponents {
  int lo = 0, hi = 0;
};
constexpr WideExponents wide_exponents(int min_exponent, int digits, int max_exponent,
                                       int acc_max_exponent) {
  return {min_exponent - digits, std::min(max_exponent - 1, acc_max_exponent - 33)};
}

}  // namespace

std::vector<unsigned char> generate(Type type, std::string_view pattern, std::uint64_t n,
                                    std::uint64_t seed) {
  if (pattern == "ones") return fill(type, n, [](auto z, std::uint64_t) { return decltype(z)(1); });
  if (pattern == "iota")
    return fill(type, n, [](auto z, std::uint64_t i) { return decltype(z)(i); });
  if (pattern.starts_with("mod:")) {
    std::uint64_t k = 0;
    const auto digits = pattern.substr(4);
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (ec != std::errc() || p != digits.data() + digits.size() || k == 0)
      throw ArgumentError(fmt::format("bad pattern '{}': mod:K needs an integer K >= 1",
                                      detail::printable(pattern)));
    return fill(type, n, [k](auto z, std::uint64_t i) { return decltype(z)(i % k); });
  }
  if (pattern == "random") {
    Rng rng{seed};
    return fill(type, n, [&](auto z, std::uint64_t) {
      using T = decltype(z);
      if constexpr (is_float_v<T>)
        return T(rng.unit());
      else
        return T(rng.next());
    });
  }
  if (pattern == "wide") {
    Rng rng{seed};
    // The largest exponent of a sum's accumulator (f16, bf16: f32; see wide_exponents).
    const int acc_max_exponent = visit_type(computed_type(type), [](auto a) {
      using A = decltype(a);
      if constexpr (is_float_v<A>)
        return std::numeric_limits<A>::max_exponent;
      else
        return 0;
    });
    return fill(type, n, [&](auto z, std::uint64_t) {
      using T = decltype(z);
      if constexpr (is_float_v<T>) {
        using L = std::numeric_limits<T>;
        const WideExponents w =
            wide_exponents(L::min_exponent, L::digits, L::max_exponent, acc_max_exponent);
        const int e =
            w.lo + static_cast<int>(rng.next() % static_cast<std::uint64_t>(w.hi - w.lo + 1));
        // 2^e times a significand of T's digits in [1, 2): exact in T where 2^e is normal (so
        // below 2^(hi + 1)), rounded among T's subnormals.
        constexpr int bits = L::digits - 1;
        const double significand =
            1.0 + std::ldexp(static_cast<double>(rng.next() >> (64 - bits)), -bits);
        const T v = static_cast<T>(std::ldexp(significand, e));
        return rng.next() & 1 ? T(-static_cast<double>(v)) : v;
      } else {
        return T(rng.next());
      }
    });
  }
  throw ArgumentError(
      fmt::format("unknown pattern '{}' (expected ones, iota, mod:K, random or wide)",
                  detail::printable(pattern)));
}

std::string_view name(Pattern p) {
  switch (p) {
    case Pattern::Random:
      return "random";
    case Pattern::Constant:
      return "constant";
    case Pattern::Small:
      return "small";
  }
  return "small";  // not a Pattern
}

std::vector<unsigned char> make_case_data(Type type, Op op, Pattern p, std::uint64_t n,
                                          std::uint64_t seed) {
  Rng rng{seed * 0x2545F4914F6CDD1Dull + static_cast<std::uint64_t>(op) * 131 +
          static_cast<std::uint64_t>(type)};
  // The data follow the operator's combine rule (ops/operators.hpp), so an operator that
  // multiplies gets data that keep products in range, whichever operator it is.
  const detail::Combine rule = detail::op_row(op).combine;
  const bool mul = rule == detail::Combine::Mul;
  return fill(type, n, [&](auto z, std::uint64_t) {
    using T = decltype(z);
    if (p == Pattern::Constant) {
      // A float product of n copies of 1 stays exact; 3 wraps for integers and is exact for sums;
      // `and` of all bits set keeps every bit.
      if constexpr (is_float_v<T>)
        return mul ? T(1) : T(3);
      else
        return T(rule == detail::Combine::And ? ~T(0) : 3);
    }
    if (p == Pattern::Small) {
      if (mul) return T(1 + rng.next() % 2);  // ones and twos: exact while it fits
      return T(rng.next() % 16);
    }
    if constexpr (is_half_v<T>) {
      // A 16-bit float rounds 1 + x of a small x to 1 above 1 and below it unevenly, so a
      // product would drift to 0: its factors are 1 + eps (a third) and 1 - eps / 2, whose
      // logarithms cancel to first order.
      const double eps = std::numeric_limits<T>::epsilon();
      if (mul) return rng.next() % 3 == 0 ? T(1.0 + eps) : T(1.0 - eps / 2);
      return T(rng.unit() * 2 - 1);
    } else if constexpr (is_float_v<T>) {
      // Products near 1 stay in range for any n; other operators get signed values in [-1, 1).
      if (mul) return T(1.0 + (rng.unit() - 0.5) * 0x1.0p-10);
      return T(rng.unit() * 2 - 1);
    } else {
      return T(rng.next());  // all bits: sums and products wrap
    }
  });
}

std::vector<std::uint64_t> case_sizes(std::size_t wg, std::uint64_t max_n, int random_sizes,
                                      std::uint64_t seed) {
  const std::uint64_t w = wg;
  std::set<std::uint64_t> s = {0, 1, 2, 3, 7919};  // 7919: a prime
  for (std::uint64_t d : {w - 1, w, w + 1, w * w - 1, w * w + 1})
    if (d) s.insert(d);
  s.insert((std::uint64_t{1} << 10) + 1);  // 2^k + 1 (2^16 +- 1 is wg^2 +- 1 for wg 256)
  s.insert((std::uint64_t{1} << 12) - 1);  // 2^k - 1
  Rng rng{seed};
  for (int i = 0; i < random_sizes; ++i)
    s.insert(1 + rng.next() % max_n);
  std::vector<std::uint64_t> v;
  for (auto x : s)
    if (x <= max_n || x < 2) v.push_back(x);
  return v;
}

std::vector<Case> verify_cases(std::size_t wg, bool fp64, std::uint64_t max_n, std::uint64_t seed) {
  std::vector<Case> out;
  const auto small_sizes = case_sizes(wg, std::min<std::uint64_t>(max_n, 1 << 17), 0, seed);
  Rng rng{seed};
  for (Type t : kAllTypes) {
    if (t == Type::F64 && !fp64) continue;
    for (Op op : kAllOps) {
      if (!op_allows(op, t)) continue;
      for (auto n : small_sizes) {
        out.push_back({t, op, n, Pattern::Random, seed + n});
        if (n == 3 || n == wg + 1 || n == 7919) out.push_back({t, op, n, Pattern::Small, seed + n});
      }
      out.push_back({t, op, 1000, Pattern::Constant, seed});
      if (max_n > (1 << 17))  // one large random size per type and operator
        out.push_back(
            {t, op, (1 << 17) + 1 + rng.next() % (max_n - (1 << 17)), Pattern::Random, seed + 7});
    }
  }
  return out;
}

}  // namespace rdx
