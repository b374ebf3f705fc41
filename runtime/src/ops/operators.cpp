// The operators' names, their identity for empty input, and their combine as OpenCL C (see
// operators.hpp).
#include "ops/operators.hpp"

#include <fmt/format.h>

#include "core/text.hpp"
#include "ops/type_table.hpp"
#include "rdx/errors.hpp"
#include "rdx/rdx.hpp"

namespace rdx {

std::string_view name(Op op) {
  return detail::kOpRows[static_cast<std::size_t>(op)].name;
}

Op parse_op(std::string_view s) {
  const std::string l = detail::lower(s);
  std::string all;
  for (const auto& r : detail::kOpRows) {
    if (l == r.name || (!r.alias.empty() && l == r.alias)) return r.op;
    if (!all.empty()) all += ' ';
    all += r.name;
  }
  throw ArgumentError("unknown operator '" + std::string(s) + "' (expected one of: " + all + ")");
}

// The result of an empty input: the identity, with float min/max at +inf / -inf.
Scalar identity(Op op, Type acc) {
  if (is_index_op(op)) throw ArgumentError(fmt::format("{} has no identity", name(op)));
  return visit_type(acc, [&](auto z) {
    using A = decltype(z);
    if constexpr (std::is_floating_point_v<A>) {
      if (op == Op::Min) return Scalar::of(std::numeric_limits<A>::infinity());
      if (op == Op::Max) return Scalar::of(-std::numeric_limits<A>::infinity());
    }
    return Scalar::of(detail::identity_value<A>(op));
  });
}

}  // namespace rdx

namespace rdx::detail {

std::string cl_combine(Op op, Type acc) {
  const bool fl = is_float(acc);
  switch (value_op(op)) {
    case Op::Sum:
      return fl ? "((a) + (b))" : "((ACC)((UACC)(a) + (UACC)(b)))";
    case Op::Prod:
      return fl ? "prod_combine((a), (b))" : "((ACC)((UMUL)(UACC)(a) * (UMUL)(UACC)(b)))";
    case Op::Min:
      return fl ? "(isnan(a) ? (b) : isnan(b) ? (a) : ((b) < (a) ? (b) : (a)))"
                : "((b) < (a) ? (b) : (a))";
    case Op::Max:
      return fl ? "(isnan(a) ? (b) : isnan(b) ? (a) : ((b) > (a) ? (b) : (a)))"
                : "((b) > (a) ? (b) : (a))";
    case Op::And:
      return "((a) & (b))";
    case Op::Or:
      return "((a) | (b))";
    case Op::Xor:
      return "((a) ^ (b))";
    case Op::ArgMin:
    case Op::ArgMax:
      break;  // value_op never gives these
  }
  throw ArgumentError(fmt::format("no combine for {} on {}", name(op), name(acc)));
}

std::string cl_vcombine(Op op, Type acc) {
  if (!lanes_combine(op, acc)) return "";
  const bool fl = is_float(acc);
  switch (op) {
    case Op::Sum:
      return fl ? "((a) + (b))" : "AS_VACC(AS_VUACC(a) + AS_VUACC(b))";
    case Op::Prod:
      return "AS_VACC(AS_VUACC(a) * AS_VUACC(b))";  // integers (lanes_combine)
    case Op::Min:
      return fl ? "fmin((a), (b))" : "min((a), (b))";
    case Op::Max:
      return fl ? "fmax((a), (b))" : "max((a), (b))";
    case Op::And:
      return "((a) & (b))";
    case Op::Or:
      return "((a) | (b))";
    case Op::Xor:
      return "((a) ^ (b))";
    case Op::ArgMin:
    case Op::ArgMax:
      break;
  }
  return "";
}

std::string cl_identity(Op op, Type acc) {
  const TypeRow& t = type_row(acc);
  const std::string cast = fmt::format("({})", t.cl_name);
  switch (value_op(op)) {
    case Op::Sum:
    case Op::Or:
    case Op::Xor:
      return cast + "0";
    case Op::Prod:
      return cast + "1";
    case Op::And:
      return fmt::format("({})(~({})0)", t.cl_name, t.cl_unsigned);
    case Op::Min:
      return t.is_float ? cast + "NAN" : fmt::format("{}{}", cast, t.cl_max);
    case Op::Max:
      return t.is_float ? cast + "NAN" : fmt::format("{}{}", cast, t.cl_min);
    case Op::ArgMin:
    case Op::ArgMax:
      break;
  }
  throw ArgumentError(fmt::format("no identity for {} on {}", name(op), name(acc)));
}

}  // namespace rdx::detail
