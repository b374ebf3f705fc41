// Names, parsing and host-side properties of the element types (read from core/type_table.hpp).
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "core/text.hpp"
#include "core/type_table.hpp"
#include "rdx/errors.hpp"
#include "rdx/types.hpp"

namespace rdx {
namespace {

using detail::kTypeRows;
using detail::lower;
using detail::printable;
using detail::type_row;

std::string type_list() {
  std::string r;
  for (auto& t : kTypeRows)
    r += (r.empty() ? "" : " ") + std::string(t.name);
  return r;
}

// The shortest decimal text that reads back (rounded to nearest) to h's bits, as NumPy prints
// a float16: "0.1" and "65500", not float's "0.099975586" and "65504".
template <class H>
std::string shortest_half(H h) {
  const float v = h;
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  double back = v;
  for (int p = 1; p <= 9; ++p) {  // 5 significant digits always suffice (bf16: 4)
    auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, p - 1);
    std::from_chars(buf, res.ptr, back);
    if (H(back).bits == h.bits) break;
  }
  auto res = std::to_chars(buf, buf + sizeof buf, back);  // those digits, fixed or scientific
  return std::string(buf, res.ptr);
}

}  // namespace

std::string_view name(Type t) {
  return type_row(t).name;
}
std::size_t size_of(Type t) {
  return type_row(t).size;
}
bool is_float(Type t) {
  return type_row(t).is_float;
}
Type computed_type(Type t) {
  return detail::computed_type_of(t);
}
bool is_signed(Type t) {
  return type_row(t).is_signed;
}

bool holds_every_value(Type to, Type from) {
  if (to == from) return true;
  if (is_float(from)) {  // a float holds another's values when its significand and range do
    const auto &f = type_row(from), &t = type_row(to);
    return t.is_float && t.digits >= f.digits && t.min_exp <= f.min_exp && t.max_exp >= f.max_exp;
  }
  // digits: bits of magnitude of an integer type, and of a float's significand.
  const int from_bits = type_row(from).digits;
  if (is_float(to)) return from_bits <= type_row(to).digits;
  if (is_signed(from) && !is_signed(to)) return false;
  return from_bits <= type_row(to).digits;
}

std::string_view npy_descr(Type t) {
  return type_row(t).npy;
}

std::optional<Type> type_of_npy(std::string_view descr) {
  if (descr.size() < 2) return std::nullopt;
  const char order = descr[0];
  const std::string_view code = descr.substr(1);
  for (auto& t : kTypeRows) {
    if (t.npy.empty() || code != t.npy.substr(1)) continue;  // bf16 has no NumPy dtype
    if (order == '<' || order == '=' || order == '|' || (order == '>' && t.size == 1))
      return t.type;
  }
  return std::nullopt;
}

Type parse_type(std::string_view s) {
  const std::string l = lower(s);
  for (auto& t : kTypeRows)
    if (l == t.name || (detail::accepts_cl_name(t) && l == t.cl_name) || l == t.alias1 ||
        l == t.alias2)
      return t.type;
  throw ArgumentError("unknown type '" + printable(s) + "' (expected one of: " + type_list() + ")");
}

Scalar Scalar::from_bytes(Type t, const void* p) {
  Scalar s;
  s.type = t;
  std::memcpy(&s.bits, p, size_of(t));
  return s;
}

std::string Scalar::to_string() const {
  return visit_type(type, [&](auto z) -> std::string {
    using T = decltype(z);
    T v;
    std::memcpy(&v, &bits, sizeof v);
    if constexpr (is_half_v<T>) {
      return shortest_half(v);
    } else if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return "nan";  // NaN has no meaningful sign (NumPy prints nan)
      if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
      char buf[64];
      auto res = std::to_chars(buf, buf + sizeof buf, v);
      return std::string(buf, res.ptr);
    } else {
      return std::to_string(+v);  // unary + prints int8 as a number, not a character
    }
  });
}

}  // namespace rdx
