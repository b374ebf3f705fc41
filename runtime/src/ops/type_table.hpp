// Internal: the one table of element and accumulator types: their names, sizes and the OpenCL C
// facts the kernels are specialised with (runtime/src/ops/cl_definitions.cpp). rdx::Type's
// enumerators index it; a static_assert below keeps the two in step.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rdx/types.hpp"

namespace rdx::detail {

struct TypeRow {
  Type type;
  // The type's byte in a Partial's byte form (api/partial.cpp): fixed, unlike the enumerator's
  // position, so that bytes written before a type was added still read. A new type takes a code
  // no row has; a code never changes.
  std::uint8_t wire;
  std::string_view name;            // librdx's name: "f32"
  std::string_view cl_name;         // OpenCL C's: "float"
  std::string_view alias1, alias2;  // also accepted by parse_type
  std::size_t size;                 // bytes
  bool is_float, is_signed;         // floats are signed
  std::string_view cl_unsigned;     // integers: the unsigned twin (wrapping arithmetic)
  std::string_view cl_min, cl_max;  // integers: the limits, as OpenCL C constants
};

inline constexpr TypeRow kTypeRows[] = {
    {Type::I8, 0, "i8", "char", "int8", "int8_t", 1, false, true, "uchar", "CHAR_MIN", "CHAR_MAX"},
    {Type::U8, 1, "u8", "uchar", "uint8", "uint8_t", 1, false, false, "uchar", "0", "UCHAR_MAX"},
    {Type::I16, 2, "i16", "short", "int16", "int16_t", 2, false, true, "ushort", "SHRT_MIN",
     "SHRT_MAX"},
    {Type::U16, 3, "u16", "ushort", "uint16", "uint16_t", 2, false, false, "ushort", "0",
     "USHRT_MAX"},
    {Type::I32, 4, "i32", "int", "int32", "int32_t", 4, false, true, "uint", "INT_MIN", "INT_MAX"},
    {Type::U32, 5, "u32", "uint", "uint32", "uint32_t", 4, false, false, "uint", "0", "UINT_MAX"},
    {Type::I64, 6, "i64", "long", "int64", "int64_t", 8, false, true, "ulong", "LONG_MIN",
     "LONG_MAX"},
    {Type::U64, 7, "u64", "ulong", "uint64", "uint64_t", 8, false, false, "ulong", "0",
     "ULONG_MAX"},
    {Type::F32, 8, "f32", "float", "float32", "single", 4, true, true, "", "", ""},
    {Type::F64, 9, "f64", "double", "float64", "double", 8, true, true, "", "", ""},
};

constexpr const TypeRow& type_row(Type t) {
  return kTypeRows[static_cast<std::size_t>(t)];
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

}  // namespace rdx::detail
