// Internal: the exact sum of float elements as the kernels of cl/exact_sum.cl compute it (a
// fixed-point integer of 32-bit digits, each held in a signed 64-bit word, and flags for NaN and
// infinities), combined and correctly rounded on the host. Pure: no OpenCL.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdx/plan.hpp"
#include "rdx/reduce.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

// Whether a plan keeps exact digits (a float sum under Determinism Exact).
inline bool is_exact(const Plan& p) {
  return p.state == StateForm::Digits;
}

// The layout for elements of `in` (a float type), from the row of the type its values are
// computed in (its own but for a type stored as another's bits): digit k is worth
// 2^(32k + lsb), lsb the smallest subnormal's exponent (f32 -149, f64 -1074); `digits` leave 64
// bits of headroom above the largest value.
struct ExactLayout {
  std::size_t digits = 0;
  int lsb = 0;
};
ExactLayout exact_layout(Type in);

// The build options of cl/exact_sum.cl and cl/exact_segments.cl for elements of `in`, from its
// type row and exact_layout: EXACT_T, BITS_T (the unsigned integer of its bits), DIGITS,
// MANT_BITS, EXP_ONES, BIAS, LSB, SIGN_SHIFT (cl/exact_digits.h); with `round_into`, EXACT_ROUND
// and the rounded type's R_T, R_BITS_T, R_PREC, R_LSB, R_BIAS, R_EXP_ONES.
std::string exact_cl_options(Type in, std::optional<Type> round_into);

// A digit's base: digit k + 1 is worth 2^32 times digit k.
inline constexpr std::int64_t kExactDigitBase = std::int64_t{1} << 32;

// Every digit but the last into [0, 2^32), its carry into the next, the last signed: the same
// value. False, with d partly carried, when a carry would overflow its word (digits from outside,
// such as a Partial's bytes).
bool propagate_carries(std::vector<std::int64_t>& d);

// The flags the kernels OR together (cl/exact_sum.cl has the same values).
inline constexpr std::uint32_t kExactNaN = 1, kExactPosInf = 2, kExactNegInf = 4,
                               kExactNotNegZero = 8;  // an element other than -0

struct ExactSum {
  std::vector<std::int64_t> digits;  // exact_layout(in).digits of them, any carries pending
  std::uint32_t flags = 0;
};

// An empty sum of elements of `in`.
ExactSum exact_zero(Type in);

// a += b: exact (carries are propagated first, so neither overflows).
void add_exact(ExactSum& a, const ExactSum& b);

// The sum rounded to nearest (ties to even) in acc (F32 or F64, at least as wide as in): NaN when
// an element is NaN or both infinities occur, else the infinity that occurs, else the rounded
// value (an infinity when it overflows); an exact zero is -0 only when every element was -0
// (count > 0).
Scalar round_exact(const ExactSum& s, Type in, Type acc, std::uint64_t count);

// The Result of plan (an exact_sum plan) whose exact sum over `count` elements is s: s rounded in
// plan.acc, and `seconds` of device time.
Result rounded_result(const ExactSum& s, const Plan& plan, std::uint64_t count, double seconds);

}  // namespace rdx::detail
