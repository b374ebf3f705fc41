// Internal: the operators librdx reduces with, one row each (kOpRows), and the single home of what
// an operator is: its names, the operator on values, its identity, how two states combine on the
// host and in OpenCL C (scalars and vectors), the hardware atomic that combines it, and what the
// exact determinism levels do with it. The functions below read the row; the few that switch,
// switch over a rule (Combine, Identity, ...) with no default branch, and the build treats a
// missing case as an error (-Werror=switch).
//
// Semantics (docs/semantics.md): integer sum and product wrap modulo 2^bits of the accumulator; NaN
// propagates through sum, product, min, max, argmin and argmax (argmin/argmax: the first NaN's
// index), as in NumPy; nanmin, nanmax, nanargmin and nanargmax ignore NaN unless every element is
// NaN; argmin and argmax return the first index of the extreme value.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "ops/float_prod.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

// How two values combine on the host (combine_values). Floats: Add and Mul propagate NaN, Mul
// combines marked states (float_prod.hpp: input infinities are marked one element at a time);
// Min and Max propagate NaN (NumPy's minimum/maximum); MinNum and MaxNum ignore NaN unless both
// are NaN (IEEE 754-2008's minNum/maxNum, NumPy's fmin/fmax). Integers: Add and Mul wrap; the
// two minimums are one, and so are the two maximums.
enum class Combine : std::uint8_t { Add, Mul, Min, Max, MinNum, MaxNum, And, Or, Xor };

// Whether a combine rule finds a minimum, a maximum, or neither.
enum class Extreme : std::uint8_t { None, Lowest, Highest };
constexpr Extreme extreme_of(Combine c) {
  switch (c) {
    case Combine::Min:
    case Combine::MinNum:
      return Extreme::Lowest;
    case Combine::Max:
    case Combine::MaxNum:
      return Extreme::Highest;
    case Combine::Add:
    case Combine::Mul:
    case Combine::And:
    case Combine::Or:
    case Combine::Xor:
      return Extreme::None;
  }
  return Extreme::None;
}

// Whether NaN in a float state is ignored (MinNum, MaxNum) rather than propagated.
constexpr bool nan_ignored(Combine c) {
  switch (c) {
    case Combine::MinNum:
    case Combine::MaxNum:
      return true;
    case Combine::Add:
    case Combine::Mul:
    case Combine::Min:
    case Combine::Max:
    case Combine::And:
    case Combine::Or:
    case Combine::Xor:
      return false;
  }
  return false;
}

// Where a state starts (identity_value, cl_identity) and what an empty input gives
// (rdx::identity).
enum class Identity : std::uint8_t {
  Zero,
  One,
  AllBits,     // integers: every bit set
  Highest,     // the type's maximum (floats: +inf)
  Lowest,      // the type's minimum (floats: -inf)
  HighestNaN,  // integers: the type's maximum; floats: NaN in a state (ignored), +inf when empty
  LowestNaN,   // integers: the type's minimum; floats: NaN in a state (ignored), -inf when empty
};

// The hardware atomic that combines one value into a word (cl/seeds/atomic_ops.h implements each,
// and strategies/seeds/atomic.cpp says which a device has). On floats, Add is NVIDIA's PTX add
// (global memory only); Min and Max are atomic_min/atomic_max of the order-preserving key, NaN
// skipped (so on floats the NaN-ignoring rows only). None: a compare-exchange loop.
enum class Atomic : std::uint8_t { None, Add, Min, Max, And, Or, Xor };

// The atomic's name: cl/seeds/atomic_ops.h's ATOMIC_FORM_<NAME>, in capitals.
constexpr std::string_view atomic_name(Atomic a) {
  switch (a) {
    case Atomic::None:
      return "none";
    case Atomic::Add:
      return "add";
    case Atomic::Min:
      return "min";
    case Atomic::Max:
      return "max";
    case Atomic::And:
      return "and";
    case Atomic::Or:
      return "or";
    case Atomic::Xor:
      return "xor";
  }
  return "none";
}

