// The exact sum's host side (exact_sum.hpp): carries, negation and rounding on 32-bit digits.
#include "ops/exact_sum.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/type_table.hpp"

namespace rdx::detail {
namespace {

constexpr std::int64_t kBase = kExactDigitBase;

// propagate_carries where no word can overflow: digits a kernel or add_exact made.
void propagate(std::vector<std::int64_t>& d) {
  if (!propagate_carries(d)) throw std::logic_error("exact sum: a carry overflows its digit");
}

bool bit(const std::vector<std::int64_t>& mag, std::int64_t i) {
  if (i < 0) return false;
  const auto k = static_cast<std::size_t>(i / 32);
  return k < mag.size() && ((mag[k] >> (i % 32)) & 1);
}

// Any bit below i set.
bool any_below(const std::vector<std::int64_t>& mag, std::int64_t i) {
  for (std::int64_t j = 0; j < i && j / 32 < static_cast<std::int64_t>(mag.size()); j += 32) {
    const auto k = static_cast<std::size_t>(j / 32);
    const std::int64_t bits = std::min<std::int64_t>(32, i - j);
    const std::int64_t mask = bits == 32 ? kBase - 1 : (std::int64_t{1} << bits) - 1;
    if (mag[k] & mask) return true;
  }
  return false;
}

// The row of the float type t's values are computed in (computed_type: f16 and bf16 are
// f32's), whose layout the kernels see (they read elements through LOAD_T, as computed values).
const TypeRow& float_row(Type t, const char* what) {
  if (!type_row(t).is_float) throw std::logic_error(std::string(what) + ": a float type");
  return type_row(computed_type_of(t));
}

// The unsigned integer OpenCL C type of a float type's bits: the unsigned row of its size.
std::string_view bits_type(const TypeRow& f) {
  for (const TypeRow& r : kTypeRows)
    if (!r.is_float && !r.is_signed && r.size == f.size) return r.cl_name;
  throw std::logic_error("exact_cl_options: no unsigned type of a float's size");
}

}  // namespace

bool propagate_carries(std::vector<std::int64_t>& d) {
  constexpr std::int64_t lo = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int64_t>::max();
  for (std::size_t k = 0; k + 1 < d.size(); ++k) {
    const std::int64_t low = d[k] & (kBase - 1);
    const std::int64_t carry = (d[k] - low) / kBase;  // exact: d[k] - low is a multiple
    if (carry > 0 ? d[k + 1] > hi - carry : d[k + 1] < lo - carry) return false;
    d[k] = low;
    d[k + 1] += carry;
  }
  return true;
}

// From the row of the float type the values are computed in (float_row): the lowest bit is the
// least subnormal's, 2^(min_exp - digits); the digits cover up to 2^max_exp plus 64 bits of carries
// (f32: 2^-149 .. 2^128, 341 bits in 11 digits; f64: 2^-1074 .. 2^1024, 2162 bits in 68).
ExactLayout exact_layout(Type in) {
  const TypeRow& r = float_row(in, "exact_layout");
  const int lsb = r.min_exp - r.digits;
  const int bits = r.max_exp - lsb + 64;
  return {static_cast<std::size_t>((bits + 31) / 32), lsb};
}

std::string exact_cl_options(Type in, std::optional<Type> round_into) {
  const TypeRow& r = float_row(in, "exact_cl_options");
  const ExactLayout layout = exact_layout(in);
  // The exponent field's width: max_exp = 2^(width - 1) (IEEE 754's binary formats).
  const int exp_ones = 2 * r.max_exp - 1;
  std::string s = detail::format(
      "-DEXACT_T={} -DBITS_T={} -DDIGITS={} -DMANT_BITS={} -DEXP_ONES={} -DBIAS={} -DLSB={} "
      "-DSIGN_SHIFT={}",
      r.cl_name, bits_type(r), layout.digits, r.digits - 1, exp_ones, r.max_exp - 1, layout.lsb,
      8 * r.size - 1);
  if (round_into) {
    const TypeRow& a = float_row(*round_into, "exact_cl_options");
    s += detail::format(
        " -DEXACT_ROUND -DR_T={} -DR_BITS_T={} -DR_PREC={} -DR_LSB={} -DR_BIAS={} "
        "-DR_EXP_ONES={}ul",
        a.cl_name, bits_type(a), a.digits, a.min_exp - a.digits, a.max_exp - 1, 2 * a.max_exp - 1);
  }
  return s;
}

ExactSum exact_zero(Type in) {
  return {std::vector<std::int64_t>(exact_layout(in).digits, 0), 0};
}

void add_exact(ExactSum& a, const ExactSum& b) {
  if (a.digits.size() != b.digits.size()) throw std::logic_error("add_exact: layouts differ");
  ExactSum c = b;
  propagate(a.digits);
  propagate(c.digits);
  for (std::size_t k = 0; k < a.digits.size(); ++k)
    a.digits[k] += c.digits[k];
  a.flags |= b.flags;
}

Scalar round_exact(const ExactSum& s, Type in, Type acc, std::uint64_t count) {
  const bool f32 = acc == Type::F32;
  const auto as_acc = [&](double v) {
    return f32 ? Scalar::of(static_cast<float>(v)) : Scalar::of(v);
  };
  const double inf = std::numeric_limits<double>::infinity();
  if ((s.flags & kExactNaN) || ((s.flags & kExactPosInf) && (s.flags & kExactNegInf)))
    return as_acc(std::numeric_limits<double>::quiet_NaN());
  if (s.flags & kExactPosInf) return as_acc(inf);
  if (s.flags & kExactNegInf) return as_acc(-inf);

  std::vector<std::int64_t> mag = s.digits;
  propagate(mag);
  const bool negative = mag.back() < 0;
  if (negative) {
    for (auto& d : mag)
      d = -d;
    propagate(mag);
  }
  // The highest set bit.
  std::int64_t top = -1;
  for (std::size_t k = mag.size(); k-- > 0 && top < 0;)
    for (int b = 31; b >= 0 && top < 0; --b)
      if ((mag[k] >> b) & 1) top = static_cast<std::int64_t>(k) * 32 + b;
  if (top < 0) {
    const bool neg_zero = count > 0 && !(s.flags & kExactNotNegZero);
    return as_acc(neg_zero ? -0.0 : 0.0);
  }
  const TypeRow& a = float_row(acc, "round_exact");
  const int precision = a.digits;
  const int acc_lsb = a.min_exp - a.digits;
  const int lsb = exact_layout(in).lsb;
  // The result's last bit, as a bit index of mag: the top's precision-th bit, or the acc's
  // smallest subnormal's.
  const std::int64_t shift = std::max<std::int64_t>(top - (precision - 1), acc_lsb - lsb);
  // shift <= 0: the whole sum fits acc's precision (top < precision) and is exact.
  std::uint64_t q = 0;
  for (std::int64_t i = top; i >= std::max<std::int64_t>(shift, 0); --i)
    q = (q << 1) | (bit(mag, i) ? 1 : 0);
  if (shift > 0) {
    const bool half = bit(mag, shift - 1), sticky = any_below(mag, shift - 1);
    if (half && (sticky || (q & 1))) ++q;  // to nearest, ties to even (2^precision stays exact)
  }
  double v =
      std::ldexp(static_cast<double>(q), static_cast<int>(std::max<std::int64_t>(shift, 0) + lsb));
  if (v >= std::ldexp(1.0, a.max_exp)) v = inf;  // past acc's range (f64: ldexp is inf)
  return as_acc(negative ? -v : v);
}

Result rounded_result(const ExactSum& s, const Plan& plan, std::uint64_t count, double seconds) {
  return {round_exact(s, plan.type, plan.acc, count), std::nullopt, plan, seconds};
}

}  // namespace rdx::detail
