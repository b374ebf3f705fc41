// The operators' names, their identity for empty input, and their rows' OpenCL C (see
// operators.hpp).
#include "ops/operators.hpp"

#include "core/format.hpp"

#include "core/text.hpp"
#include "core/type_table.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"
#include "rdx/types.hpp"

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
  throw ArgumentError("unknown operator '" + detail::printable(s) + "' (expected one of: " + all +
                      ")");
}

// The result of an empty input: the identity, with float nanmin/nanmax at +inf / -inf.
Scalar identity(Op op, Type acc) {
  if (detail::op_row(op).indexed)
    throw ArgumentError(detail::format("{} has no identity", name(op)));
  return visit_acc(acc, [&](auto z) {
    using A = decltype(z);
    if constexpr (std::is_floating_point_v<A>) {
      const detail::Identity id = detail::op_row(op).identity;
      if (id == detail::Identity::HighestNaN) return Scalar::of(std::numeric_limits<A>::infinity());
      if (id == detail::Identity::LowestNaN) return Scalar::of(-std::numeric_limits<A>::infinity());
    }
    return Scalar::of(detail::identity_value<A>(op));
  });
}

Type result_type(Op op, Type type, Type acc) {
  return detail::op_row(op).returns_element && detail::computed_type_of(type) != type ? type : acc;
}

Scalar result_value(Op op, Type type, const Scalar& value) {
  const Type t = result_type(op, type, value.type);
  if (t == value.type) return value;
  return visit_type(t, [&](auto z) { return Scalar::of(value.as<decltype(z)>()); });
}

}  // namespace rdx

namespace rdx::detail {

std::string cl_combine(Op op, Type acc) {
  const std::string_view c = cl_form(op, acc).combine;
  if (c.empty())
    throw ArgumentError(detail::format("no combine for {} on {}", name(op), name(acc)));
  return std::string(c);
}

void check_all_nan_index(Op op, const Scalar& value, const char* where,
                         std::optional<std::uint64_t> segment) {
  if (!may_lack_index(op, value.type)) return;
  if (!std::isnan(value.as<double>())) return;
  throw ArgumentError(detail::format(
      "{}: every element{} is NaN, so {} has no index (NumPy raises: All-NaN slice encountered)",
      where, segment ? detail::format(" of segment {}", *segment) : std::string(), name(op)));
}

std::string cl_vcombine(Op op, Type acc) {
  return std::string(cl_form(op, acc).vcombine);
}

std::string cl_identity(Op op, Type acc) {
  const TypeRow& t = type_row(acc);
  const std::string cast = detail::format("({})", t.cl_name);
  switch (op_row(op).identity) {
    case Identity::Zero:
      return cast + "0";
    case Identity::One:
      return cast + "1";
    case Identity::AllBits:
      if (t.is_float) break;
      return detail::format("({})(~({})0)", t.cl_name, t.cl_unsigned);
    case Identity::Highest:
      return t.is_float ? cast + "INFINITY" : detail::format("{}{}", cast, t.cl_max);
    case Identity::Lowest:
      return t.is_float ? detail::format("(-{}INFINITY)", cast)
                        : detail::format("{}{}", cast, t.cl_min);
    case Identity::HighestNaN:
      return t.is_float ? cast + "NAN" : detail::format("{}{}", cast, t.cl_max);
    case Identity::LowestNaN:
      return t.is_float ? cast + "NAN" : detail::format("{}{}", cast, t.cl_min);
  }
  throw ArgumentError(detail::format("no identity for {} on {}", name(op), name(acc)));
}

}  // namespace rdx::detail
