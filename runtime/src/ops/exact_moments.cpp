// var and std from exact sums (exact_moments.hpp). Boost.Multiprecision's cpp_int (header-only,
// Debian's libboost-dev) holds the numbers of up to about 4500 bits that the formula needs.
#include "ops/exact_moments.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/type_table.hpp"

namespace rdx::detail {
namespace {

using Big = boost::multiprecision::cpp_int;

// The exact sum's value in units of 2^lsb: sum of digits[k] * 2^(32k).
Big value_of(const ExactSum& s) {
  Big v = 0;
  for (std::size_t k = s.digits.size(); k-- > 0;) {
    v <<= 32;
    v += s.digits[k];
  }
  return v;
}

std::int64_t bits_of(const Big& v) {  // v > 0
  return static_cast<std::int64_t>(boost::multiprecision::msb(v)) + 1;
}

// q * 2^e, plus something in (0, 2^e) when `sticky` (q > 0), rounded to nearest, ties to even, in
// acc; q has at least acc's precision + 2 bits whenever `sticky`, so the rounding sees every bit
// it needs.
double round_scaled(const Big& q, std::int64_t e, bool sticky, Type acc) {
  const TypeRow& r = type_row(acc);
  const int precision = r.digits;
  const std::int64_t acc_lsb = r.min_exp - r.digits;  // the smallest subnormal's exponent
  const std::int64_t top = bits_of(q) - 1;
  // The result's last bit, as a bit index of q: q's precision-th bit, or acc's smallest
  // subnormal's.
  const std::int64_t shift = std::max<std::int64_t>(top - (precision - 1), acc_lsb - e);
  if (shift <= 0 && sticky) throw std::logic_error("round_scaled: too few bits");
  Big kept = shift > 0 ? Big(q >> static_cast<unsigned>(shift)) : q;
  if (shift > 0) {
    const Big rest = q - (kept << static_cast<unsigned>(shift));
    const Big half = Big(1) << static_cast<unsigned>(shift - 1);
    if (rest > half || (rest == half && (sticky || bit_test(kept, 0)))) ++kept;
  }
  // kept <= 2^precision: exact in a double.
  double v = std::ldexp(kept.convert_to<double>(),
                        static_cast<int>(std::clamp<std::int64_t>(
                            std::max<std::int64_t>(shift, 0) + e, -2200, 2200)));
  // Past acc's largest finite value, (2 - 2^(1 - precision)) * 2^(max_exp - 1): an infinity.
  if (v > std::ldexp(2 - std::ldexp(1.0, 1 - precision), r.max_exp - 1))
    v = std::numeric_limits<double>::infinity();
  return v;
}

// floor(num * 2^s / den) for s of either sign, with whether the division left a remainder.
std::pair<Big, bool> scaled_quotient(const Big& num, const Big& den, std::int64_t s) {
  Big a = num, b = den;
  if (s >= 0)
    a <<= static_cast<unsigned>(s);
  else
    b <<= static_cast<unsigned>(-s);
  Big q, r;
  boost::multiprecision::divide_qr(a, b, q, r);
  return {q, r != 0};
}

}  // namespace

Scalar exact_variance(const ExactSum& s1, Type t1, std::span<const ExactSum> s2, std::uint64_t n,
                      Type acc, bool root) {
  const auto as_acc = [&](double v) {
    return acc == Type::F32 ? Scalar::of(static_cast<float>(v)) : Scalar::of(v);
  };
  constexpr std::uint32_t kNotFinite = kExactNaN | kExactPosInf | kExactNegInf;
  if (n == 0 || (s1.flags & kNotFinite)) return as_acc(std::numeric_limits<double>::quiet_NaN());
  std::uint32_t flags2 = 0;
  for (const ExactSum& s : s2)
    flags2 |= s.flags;
  if (flags2 & kNotFinite) return as_acc(std::numeric_limits<double>::infinity());

  // var = S2 / n - S1^2 / n^2 with S1 = A * 2^l1 and S2 = B * 2^l2:
  //     = (n * B * 2^(l2 - e) - A^2 * 2^(2 l1 - e)) / n^2 * 2^e,  e = min(l2, 2 l1).
  const std::int64_t l1 = exact_layout(t1).lsb, l2 = exact_layout(Type::F64).lsb;
  const std::int64_t e0 = std::min(l2, 2 * l1);
  Big b = 0;
  for (const ExactSum& s : s2)
    b += value_of(s);
  const Big a = value_of(s1);
  Big num = (Big(n) * b << static_cast<unsigned>(l2 - e0)) -
            (a * a << static_cast<unsigned>(2 * l1 - e0));
  const Big den = Big(n) * Big(n);
  // Negative only when squares lost bits below 2^-1074 (f64 elements below about 2^-485).
  if (num <= 0) return as_acc(0.0);
  std::int64_t e = e0;
  const int precision = type_row(acc).digits;
  const std::int64_t want = precision + 3;  // quotient bits: rounding needs precision + 2
  if (!root) {
    const std::int64_t s = want - (bits_of(num) - bits_of(den));
    const auto [q, rem] = scaled_quotient(num, den, s);
    return as_acc(round_scaled(q, e - s, rem, acc));
  }
  // sqrt(num / den * 2^e): e made even, then the integer square root of the quotient scaled
  // by 2^(2t); floor(sqrt(floor(x))) == floor(sqrt(x)), and the root is exact only when both the
  // division and the root are.
  if (e % 2 != 0) {
    num <<= 1;
    --e;
  }
  const std::int64_t t = want - (bits_of(num) - bits_of(den)) / 2 + 1;
  const auto [m, rem] = scaled_quotient(num, den, 2 * t);
  const Big r = boost::multiprecision::sqrt(m);
  return as_acc(round_scaled(r, e / 2 - t, rem || r * r != m, acc));
}

}  // namespace rdx::detail