// What Determinism::exact and any_device do with a float accumulator.
enum class ExactPolicy : std::uint8_t {
  OrderFree,  // the result is the same in any order already: the ordinary plan
  ExactSum,   // the exact sum (ops/exact_sum.hpp) of float elements
  Refused,    // not reproducible yet: the request is refused
};

// The operator as OpenCL C on accumulator values `a` and `b` (COMBINE_VALUES), and on vectors of
// them (VCOMBINE; empty where lanes cannot combine one by one). Integer sums and products wrap
// through UACC/UMUL and, on vectors, AS_VACC/AS_VUACC (which a vector kernel defines).
struct ClCombine {
  std::string_view combine;
  std::string_view vcombine;
};

// One operator. Every member is a constructor parameter, without defaults: a row that leaves
// one out does not compile.
struct OpRow {
  Op op;
  // The operator's byte in a Partial's byte form (api/partial.cpp): fixed, unlike the
  // enumerator's position, so that bytes written before an operator was added still read. A new
  // operator takes a code no row has; a code never changes its meaning (codes 2, 3, 7 and 8 were
  // min, max, argmin and argmax when those ignored NaN: they are now nanmin, nanmax, nanargmin
  // and nanargmax's).
  std::uint8_t wire;
  std::string_view name;   // rdx::name(op), `--op`
  std::string_view alias;  // also accepted by parse_op; empty when none
  Op value_op;             // the operator on values (argmin/argmax: min/max)
  bool indexed;            // the state carries an index (argmin/argmax)
  // The result is an element's value, so the accumulator must hold every element value exactly
  // (plan/request.cpp).
  bool returns_element;
  // No float form: rdx::op_allows refuses float types (tests/test_ops.cpp checks they agree).
  bool integer_only;
  Combine combine;    // on values
  Identity identity;  // of a value
  ClCombine cl_int, cl_float;
  Atomic atomic_int, atomic_float;  // argmin/argmax: of their value pass
  ExactPolicy exact;

  constexpr OpRow(Op op_, std::uint8_t wire_, std::string_view name_, std::string_view alias_,
                  Op value_op_, bool indexed_, bool returns_element_, bool integer_only_,
                  Combine combine_, Identity identity_, ClCombine cl_int_, ClCombine cl_float_,
                  Atomic atomic_int_, Atomic atomic_float_, ExactPolicy exact_)
      : op(op_),
        wire(wire_),
        name(name_),
        alias(alias_),
        value_op(value_op_),
        indexed(indexed_),
        returns_element(returns_element_),
        integer_only(integer_only_),
        combine(combine_),
        identity(identity_),
        cl_int(cl_int_),
        cl_float(cl_float_),
        atomic_int(atomic_int_),
        atomic_float(atomic_float_),
        exact(exact_) {}
};

