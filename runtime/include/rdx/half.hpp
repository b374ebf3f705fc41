// The 16-bit floats librdx reduces: IEEE binary16 (rdx::f16, NumPy's float16) and bfloat16
// (rdx::bf16, the ml_dtypes package's bfloat16). They are storage types: an element is its 16
// bits, and every reduction computes in f32 (or f64), so a value converts to float exactly and
// a float or double converts to one rounded to nearest, ties to even, as NumPy converts.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace rdx {

namespace detail {

// A binary float of 16 bits: 1 sign bit, kExp exponent bits, kMant stored significand bits.
template <int kExp, int kMant>
struct Binary16 {
  static constexpr int kBias = (1 << (kExp - 1)) - 1;
  static constexpr std::uint16_t kExpMask = ((1u << kExp) - 1) << kMant;
  static constexpr std::uint16_t kMantMask = (1u << kMant) - 1;

  // 2^k as a double, exactly (k within double's normal range).
  static constexpr double pow2(int k) {
    double v = 1;
    for (; k > 0; --k)
      v *= 2;
    for (; k < 0; ++k)
      v /= 2;
    return v;
  }
  // A subnormal's unit, 2^(1 - kBias - kMant): a float (f16's a normal one, bf16's a subnormal).
  static constexpr float kSubnormalUnit = static_cast<float>(pow2(1 - kBias - kMant));

  // Exact. A normal value's bits are float's, re-biased (no library call: host loops convert
  // every element through this).
  static float decode(std::uint16_t b) {
    const std::uint32_t e = (b & kExpMask) >> kMant;
    const std::uint32_t m = b & kMantMask;
    float v;
    if (e == (1u << kExp) - 1) {
      v = m ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    } else if (e == 0) {
      v = static_cast<float>(m) * kSubnormalUnit;  // zero or subnormal: exact
    } else {
      const std::uint32_t bits = ((e - kBias + 127) << 23) | (m << (23 - kMant));
      std::memcpy(&v, &bits, sizeof v);
    }
    return (b & 0x8000u) ? -v : v;
  }

  // x rounded to nearest, ties to even; NaN gives the quiet NaN of its sign, beyond the largest
  // finite value an infinity.
  static std::uint16_t encode(double x) {
    const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
    if (std::isnan(x)) return sign | kExpMask | (1u << (kMant - 1));
    const double a = std::fabs(x);
    if (std::isinf(a)) return sign | kExpMask;
    if (a == 0) return sign;
    int e2 = 0;
    std::frexp(a, &e2);  // a = f * 2^e2, f in [0.5, 1): its leading bit is 2^(e2 - 1)
    int e = e2 - 1 < 1 - kBias ? 1 - kBias : e2 - 1;  // subnormals share the least exponent
    // The significand as an integer of kMant + 1 bits (fewer for a subnormal), rounded once:
    // a double holds a * 2^(kMant - e) exactly, and nearbyint rounds ties to even.
    double q = std::nearbyint(std::ldexp(a, kMant - e));
    if (q >= std::ldexp(1.0, kMant + 1)) {  // rounded up to the next power of two
      q = std::ldexp(1.0, kMant);
      ++e;
    }
    if (e > kBias) return sign | kExpMask;  // beyond the largest finite value
    const auto qi = static_cast<std::uint32_t>(q);
    if (qi < (1u << kMant)) return static_cast<std::uint16_t>(sign | qi);  // subnormal
    return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(e + kBias) << kMant) |
                                      (qi & kMantMask));
  }
};

}  // namespace detail

// A 16-bit float held as its bits. It converts to float implicitly (exactly), so comparisons
// and arithmetic on it are float's; a float or double converts to it only explicitly, rounded.
template <int kExp, int kMant>
struct Half16 {
  using Format = detail::Binary16<kExp, kMant>;
  std::uint16_t bits;  // no initializer: trivial, as float is

  Half16() = default;
  explicit Half16(double v) : bits(Format::encode(v)) {}
  static constexpr Half16 from_bits(std::uint16_t b) {
    Half16 h;
    h.bits = b;
    return h;
  }
  operator float() const { return Format::decode(bits); }
};

using f16 = Half16<5, 10>;  // IEEE binary16
using bf16 = Half16<8, 7>;  // bfloat16: float's exponent, 7 stored significand bits

template <class T>
inline constexpr bool is_half_v =
    std::is_same_v<std::remove_cv_t<T>, f16> || std::is_same_v<std::remove_cv_t<T>, bf16>;
// A float type librdx reduces: float, double, f16 or bf16.
template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || is_half_v<T>;

}  // namespace rdx

// std::numeric_limits for the two, as for float: digits count the implicit bit, exponents are
// numeric_limits' convention (the value is below 2^max_exp; 2^(min_exp - 1) is the least
// normal).
namespace std {
template <int kExp, int kMant>
class numeric_limits<rdx::Half16<kExp, kMant>> {
  using H = rdx::Half16<kExp, kMant>;
  static constexpr int kBias = (1 << (kExp - 1)) - 1;

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr bool is_iec559 = kExp == 5;
  static constexpr bool is_bounded = true;
  static constexpr int digits = kMant + 1;
  static constexpr int radix = 2;
  static constexpr int min_exponent = 2 - kBias;
  static constexpr int max_exponent = kBias + 1;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr H min() { return H::from_bits(1u << kMant); }
  static constexpr H max() {
    return H::from_bits(static_cast<std::uint16_t>(((1u << (kExp + kMant)) - 1) - (1u << kMant)));
  }
  static constexpr H lowest() { return H::from_bits(max().bits | 0x8000u); }
  static constexpr H epsilon() {
    return H::from_bits(static_cast<std::uint16_t>((kBias - kMant) << kMant));
  }
  static constexpr H infinity() { return H::from_bits(((1u << kExp) - 1) << kMant); }
  static constexpr H quiet_NaN() {
    return H::from_bits(static_cast<std::uint16_t>(infinity().bits | (1u << (kMant - 1))));
  }
  static constexpr H denorm_min() { return H::from_bits(1); }
};
}  // namespace std
