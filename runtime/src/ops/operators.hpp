// Internal: the operators librdx reduces with, one descriptor each, and the single home of what
// an operator is: its name, its identity, how two states combine on the host, and the same
// combine as OpenCL C (which cl_definitions.cpp hands to the kernels). Every function here
// switches over all of rdx::Op with no default branch; the build treats a missing case as an
// error (-Werror=switch), so an operator that is not described here does not compile.
//
// Semantics (docs/semantics.md): integer sum and product wrap modulo 2^bits of the accumulator; NaN
// propagates through sum and product; min, max, argmin and argmax ignore NaN unless every
// element is NaN; argmin and argmax return the first index of the extreme value.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "ops/float_prod.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

struct OpRow {
  Op op;
  // The operator's byte in a Partial's byte form (api/partial.cpp): fixed, unlike the
  // enumerator's position, so that bytes written before an operator was added still read. A new
  // operator takes a code no row has; a code never changes.
  std::uint8_t wire;
  std::string_view name;   // rdx::name(op), `--op`
  std::string_view alias;  // also accepted by parse_op; empty when none
};

inline constexpr OpRow kOpRows[] = {
    {Op::Sum, 0, "sum", ""}, {Op::Prod, 1, "prod", "product"}, {Op::Min, 2, "min", ""},
    {Op::Max, 3, "max", ""}, {Op::And, 4, "and", ""},          {Op::Or, 5, "or", ""},
    {Op::Xor, 6, "xor", ""}, {Op::ArgMin, 7, "argmin", ""},    {Op::ArgMax, 8, "argmax", ""},
};

constexpr bool op_rows_follow_enum() {
  if (std::size(kOpRows) != std::size(kAllOps)) return false;
  for (std::size_t i = 0; i < std::size(kOpRows); ++i)
    if (kOpRows[i].op != kAllOps[i] || static_cast<std::size_t>(kAllOps[i]) != i) return false;
  return true;
}
static_assert(op_rows_follow_enum(), "kOpRows must list every rdx::Op in enum order");

constexpr bool op_wire_codes_unique() {
  for (std::size_t i = 0; i < std::size(kOpRows); ++i)
    for (std::size_t j = i + 1; j < std::size(kOpRows); ++j)
      if (kOpRows[i].wire == kOpRows[j].wire) return false;
  return true;
}
static_assert(op_wire_codes_unique(), "kOpRows: two operators share a wire code");

// The operator on values: argmin/argmax find their extreme value as min/max do.
constexpr Op value_op(Op op) {
  switch (op) {
    case Op::ArgMin:
      return Op::Min;
    case Op::ArgMax:
      return Op::Max;
    case Op::Sum:
    case Op::Prod:
    case Op::Min:
    case Op::Max:
    case Op::And:
    case Op::Or:
    case Op::Xor:
      return op;
  }
  return op;  // not an Op
}

// Whether the lanes of a vector of accumulators combine lane by lane (VCOMBINE): not for
// argmin/argmax (an index per element) nor float products (input infinities are marked one
// element at a time, cl/common.h's to_acc).
constexpr bool lanes_combine(Op op, Type acc) {
  switch (op) {
    case Op::ArgMin:
    case Op::ArgMax:
      return false;
    case Op::Prod:
      return acc != Type::F32 && acc != Type::F64;
    case Op::Sum:
    case Op::Min:
    case Op::Max:
    case Op::And:
    case Op::Or:
    case Op::Xor:
      return true;
  }
  return false;  // not an Op
}

// The index of an identity state of argmin/argmax (NO_INDEX in the kernels).
inline constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};