// The OpenCL C of each value rule, shared by the rows that combine alike.
namespace cl_text {
inline constexpr ClCombine kAddInt{"((ACC)((UACC)(a) + (UACC)(b)))",
                                   "AS_VACC(AS_VUACC(a) + AS_VUACC(b))"};
inline constexpr ClCombine kAddFloat{"((a) + (b))", "((a) + (b))"};
inline constexpr ClCombine kMulInt{"((ACC)((UMUL)(UACC)(a) * (UMUL)(UACC)(b)))",
                                   "AS_VACC(AS_VUACC(a) * AS_VUACC(b))"};
// Float products combine marked states, which vector lanes cannot (cl/common.h's to_acc).
inline constexpr ClCombine kMulFloat{"prod_combine((a), (b))", ""};
// Floats: min/max propagate NaN (a NaN `a` wins; a NaN `b` wins where `a` is not less or
// greater than it, which no comparison with NaN is); on vectors, select takes `a` where the
// lane's mask is set. nanmin/nanmax ignore NaN; fmin/fmax do on vectors.
inline constexpr ClCombine kMinInt{"((b) < (a) ? (b) : (a))", "min((a), (b))"};
inline constexpr ClCombine kMinFloat{"(((a) < (b) || isnan(a)) ? (a) : (b))",
                                     "select((b), (a), ((a) < (b)) | isnan(a))"};
inline constexpr ClCombine kNanMinFloat{
    "(isnan(a) ? (b) : isnan(b) ? (a) : ((b) < (a) ? (b) : (a)))", "fmin((a), (b))"};
inline constexpr ClCombine kMaxInt{"((b) > (a) ? (b) : (a))", "max((a), (b))"};
inline constexpr ClCombine kMaxFloat{"(((a) > (b) || isnan(a)) ? (a) : (b))",
                                     "select((b), (a), ((a) > (b)) | isnan(a))"};
inline constexpr ClCombine kNanMaxFloat{
    "(isnan(a) ? (b) : isnan(b) ? (a) : ((b) > (a) ? (b) : (a)))", "fmax((a), (b))"};
inline constexpr ClCombine kAnd{"((a) & (b))", "((a) & (b))"};
inline constexpr ClCombine kOr{"((a) | (b))", "((a) | (b))"};
inline constexpr ClCombine kXor{"((a) ^ (b))", "((a) ^ (b))"};
inline constexpr ClCombine kNone{"", ""};  // the floats of an integer-only operator
// A state with an index combines one element at a time, never lane by lane.
constexpr ClCombine scalar_only(ClCombine c) {
  return {c.combine, ""};
}
}  // namespace cl_text

// One row per rdx::Op, in enum order. Columns: op, wire, name, alias, value_op, indexed,
// returns_element, integer_only, combine, identity, cl_int, cl_float, atomic_int, atomic_float,
// exact.
inline constexpr OpRow kOpRows[] = {
    {Op::Sum, 0, "sum", "", Op::Sum, false, false, false, Combine::Add, Identity::Zero,
     cl_text::kAddInt, cl_text::kAddFloat, Atomic::Add, Atomic::Add, ExactPolicy::ExactSum},
    {Op::Prod, 1, "prod", "product", Op::Prod, false, false, false, Combine::Mul, Identity::One,
     cl_text::kMulInt, cl_text::kMulFloat, Atomic::None, Atomic::None, ExactPolicy::Refused},
    {Op::Min, 9, "min", "", Op::Min, false, true, false, Combine::Min, Identity::Highest,
     cl_text::kMinInt, cl_text::kMinFloat, Atomic::Min, Atomic::None, ExactPolicy::OrderFree},
    {Op::Max, 10, "max", "", Op::Max, false, true, false, Combine::Max, Identity::Lowest,
     cl_text::kMaxInt, cl_text::kMaxFloat, Atomic::Max, Atomic::None, ExactPolicy::OrderFree},
    {Op::And, 4, "and", "", Op::And, false, false, true, Combine::And, Identity::AllBits,
     cl_text::kAnd, cl_text::kNone, Atomic::And, Atomic::None, ExactPolicy::OrderFree},
    {Op::Or, 5, "or", "", Op::Or, false, false, true, Combine::Or, Identity::Zero, cl_text::kOr,
     cl_text::kNone, Atomic::Or, Atomic::None, ExactPolicy::OrderFree},
    {Op::Xor, 6, "xor", "", Op::Xor, false, false, true, Combine::Xor, Identity::Zero,
     cl_text::kXor, cl_text::kNone, Atomic::Xor, Atomic::None, ExactPolicy::OrderFree},
    {Op::ArgMin, 11, "argmin", "", Op::Min, true, true, false, Combine::Min, Identity::Highest,
     cl_text::scalar_only(cl_text::kMinInt), cl_text::scalar_only(cl_text::kMinFloat), Atomic::Min,
     Atomic::None, ExactPolicy::OrderFree},
    {Op::ArgMax, 12, "argmax", "", Op::Max, true, true, false, Combine::Max, Identity::Lowest,
     cl_text::scalar_only(cl_text::kMaxInt), cl_text::scalar_only(cl_text::kMaxFloat), Atomic::Max,
     Atomic::None, ExactPolicy::OrderFree},
    {Op::NanMin, 2, "nanmin", "", Op::NanMin, false, true, false, Combine::MinNum,
     Identity::HighestNaN, cl_text::kMinInt, cl_text::kNanMinFloat, Atomic::Min, Atomic::Min,
     ExactPolicy::OrderFree},
    {Op::NanMax, 3, "nanmax", "", Op::NanMax, false, true, false, Combine::MaxNum,
     Identity::LowestNaN, cl_text::kMaxInt, cl_text::kNanMaxFloat, Atomic::Max, Atomic::Max,
     ExactPolicy::OrderFree},
    {Op::NanArgMin, 7, "nanargmin", "", Op::NanMin, true, true, false, Combine::MinNum,
     Identity::HighestNaN, cl_text::scalar_only(cl_text::kMinInt),
     cl_text::scalar_only(cl_text::kNanMinFloat), Atomic::Min, Atomic::Min, ExactPolicy::OrderFree},
    {Op::NanArgMax, 8, "nanargmax", "", Op::NanMax, true, true, false, Combine::MaxNum,
     Identity::LowestNaN, cl_text::scalar_only(cl_text::kMaxInt),
     cl_text::scalar_only(cl_text::kNanMaxFloat), Atomic::Max, Atomic::Max, ExactPolicy::OrderFree},
};

