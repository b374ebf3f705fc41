// Internal: the one table of element and accumulator types: their names, sizes and the OpenCL C
// facts the kernels are specialised with (runtime/src/ops/cl_definitions.cpp). rdx::Type's
// enumerators index it; a static_assert below keeps the two in step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rdx/types.hpp"

namespace rdx::detail {

// A type is stored in memory as one OpenCL C type (cl_storage, what the kernels' pointers point
// to) and computed in another (cl_name: its values, accumulators and arithmetic). The two are
// the same OpenCL type for every type here; a type stored as the bits of another (a 16-bit float
// in a ushort) names its conversion from a stored value to a computed one in cl_value and
// cl_values, which the kernels reach only through the generated T_VALUE, T_VALUES and LOAD_T
// (ops/cl_definitions.cpp), so an element's bits are never converted as an integer.
struct TypeRow {
  Type type;
  // The type's byte in a Partial's byte form (api/partial.cpp): fixed, unlike the enumerator's
  // position, so that bytes written before a type was added still read. A new type takes a code
  // no row has; a code never changes.
  std::uint8_t wire;
  std::string_view name;            // librdx's name: "f32"
  std::string_view cl_name;         // OpenCL C's type its values are computed in: "float"
  std::string_view alias1, alias2;  // also accepted by parse_type (and cl_name, see below)
  std::size_t size;                 // bytes
  bool is_float, is_signed;         // floats are signed
  std::string_view cl_unsigned;     // integers: the unsigned twin (wrapping arithmetic)
  std::string_view cl_min, cl_max;  // integers: the limits, as OpenCL C constants
  std::string_view cl_storage;      // OpenCL C's type an element is stored as: "float"
  // OpenCL C expressions of a stored value x as a cl_name value, and of a vector of N stored
  // values; both empty when cl_storage is cl_name (no conversion).
  std::string_view cl_value, cl_values;
  // std::numeric_limits<>::digits of the type's values (as stored, whatever they are computed
  // in): significand bits with the implicit one (floats: 24, 53), value bits without the sign
  // (integers: 7 for i8, 8 for u8).
  int digits;
  int min_exp, max_exp;           // floats: std::numeric_limits<>'s exponent range; integers: 0
  std::string_view cl_extension;  // the OpenCL extension the type needs ("cl_khr_fp64"), or ""
  std::string_view npy;           // NumPy's dtype string in a .npy header: "<f4"; "": none (bf16)
};

// A row: the type, wire; names: librdx's, OpenCL C's computed type, two aliases; size, float,
// signed; integers' unsigned twin and limits; storage, its conversions; digits, exponents;
// extension; .npy dtype string.
// clang-format off
inline constexpr TypeRow kTypeRows[] = {
    {Type::I8, 0, "i8", "char", "int8", "int8_t", 1, false, true, "uchar", "CHAR_MIN", "CHAR_MAX",
     "char", "", "", 7, 0, 0, "", "|i1"},
    {Type::U8, 1, "u8", "uchar", "uint8", "uint8_t", 1, false, false, "uchar", "0", "UCHAR_MAX",
     "uchar", "", "", 8, 0, 0, "", "|u1"},
    {Type::I16, 2, "i16", "short", "int16", "int16_t", 2, false, true, "ushort", "SHRT_MIN",
     "SHRT_MAX", "short", "", "", 15, 0, 0, "", "<i2"},
    {Type::U16, 3, "u16", "ushort", "uint16", "uint16_t", 2, false, false, "ushort", "0",
     "USHRT_MAX", "ushort", "", "", 16, 0, 0, "", "<u2"},
    {Type::I32, 4, "i32", "int", "int32", "int32_t", 4, false, true, "uint", "INT_MIN", "INT_MAX",
     "int", "", "", 31, 0, 0, "", "<i4"},
    {Type::U32, 5, "u32", "uint", "uint32", "uint32_t", 4, false, false, "uint", "0", "UINT_MAX",
     "uint", "", "", 32, 0, 0, "", "<u4"},
    {Type::I64, 6, "i64", "long", "int64", "int64_t", 8, false, true, "ulong", "LONG_MIN",
     "LONG_MAX", "long", "", "", 63, 0, 0, "", "<i8"},
    {Type::U64, 7, "u64", "ulong", "uint64", "uint64_t", 8, false, false, "ulong", "0",
     "ULONG_MAX", "ulong", "", "", 64, 0, 0, "", "<u8"},
    {Type::F32, 8, "f32", "float", "float32", "single", 4, true, true, "", "", "",
     "float", "", "", 24, -125, 128, "", "<f4"},
    {Type::F64, 9, "f64", "double", "float64", "double", 8, true, true, "", "", "",
     "double", "", "", 53, -1021, 1024, "cl_khr_fp64", "<f8"},
    {Type::F16, 10, "f16", "float", "float16", "half", 2, true, true, "", "", "",
     "ushort", "rdx_f16_value(x)", "RDX_CAT(rdx_f16_values, N)(x)", 11, -13, 16, "", "<f2"},
    {Type::BF16, 11, "bf16", "float", "bfloat16", "bfloat16", 2, true, true, "", "", "",
     "ushort", "as_float((uint)(x) << 16)",
     "RDX_CAT(as_float, N)(RDX_CAT(convert_uint, N)(x) << 16)", 8, -125, 128, "", ""},
};
// clang-format on

constexpr const TypeRow& type_row(Type t) {
  return kTypeRows[static_cast<std::size_t>(t)];
}

// The computed type of a row stored as another (f16, bf16: f32): the row stored as it is
// computed in that OpenCL C type. A type stored as it is computed is its own.
constexpr Type computed_type_of(Type t) {
  const TypeRow& r = type_row(t);
  for (const TypeRow& c : kTypeRows)
    if (c.cl_storage == r.cl_name && c.cl_name == r.cl_name) return c.type;
  return t;  // unreachable for a complete table (type_rows_complete)
}

constexpr bool rows_follow_enum() {
  if (std::size(kTypeRows) != std::size(kAllTypes)) return false;
  for (std::size_t i = 0; i < std::size(kTypeRows); ++i)
    if (kTypeRows[i].type != kAllTypes[i] || static_cast<std::size_t>(kAllTypes[i]) != i)
      return false;
  return true;
}
static_assert(rows_follow_enum(), "kTypeRows must list every rdx::Type in enum order");

constexpr bool type_wire_codes_unique() {
  for (std::size_t i = 0; i < std::size(kTypeRows); ++i)
    for (std::size_t j = i + 1; j < std::size(kTypeRows); ++j)
      if (kTypeRows[i].wire == kTypeRows[j].wire) return false;
  return true;
}
static_assert(type_wire_codes_unique(), "kTypeRows: two types share a wire code");

// parse_type accepts a type's OpenCL C name only where the type is stored as it is computed:
// "ushort" names u16, not a 16-bit float stored in a ushort.
constexpr bool accepts_cl_name(const TypeRow& r) {
  return r.cl_storage == r.cl_name;
}

// A type stored as another OpenCL type converts its stored values (cl_value, cl_values); one
// stored as it is computed converts nothing, and its computed type has a row. Every row has its
// .npy dtype string, one of its own (bf16 has none: NumPy has no bfloat16), and the extension of a
// double (the kernels' NEEDS_FP64) where it computes in double.
constexpr bool type_rows_complete() {
  for (const TypeRow& r : kTypeRows) {
    const bool same = r.cl_storage == r.cl_name;
    if (r.cl_storage.empty() || r.cl_name.empty() || r.digits <= 0) return false;
    if (!r.npy.empty() && r.npy.size() < 3) return false;
    if (!same && type_row(computed_type_of(r.type)).cl_storage != r.cl_name) return false;
    if (same != r.cl_value.empty() || same != r.cl_values.empty()) return false;
    if ((r.cl_name == "double") != (r.cl_extension == "cl_khr_fp64")) return false;
    if (r.is_float != (r.max_exp > 0)) return false;
  }
  for (std::size_t i = 0; i < std::size(kTypeRows); ++i)
    for (std::size_t j = i + 1; j < std::size(kTypeRows); ++j)
      if ((!kTypeRows[i].npy.empty() && kTypeRows[i].npy == kTypeRows[j].npy) ||
          kTypeRows[i].name == kTypeRows[j].name)
        return false;
  return true;
}
static_assert(type_rows_complete(),
              "kTypeRows: a row lacks its storage conversion, .npy code, digits or extension");

}  // namespace rdx::detail
