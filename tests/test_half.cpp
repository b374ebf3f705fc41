// rdx::f16 and rdx::bf16 (rdx/half.hpp): conversions against references written independently
// of them, no device. NumPy checks f16 again in tests/numpy_test.py (cli.numpy).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "rdx/reduce.hpp"
#include "rdx/types.hpp"

using namespace rdx;

namespace {

// IEEE binary16's value from its fields, by the standard's formula.
double f16_formula(std::uint16_t b) {
  const int s = b >> 15, e = (b >> 10) & 0x1f, m = b & 0x3ff;
  double v;
  if (e == 31)
    v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (e == 0)
    v = m * std::pow(2.0, -24);
  else
    v = (1 + m / 1024.0) * std::pow(2.0, e - 15);
  return s ? -v : v;
}

// bfloat16 from a float: the float's upper 16 bits after rounding its lower 16 to nearest, ties
// to even (the usual bit trick; NaN handled apart).
std::uint16_t bf16_of_float_bits(std::uint32_t f) {
  return static_cast<std::uint16_t>((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
}

}  // namespace

TEST_CASE("f16: each of the 65536 values is IEEE binary16's, and converts back to its bits") {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    CAPTURE(b);
    const auto h = f16::from_bits(static_cast<std::uint16_t>(b));
    const float v = h;
    const double want = f16_formula(static_cast<std::uint16_t>(b));
    if (std::isnan(want)) {
      CHECK(std::isnan(v));
      CHECK(std::isnan(static_cast<float>(f16(v))));
      continue;
    }
    CHECK(static_cast<double>(v) == want);
    CHECK(std::signbit(v) == ((b & 0x8000u) != 0));
    CHECK(f16(v).bits == b);
    CHECK(f16(static_cast<double>(v)).bits == b);
  }
}

TEST_CASE("f16: rounding to nearest, ties to even, overflow and underflow") {
  CHECK(f16(1.0 + 0x1p-11).bits == 0x3c00);            // a tie: to the even 1.0
  CHECK(f16(1.0 + 3 * 0x1p-11).bits == 0x3c02);        // a tie: to the even 1 + 2^-9
  CHECK(f16(1.0 + 0x1p-11 + 0x1p-30).bits == 0x3c01);  // above the tie
  CHECK(f16(65504.0).bits == 0x7bff);                  // the largest finite
  CHECK(f16(65519.99).bits == 0x7bff);                 // below the midpoint to 2^16
  CHECK(f16(65520.0).bits == 0x7c00);                  // the midpoint rounds to even: infinity
  CHECK(f16(-1e10).bits == 0xfc00);
  CHECK(f16(0x1p-24).bits == 0x0001);  // the least subnormal
  CHECK(f16(0x1p-25).bits == 0x0000);  // half of it: a tie, to even zero
  CHECK(f16(0x1p-25 + 0x1p-40).bits == 0x0001);
  CHECK(f16(-0.0).bits == 0x8000);
  CHECK(f16(0x1p-14 - 0x1p-25).bits == 0x0400);  // rounds up into the least normal
  CHECK(f16(0.1).bits == 0x2e66);
  CHECK(f16(std::numeric_limits<double>::quiet_NaN()).bits == 0x7e00);
  CHECK(static_cast<float>(std::numeric_limits<f16>::max()) == 65504.0f);
  CHECK(static_cast<float>(std::numeric_limits<f16>::epsilon()) == 0x1p-10f);
  CHECK(static_cast<float>(std::numeric_limits<f16>::min()) == 0x1p-14f);
  CHECK(static_cast<float>(std::numeric_limits<f16>::lowest()) == -65504.0f);
}

TEST_CASE("bf16: a float's upper half, rounded to nearest, ties to even") {
  // Every bf16 value is a float whose lower 16 bits are zero.
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto h = bf16::from_bits(static_cast<std::uint16_t>(b));
    const float v = h;
    const float want = std::bit_cast<float>(b << 16);
    if (std::isnan(want)) {
      CHECK(std::isnan(v));
      continue;
    }
    CHECK(std::bit_cast<std::uint32_t>(v) == (b << 16));
    CHECK(bf16(v).bits == b);
  }
  // Floats of every exponent, rounded: against the bit trick.
  std::uint64_t s = 12345;
  for (int i = 0; i < 200000; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const auto f = static_cast<std::uint32_t>(s >> 32);
    const float x = std::bit_cast<float>(f);
    if (std::isnan(x)) continue;
    CAPTURE(f);
    CHECK(bf16(x).bits == bf16_of_float_bits(f));
  }
  CHECK(bf16(std::numeric_limits<float>::max()).bits == 0x7f80);  // rounds up to infinity
  CHECK(static_cast<float>(std::numeric_limits<bf16>::max()) == std::bit_cast<float>(0x7f7f0000u));
}

TEST_CASE("16-bit floats in Scalar: shortest text, conversions, accumulators") {
  CHECK(Scalar::of(f16(0.1)).to_string() == "0.1");
  CHECK(Scalar::of(f16(65504.0)).to_string() == "65500");  // NumPy prints 65500.0
  CHECK(Scalar::of(bf16(3.140625)).to_string() == "3.14");
  CHECK(Scalar::of(f16(-2.503395e-06)).to_string() == "-2.5e-06");  // a subnormal
  CHECK(Scalar::of(f16::from_bits(0x7e00)).to_string() == "nan");
  CHECK(Scalar::of(f16::from_bits(0xfc00)).to_string() == "-inf");
  CHECK(Scalar::of(0.1f).as<f16>().bits == 0x2e66);
  CHECK(Scalar::of(f16(0.1)).as<double>() == static_cast<double>(f16_formula(0x2e66)));
  CHECK_THROWS_AS(Scalar::of(f16::from_bits(0x7e00)).as<int>(), ArgumentError);
  CHECK(type_of<f16>() == Type::F16);
  CHECK(type_of<bf16>() == Type::BF16);
  CHECK(is_float(Type::F16));
  CHECK(size_of(Type::BF16) == 2);
  CHECK(npy_descr(Type::F16) == "<f2");
  CHECK(type_of_npy("<f2") == Type::F16);
  CHECK_THROWS_AS(identity(Op::Sum, Type::F16), ArgumentError);  // not an accumulator
  // f16 holds every u8 and i8 value, bf16 every i8 but not u8's 255... which it does hold:
  // 255 needs 8 significand bits, bf16 has 8.
  CHECK(holds_every_value(Type::F16, Type::U8));
  CHECK(holds_every_value(Type::BF16, Type::U8));
  CHECK_FALSE(holds_every_value(Type::F16, Type::I16));
  CHECK_FALSE(holds_every_value(Type::BF16, Type::F16));  // 11 significand bits into 8
  CHECK_FALSE(holds_every_value(Type::F16, Type::BF16));  // bf16's range is float's
  CHECK(holds_every_value(Type::F32, Type::F16));
  CHECK(holds_every_value(Type::F32, Type::BF16));
}