constexpr const OpRow& op_row(Op op) {
  return kOpRows[static_cast<std::size_t>(op)];
}

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

// The facts of a row that hold together: every operator combines on integers, and on floats
// unless integer-only; an indexed operator finds a min or max value, returns an element and
// combines one element at a time; its value operator is a row without an index that combines,
// starts and takes atomics as it does.
constexpr bool op_row_consistent(const OpRow& r) {
  if (r.name.empty() || r.cl_int.combine.empty()) return false;
  if (r.integer_only != r.cl_float.combine.empty()) return false;
  if (r.integer_only && (!r.cl_float.vcombine.empty() || r.atomic_float != Atomic::None))
    return false;
  const OpRow& v = op_row(r.value_op);
  if (v.indexed || v.combine != r.combine || v.identity != r.identity ||
      v.atomic_int != r.atomic_int || v.atomic_float != r.atomic_float ||
      v.cl_int.combine != r.cl_int.combine || v.cl_float.combine != r.cl_float.combine)
    return false;
  if (r.indexed)
    return r.value_op != r.op && r.returns_element && extreme_of(r.combine) != Extreme::None &&
           r.cl_int.vcombine.empty() && r.cl_float.vcombine.empty() &&
           r.exact == ExactPolicy::OrderFree;
  return r.value_op == r.op;
}

constexpr bool op_rows_check() {
  for (const OpRow& r : kOpRows)
    if (!op_row_consistent(r)) return false;
  return true;
}
static_assert(op_rows_check(), "kOpRows: a row's facts disagree (op_row_consistent)");

// The operator on values: argmin/argmax find their extreme value as min/max do.
constexpr Op value_op(Op op) {
  return op_row(op).value_op;
}

// The row's OpenCL C for accumulator type `acc`.
inline const ClCombine& cl_form(Op op, Type acc) {
  return is_float(acc) ? op_row(op).cl_float : op_row(op).cl_int;
}

// The native atomic that combines an `acc` value with `op` (argmin/argmax: their value pass).
inline Atomic atomic_of(Op op, Type acc) {
  return is_float(acc) ? op_row(op).atomic_float : op_row(op).atomic_int;
}

// Whether op's states on accumulator `acc` carry float_prod.hpp's marks (input infinities marked
// one element at a time): a float product's, which combine only as such (prod_combine).
inline bool marked_states(Op op, Type acc) {
  return is_float(acc) && op_row(op).combine == Combine::Mul;
}

