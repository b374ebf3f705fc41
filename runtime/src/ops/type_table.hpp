// Internal: the one table of element and accumulator types: their names, sizes and the OpenCL C
// facts the kernels are specialised with (runtime/src/ops/cl_definitions.cpp). rdx::Type's
// enumerators index it; a static_assert below keeps the two in step.
#pragma once
#include <cstddef>
#include <string_view>

#include "rdx/types.hpp"

namespace rdx::detail {

struct TypeRow {
  Type type;
  std::string_view name;            // librdx's name: "f32"
  std::string_view cl_name;         // OpenCL C's: "float"
  std::string_view alias1, alias2;  // also accepted by parse_type
  std::size_t size;                 // bytes
  bool is_float, is_signed;         // floats are signed
  std::string_view cl_unsigned;     // integers: the unsigned twin (wrapping arithmetic)
  std::string_view cl_min, cl_max;  // integers: the limits, as OpenCL C constants
};

inline constexpr TypeRow kTypeRows[] = {
    {Type::I8, "i8", "char", "int8", "int8_t", 1, false, true, "uchar", "CHAR_MIN", "CHAR_MAX"},
    {Type::U8, "u8", "uchar", "uint8", "uint8_t", 1, false, false, "uchar", "0", "UCHAR_MAX"},
    {Type::I16, "i16", "short", "int16", "int16_t", 2, false, true, "ushort", "SHRT_MIN",
     "SHRT_MAX"},
    {Type::U16, "u16", "ushort", "uint16", "uint16_t", 2, false, false, "ushort", "0", "USHRT_MAX"},
    {Type::I32, "i32", "int", "int32", "int32_t", 4, false, true, "uint", "INT_MIN", "INT_MAX"},
    {Type::U32, "u32", "uint", "uint32", "uint32_t", 4, false, false, "uint", "0", "UINT_MAX"},
    {Type::I64, "i64", "long", "int64", "int64_t", 8, false, true, "ulong", "LONG_MIN", "LONG_MAX"},
    {Type::U64, "u64", "ulong", "uint64", "uint64_t", 8, false, false, "ulong", "0", "ULONG_MAX"},
    {Type::F32, "f32", "float", "float32", "single", 4, true, true, "", "", ""},
    {Type::F64, "f64", "double", "float64", "double", 8, true, true, "", "", ""},
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

}  // namespace rdx::detail
