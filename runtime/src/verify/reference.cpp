// The host reference and the result check.
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"
#include "rdx/verify.hpp"

namespace rdx {
namespace {

using detail::combine_states;
using detail::identity_value;
using detail::TypedState;

// The operator folded over the elements in order, from its identity (argmin/argmax: from the
// first element), with the operator's one definition (ops/operators.hpp).
template <class T, class A>
Reference fold_ref(Op op, const T* x, std::uint64_t n) {
  TypedState<A> acc{identity_value<A>(op), detail::kNoIndex};
  for (std::uint64_t i = 0; i < n; ++i)
    acc = combine_states<A>(op, acc, {detail::input_value(op, A(x[i])), i});
  Reference r;
  r.value = Scalar::of(acc.value);
  if (detail::op_row(op).indexed) r.index = acc.index;
  return r;
}

// A float minimum or maximum found without the operator's combine: NumPy's rules written out.
// min, max, argmin, argmax: the first NaN if any (its index); nan*: the extreme of the numbers,
// NaN (index 0) when every element is NaN; the first index of the extreme value; an empty
// input: +inf (min) or -inf (max).
template <class T, class A>
Reference extreme_ref(Op op, const T* x, std::uint64_t n) {
  const bool lowest = op == Op::Min || op == Op::ArgMin || op == Op::NanMin || op == Op::NanArgMin;
  const bool skip_nan =
      op == Op::NanMin || op == Op::NanMax || op == Op::NanArgMin || op == Op::NanArgMax;
  const A inf = std::numeric_limits<A>::infinity();
  A best = lowest ? inf : -inf;
  std::uint64_t at = detail::kNoIndex;
  for (std::uint64_t i = 0; i < n; ++i) {
    const A v = A(x[i]);
    if (std::isnan(v)) {
      if (skip_nan) continue;
      best = v;
      at = i;
      break;
    }
    if (at == detail::kNoIndex || (lowest ? v < best : v > best)) {
      best = v;
      at = i;
    }
  }
  if (skip_nan && n > 0 && at == detail::kNoIndex) {  // every element NaN
    best = std::numeric_limits<A>::quiet_NaN();
    at = 0;
  }
  Reference r;
  r.value = Scalar::of(best);
  if (detail::op_row(op).indexed) r.index = at;
  return r;
}

// The operator's reference case on a float accumulator: every operator has one (a switch over
// rdx::Op without a default branch); sums and products are computed independently of the
// kernels' combine, in long double, with the bounds check_float allows.
template <class T, class A>
Reference float_ref(Op op, const T* x, std::uint64_t n) {
  Reference r;
  bool nan = false, pinf = false, ninf = false;
  for (std::uint64_t i = 0; i < n; ++i) {
    const A v = A(x[i]);
    nan |= std::isnan(v);
    pinf |= v == std::numeric_limits<A>::infinity();
    ninf |= v == -std::numeric_limits<A>::infinity();
  }
  const A qnan = std::numeric_limits<A>::quiet_NaN();
  switch (op) {
    case Op::Sum: {
      long double s = 0, c = 0, abs = 0;  // Neumaier: s + c is the running sum
      for (std::uint64_t i = 0; i < n; ++i) {
        const long double v = A(x[i]);
        if (!std::isfinite(v)) continue;
        const long double t = s + v;
        c += std::fabs(s) >= std::fabs(v) ? (s - t) + v : (v - t) + s;
        s = t;
        abs += std::fabs(v);
      }
      r.exact = s + c;
      r.abs_sum = abs;
      const A inf = std::numeric_limits<A>::infinity();
      r.value = Scalar::of(nan || (pinf && ninf) ? qnan : pinf ? inf : ninf ? -inf : A(r.exact));
      break;
    }
    case Op::Prod: {
      // A zero factor gives 0 unless the input holds NaN or an infinity (then NaN).
      bool zero = false;
      long double p = 1;
      for (std::uint64_t i = 0; i < n; ++i) {
        zero |= A(x[i]) == A(0);
        p *= A(x[i]);
      }
      if (nan || (zero && (pinf || ninf))) {
        r.exact = qnan;
        r.value = Scalar::of(qnan);
      } else if (zero) {
        r.exact = 0;
        r.value = Scalar::of(A(0));
      } else {
        r.exact = p;
        r.value = Scalar::of(A(p));
      }
      break;
    }
    case Op::Min:
    case Op::Max:
    case Op::ArgMin:
    case Op::ArgMax:
    case Op::NanMin:
    case Op::NanMax:
    case Op::NanArgMin:
    case Op::NanArgMax:
      r = extreme_ref<T, A>(op, x, n);
      break;
    case Op::And:
    case Op::Or:
    case Op::Xor:
      throw ArgumentError(fmt::format("{} is defined for integer types only", name(op)));
  }
  return r;
}

template <class A>
std::string check_float(const Plan& plan, A got, const Reference& ref) {
  const A want = ref.value.as<A>();
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? "" : fmt::format("got {}, want {}", got, want);
  if (std::isinf(want) || std::isinf(got))
    return got == want ? "" : fmt::format("got {}, want {}", got, want);
  const long double eps = std::numeric_limits<A>::epsilon();
  long double err = 0, bound = 0;
  // The operator's reference case (float_ref) gives exact and abs_sum for sums and products.
  const detail::Combine rule = detail::op_row(plan.op).combine;
  if (rule == detail::Combine::Add) {
    err = std::fabs(static_cast<long double>(got) - ref.exact);
    bound = (plan.depth + 1) * eps * ref.abs_sum;
  } else if (rule == detail::Combine::Mul) {
    err = std::fabs(static_cast<long double>(got) - ref.exact);
    bound = static_cast<long double>(plan.n + 1) * eps * std::fabs(ref.exact) +
            std::numeric_limits<A>::denorm_min();
  } else {
    return got == want ? "" : fmt::format("got {}, want {}", got, want);
  }
  if (err <= bound) return "";
  return fmt::format("got {}, want {} (error {:.3g} > bound {:.3g})", got,
                     static_cast<double>(ref.exact), static_cast<double>(err),
                     static_cast<double>(bound));
}

}  // namespace

Reference reference_reduce(Type type, Type acc, Op op, const void* data, std::uint64_t n) {
  if (n == 0) throw ArgumentError("reference_reduce: empty input");
  return visit_type(type, [&](auto t) {
    using T = decltype(t);
    return visit_acc(computed_type(acc), [&](auto a) -> Reference {
      using A = decltype(a);
      const T* x = static_cast<const T*>(data);
      if constexpr (std::is_floating_point_v<A>) {
        return float_ref<T, A>(op, x, n);
      } else if constexpr (std::is_integral_v<T>) {
        return fold_ref<T, A>(op, x, n);
      } else {
        throw ArgumentError(
            fmt::format("accumulator {} cannot hold {} elements", name(acc), name(type)));
      }
    });
  });
}

std::string check_result(const Plan& plan, const Scalar& value,
                         const std::optional<std::uint64_t>& index, const Reference& ref) {
  // The result's type: the accumulator's, or an element's where the host gives an element of
  // a storage type (min of f16: an f16, which the reference's f32 holds exactly; results in
  // device buffers stay in the accumulator).
  const Type want = result_type(plan.op, plan.type, ref.value.type);
  if (value.type != want && value.type != ref.value.type)
    return fmt::format("result type {} is not {}", name(value.type), name(want));
  if (index != ref.index)
    return fmt::format("index {} (value {}), want index {} (value {})",
                       index ? std::to_string(*index) : "none", value.to_string(),
                       ref.index ? std::to_string(*ref.index) : "none", ref.value.to_string());
  return visit_acc(ref.value.type, [&](auto z) -> std::string {
    using A = decltype(z);
    if constexpr (std::is_floating_point_v<A>) {
      return check_float<A>(plan, value.as<A>(), ref);
    } else {
      return value == ref.value
                 ? ""
                 : fmt::format("got {}, want {}", value.to_string(), ref.value.to_string());
    }
  });
}

}  // namespace rdx