// Whether op combines by addition (a sum: float sums may be compensated, or summed exactly).
constexpr bool adds(Op op) {
  return op_row(op).combine == Combine::Add;
}

// Whether the request's float sums take the reproducible sum states (ops/sum_state.hpp) under
// Determinism any_device and exact (plan/request.cpp's exact_form).
constexpr bool exact_sum_policy(Op op) {
  return op_row(op).exact == ExactPolicy::ExactSum;
}

// Whether the lanes of a vector of accumulators combine lane by lane (VCOMBINE): not for
// argmin/argmax (an index per element) nor float products (input infinities are marked one
// element at a time, cl/common.h's to_acc).
inline bool lanes_combine(Op op, Type acc) {
  return !cl_form(op, acc).vcombine.empty();
}

// The index of an identity state of argmin/argmax (NO_INDEX in the kernels).
inline constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};

// nanargmin and nanargmax of elements that are all NaN have no index: NumPy raises ("All-NaN
// slice encountered"), and so does librdx where such a result reaches the host. Their states
// ignore NaN, so their value is NaN exactly then (and for an empty segment, whose index is
// kEmptySegmentIndex). Throws ArgumentError naming `where` (and the segment, when given) for a
// finished result `value` of op that is one.
// Whether a finished result of op in acc can be such a one (float nanargmin and nanargmax).
inline bool may_lack_index(Op op, Type acc) {
  return is_index_op(op) && nan_ignored(op_row(op).combine) && is_float(acc);
}
void check_all_nan_index(Op op, const Scalar& value, const char* where,
                         std::optional<std::uint64_t> segment = std::nullopt);

// A combine rule on two accumulator values, with the kernels' semantics; C known at compile time
// (host loops: dispatch/host_loop.cpp). Float products combine marked states (float_prod.hpp).
template <Combine C, class A>
A combine_as(A x, A y) {
  if constexpr (std::is_floating_point_v<A>) {
    if constexpr (C == Combine::Add)
      return A(x + y);
    else if constexpr (C == Combine::Mul)
      return prod_combine(x, y);
    else if constexpr (C == Combine::Min)  // NaN wins
      return std::isnan(x) || x < y ? x : y;
    else if constexpr (C == Combine::Max)
      return std::isnan(x) || x > y ? x : y;
    else if constexpr (C == Combine::MinNum)  // NaN loses
      return std::isnan(x) || (!std::isnan(y) && y < x) ? y : x;
    else if constexpr (C == Combine::MaxNum)
      return std::isnan(x) || (!std::isnan(y) && y > x) ? y : x;
    else  // And, Or, Xor: make_plan refuses bitwise operators on floats
      return x;
  } else {
    using U = std::make_unsigned_t<A>;
    // Products are taken in an unsigned type never narrower than unsigned int, so that narrow
    // operands do not promote to signed int and overflow.
    using M = std::conditional_t<(sizeof(A) <= 4), std::uint32_t, std::uint64_t>;
    if constexpr (C == Combine::Add)
      return A(U(U(x) + U(y)));
    else if constexpr (C == Combine::Mul)
      return A(U(M(U(x)) * M(U(y))));
    else if constexpr (C == Combine::Min || C == Combine::MinNum)
      return y < x ? y : x;
    else if constexpr (C == Combine::Max || C == Combine::MaxNum)
      return y > x ? y : x;
    else if constexpr (C == Combine::And)
      return A(x & y);
    else if constexpr (C == Combine::Or)
      return A(x | y);
    else
      return A(x ^ y);
  }
}

