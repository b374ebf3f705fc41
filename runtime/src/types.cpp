#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "rdx/errors.hpp"
#include "rdx/types.hpp"
#include "text.hpp"

namespace rdx {
namespace {

struct TypeRow {
  Type type;
  std::string_view name, cl_name, alias1, alias2;
  std::size_t size;
};
constexpr TypeRow kTypes[] = {
    {Type::I8, "i8", "char", "int8", "int8_t", 1},
    {Type::U8, "u8", "uchar", "uint8", "uint8_t", 1},
    {Type::I16, "i16", "short", "int16", "int16_t", 2},
    {Type::U16, "u16", "ushort", "uint16", "uint16_t", 2},
    {Type::I32, "i32", "int", "int32", "int32_t", 4},
    {Type::U32, "u32", "uint", "uint32", "uint32_t", 4},
    {Type::I64, "i64", "long", "int64", "int64_t", 8},
    {Type::U64, "u64", "ulong", "uint64", "uint64_t", 8},
    {Type::F32, "f32", "float", "float32", "single", 4},
    {Type::F64, "f64", "double", "float64", "double", 8},
};
constexpr std::string_view kOpNames[] = {"sum", "prod", "min",    "max",   "and",
                                         "or",  "xor",  "argmin", "argmax"};

using detail::lower;

std::string type_list() {
  std::string r;
  for (auto& t : kTypes)
    r += (r.empty() ? "" : " ") + std::string(t.name);
  return r;
}

}  // namespace

std::string_view name(Type t) {
  return kTypes[static_cast<int>(t)].name;
}
std::string_view name(Op op) {
  return kOpNames[static_cast<int>(op)];
}
std::size_t size_of(Type t) {
  return kTypes[static_cast<int>(t)].size;
}
bool is_float(Type t) {
  return t == Type::F32 || t == Type::F64;
}
bool is_signed(Type t) {
  switch (t) {
    case Type::U8:
    case Type::U16:
    case Type::U32:
    case Type::U64:
      return false;
    default:
      return true;
  }
}

bool holds_every_value(Type to, Type from) {
  if (to == from) return true;
  if (is_float(from)) return is_float(to) && size_of(to) >= size_of(from);
  // Bits of magnitude of an integer type, and of a float's significand.
  const std::size_t from_bits = size_of(from) * 8 - (is_signed(from) ? 1 : 0);
  if (is_float(to)) return from_bits <= (to == Type::F32 ? 24u : 53u);
  if (is_signed(from) && !is_signed(to)) return false;
  return from_bits <= size_of(to) * 8 - (is_signed(to) ? 1 : 0);
}

Type parse_type(std::string_view s) {
  const std::string l = lower(s);
  for (auto& t : kTypes)
    if (l == t.name || l == t.cl_name || l == t.alias1 || l == t.alias2) return t.type;
  throw ArgumentError("unknown type '" + std::string(s) + "' (expected one of: " + type_list() +
                      ")");
}

Op parse_op(std::string_view s) {
  const std::string l = lower(s);
  for (int i = 0; i < static_cast<int>(std::size(kOpNames)); ++i)
    if (l == kOpNames[i]) return static_cast<Op>(i);
  if (l == "product") return Op::Prod;
  throw ArgumentError("unknown operator '" + std::string(s) +
                      "' (expected one of: sum prod min max and or xor argmin argmax)");
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
    if constexpr (std::is_floating_point_v<T>) {
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
