// Internal: the rule of float products on the host, the same as cl/common.h's prod_combine and
// to_acc (whose PROD_MARK the host generates from kInfMark). A zero factor gives 0 unless the input
// holds NaN or an infinity: an input infinity is carried through the reduction as a marked NaN
// (kInfMark, with the infinity's sign), apart from an infinity that a product overflowed to, which
// a zero absorbs. public_value() turns the mark back into an infinity once every partial result has
// been combined.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace rdx::detail {

template <class A>
struct ProdBits {
  using Bits = std::conditional_t<sizeof(A) == 4, std::uint32_t, std::uint64_t>;
  static constexpr Bits kSign = Bits{1} << (sizeof(A) * 8 - 1);
  // The payload of the mark (ops/cl_definitions.cpp hands it to the kernels as PROD_MARK).
  static constexpr Bits kInfMark = sizeof(A) == 4 ? Bits(0x7fc1f000u) : Bits(0x7ff801f000000000ull);
  static Bits bits(A a) {
    Bits b;
    std::memcpy(&b, &a, sizeof b);
    return b;
  }
  static A from(Bits b) {
    A a;
    std::memcpy(&a, &b, sizeof a);
    return a;
  }
  static bool is_mark(A a) { return (bits(a) & ~kSign) == kInfMark; }
  // Magnitude `mag` (the mark, or 0) with the sign of a * b.
  static A signed_like_product(Bits mag, A a, A b) {
    return from(mag | ((bits(a) ^ bits(b)) & kSign));
  }
};

// An input element, converted to the accumulator, as a float product's state.
template <class A>
A prod_input(A v) {
  using P = ProdBits<A>;
  if (std::isnan(v)) return std::numeric_limits<A>::quiet_NaN();
  if (std::isinf(v)) return P::from(P::kInfMark | (P::bits(v) & P::kSign));
  return v;
}

// Two float product states combined.
template <class A>
A prod_combine(A a, A b) {
  using P = ProdBits<A>;
  const bool ma = P::is_mark(a), mb = P::is_mark(b);
  if (ma || mb) {
    if ((std::isnan(a) && !ma) || (std::isnan(b) && !mb))
      return std::numeric_limits<A>::quiet_NaN();
    if ((ma ? b : a) == A(0)) return std::numeric_limits<A>::quiet_NaN();  // 0 * an input inf
    return P::signed_like_product(P::kInfMark, a, b);
  }
  const A r = a * b;
  // NaN from two non-NaN factors is 0 * an overflowed product: the exact product is 0.
  return std::isnan(r) && !std::isnan(a) && !std::isnan(b) ? P::signed_like_product(0, a, b) : r;
}

// A float product's final state as the user sees it: the mark is an infinity.
template <class A>
A prod_public(A a) {
  using P = ProdBits<A>;
  if (!P::is_mark(a)) return a;
  return (P::bits(a) & P::kSign) ? -std::numeric_limits<A>::infinity()
                                 : std::numeric_limits<A>::infinity();
}

}  // namespace rdx::detail