// Calls f(std::integral_constant<Combine, c>{}) for the rule c: a switch without a default, so a
// new rule is a compile error (-Wswitch) until it is handled.
template <class F>
decltype(auto) visit_combine(Combine c, F&& f) {
  using enum Combine;
  switch (c) {
    case Add:
      return f(std::integral_constant<Combine, Add>{});
    case Mul:
      return f(std::integral_constant<Combine, Mul>{});
    case Min:
      return f(std::integral_constant<Combine, Min>{});
    case Max:
      return f(std::integral_constant<Combine, Max>{});
    case MinNum:
      return f(std::integral_constant<Combine, MinNum>{});
    case MaxNum:
      return f(std::integral_constant<Combine, MaxNum>{});
    case And:
      return f(std::integral_constant<Combine, And>{});
    case Or:
      return f(std::integral_constant<Combine, Or>{});
    case Xor:
      return f(std::integral_constant<Combine, Xor>{});
  }
  return f(std::integral_constant<Combine, Add>{});  // unreachable: every rule is handled above
}

// The operator on two accumulator values (argmin/argmax: their value operator), with the
// kernels' semantics.
template <class A>
A combine_values(Op op, A x, A y) {
  return visit_combine(op_row(op).combine,
                       [&](auto c) { return combine_as<decltype(c)::value>(x, y); });
}

// The value an operator's partial states start from in the kernels (argmin/argmax: their value
// operator's). Float min/max start from +inf/-inf; nanmin/nanmax from NaN, which they ignore, so
// all-NaN input gives NaN.
template <class A>
A identity_value(Op op) {
  switch (op_row(op).identity) {
    case Identity::Zero:
      return A(0);
    case Identity::One:
      return A(1);
    case Identity::AllBits:
      if constexpr (std::is_integral_v<A>) return A(~A(0));
      return A(0);  // make_plan refuses bitwise operators on floats
    case Identity::Highest:
      if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::infinity();
      return std::numeric_limits<A>::max();
    case Identity::Lowest:
      if constexpr (std::is_floating_point_v<A>) return -std::numeric_limits<A>::infinity();
      return std::numeric_limits<A>::lowest();
    case Identity::HighestNaN:
      if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::quiet_NaN();
      return std::numeric_limits<A>::max();
    case Identity::LowestNaN:
      if constexpr (std::is_floating_point_v<A>) return std::numeric_limits<A>::quiet_NaN();
      return std::numeric_limits<A>::lowest();
  }
  return A(0);
}

// An element as the operator's accumulator value (float products mark input infinities).
template <class A>
A input_value(Op op, A v) {
  if constexpr (std::is_floating_point_v<A>)
    if (op_row(op).combine == Combine::Mul) return prod_input(v);
  return v;
}

// A final value as the user sees it (a float product's marked input infinity is an infinity).
template <class A>
A public_value(Op op, A v) {
  if constexpr (std::is_floating_point_v<A>)
    if (op_row(op).combine == Combine::Mul) return prod_public(v);
  return v;
}

// One state of accumulator type A on the host: a value and, for argmin/argmax, its index.
template <class A>
struct TypedState {
  A value;
  std::uint64_t index;
};

// Two states combined. argmin/argmax: the identity (index kNoIndex) loses, then NaN wins over a
// number (nanargmin/nanargmax: loses), then the extreme value wins; ties go to the first index.
template <class A>
TypedState<A> combine_states(Op op, const TypedState<A>& a, const TypedState<A>& b) {
  if (!op_row(op).indexed) return {combine_values(op, a.value, b.value), 0};
  if (b.index == kNoIndex) return a;
  if (a.index == kNoIndex) return b;
  const A x = a.value, y = b.value;
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(x) || std::isnan(y)) {
      const bool ignored = nan_ignored(op_row(op).combine);
      if (std::isnan(x) != std::isnan(y)) return std::isnan(y) != ignored ? b : a;
      return b.index < a.index ? b : a;
    }
  }
  // Lowest or Highest (op_row_consistent)
  const bool lowest = extreme_of(op_row(op).combine) == Extreme::Lowest;
  if (lowest ? y < x : y > x) return b;
  if (lowest ? x < y : x > y) return a;
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