// The operator on two accumulator values (argmin/argmax: their value operator), with the
// kernels' semantics. Float products combine marked states (float_prod.hpp).
template <class A>
A combine_values(Op op, A x, A y) {
  if constexpr (std::is_floating_point_v<A>) {
    switch (value_op(op)) {
      case Op::Sum:
        return A(x + y);
      case Op::Prod:
        return prod_combine(x, y);
      case Op::Min:  // NaN loses
        return std::isnan(x) || (!std::isnan(y) && y < x) ? y : x;
      case Op::Max:
        return std::isnan(x) || (!std::isnan(y) && y > x) ? y : x;
      case Op::And:
      case Op::Or:
      case Op::Xor:     // make_plan refuses bitwise operators on floats
      case Op::ArgMin:  // value_op never gives these
      case Op::ArgMax:
        break;
    }
    return x;
  } else {
    using U = std::make_unsigned_t<A>;
    // Products are taken in an unsigned type never narrower than unsigned int, so that narrow
    // operands do not promote to signed int and overflow.
    using M = std::conditional_t<(sizeof(A) <= 4), std::uint32_t, std::uint64_t>;
    switch (value_op(op)) {
      case Op::Sum:
        return A(U(U(x) + U(y)));
      case Op::Prod:
        return A(U(M(U(x)) * M(U(y))));
      case Op::Min:
        return y < x ? y : x;
      case Op::Max:
        return y > x ? y : x;
      case Op::And:
        return A(x & y);
      case Op::Or:
        return A(x | y);
      case Op::Xor:
        return A(x ^ y);
      case Op::ArgMin:
      case Op::ArgMax:
        break;
    }
    return x;
  }
}

// The value an operator's partial states start from in the kernels (argmin/argmax: their value
// operator's). Float min/max start from NaN, which they ignore, so all-NaN input gives NaN.
template <class A>
A identity_value(Op op) {
  switch (value_op(op)) {
    case Op::Sum:
    case Op::Or:
    case Op::Xor:
      return A(0);
    case Op::Prod:
      return A(1);
    case Op::And:
      if constexpr (std::is_integral_v<A>) return A(~A(0));
      return A(0);  // make_plan refuses bitwise operators on floats
    case Op::Min:
      if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::quiet_NaN();
      return std::numeric_limits<A>::max();
    case Op::Max:
      if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::quiet_NaN();
      return std::numeric_limits<A>::lowest();
    case Op::ArgMin:
    case Op::ArgMax:
      break;
  }
  return A(0);
}

// An element as the operator's accumulator value (float products mark input infinities).
template <class A>
A input_value(Op op, A v) {
  if constexpr (std::is_floating_point_v<A>)
    if (op == Op::Prod) return prod_input(v);
  return v;
}

// A final value as the user sees it (a float product's marked input infinity is an infinity).
template <class A>
A public_value(Op op, A v) {
  if constexpr (std::is_floating_point_v<A>)
    if (op == Op::Prod) return prod_public(v);
  return v;
}

// One state of accumulator type A on the host: a value and, for argmin/argmax, its index.
template <class A>
struct TypedState {
  A value;
  std::uint64_t index;
};

// Two states combined. argmin/argmax: the identity (index kNoIndex) loses, then NaN loses to a
// number, then the extreme value wins; ties go to the first index.
template <class A>
TypedState<A> combine_states(Op op, const TypedState<A>& a, const TypedState<A>& b) {
  if (!is_index_op(op)) return {combine_values(op, a.value, b.value), 0};
  if (b.index == kNoIndex) return a;
  if (a.index == kNoIndex) return b;
  const A x = a.value, y = b.value;
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(x) || std::isnan(y)) {
      if (!std::isnan(y)) return b;
      if (!std::isnan(x)) return a;
      return b.index < a.index ? b : a;
    }
  }
  if (op == Op::ArgMin ? y < x : y > x) return b;
  if (op == Op::ArgMin ? x < y : x > y) return a;
  return b.index < a.index ? b : a;
}

// The operator as OpenCL C over two accumulator values `a` and `b` of OpenCL type ACC (the
// kernels' COMBINE_VALUES), for the given accumulator; float products call prod_combine of
// cl/common.h.
std::string cl_combine(Op op, Type acc);
// The same on vectors of VW lanes (VCOMBINE, used by vector loads): fmin/fmax where floats
// ignore NaN. Integer sums and products wrap through the unsigned vector type (AS_VACC and
// AS_VUACC, which a vector kernel defines). Empty where vector lanes cannot combine: float
// products (marked states), argmin/argmax (indices): see lanes_combine.
std::string cl_vcombine(Op op, Type acc);
// identity_value as OpenCL C (IDENTITY_VALUE).
std::string cl_identity(Op op, Type acc);

}  // namespace rdx::detail
