// Element types and operators that librdx reduces, with their names and host-side properties.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "rdx/errors.hpp"
#include "rdx/half.hpp"

namespace rdx {

// F16 and BF16 (rdx/half.hpp) are storage types: stored in 16 bits, computed in f32 (or f64).
enum class Type : std::uint8_t { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64, F16, BF16 };
// min, max, argmin and argmax propagate NaN as NumPy's do; nanmin, nanmax, nanargmin and
// nanargmax ignore it unless every element is NaN (docs/semantics.md).
enum class Op : std::uint8_t {
  Sum,
  Prod,
  Min,
  Max,
  And,
  Or,
  Xor,
  ArgMin,
  ArgMax,
  NanMin,
  NanMax,
  NanArgMin,
  NanArgMax
};

inline constexpr Type kAllTypes[] = {Type::I8,  Type::U8,  Type::I16, Type::U16,
                                     Type::I32, Type::U32, Type::I64, Type::U64,
                                     Type::F32, Type::F64, Type::F16, Type::BF16};
inline constexpr Op kAllOps[] = {Op::Sum,    Op::Prod,      Op::Min,      Op::Max,    Op::And,
                                 Op::Or,     Op::Xor,       Op::ArgMin,   Op::ArgMax, Op::NanMin,
                                 Op::NanMax, Op::NanArgMin, Op::NanArgMax};

std::string_view name(Type t);
std::string_view name(Op op);
// Parse a type ("f32", also "float", "int32", ...) or an operator; throws ArgumentError.
Type parse_type(std::string_view s);
Op parse_op(std::string_view s);

// NumPy's dtype string for t in a .npy header ("<f4", "|u1": little-endian, or no byte order
// for one byte), and the type a dtype string names: byte order '<', '=' or '|', or any for one
// byte; nullopt for any other string (big-endian, a kind librdx does not reduce).
std::string_view npy_descr(Type t);
std::optional<Type> type_of_npy(std::string_view descr);

std::size_t size_of(Type t);
bool is_float(Type t);
// The type t's values are computed in, and its default accumulator: f32 for f16 and bf16 (storage
// types), t itself for every other type.
Type computed_type(Type t);
bool is_signed(Type t);
inline bool is_index_op(Op op) {
  return op == Op::ArgMin || op == Op::ArgMax || op == Op::NanArgMin || op == Op::NanArgMax;
}
inline bool is_bitwise(Op op) {
  return op == Op::And || op == Op::Or || op == Op::Xor;
}
// True when op is defined for elements of type t (bitwise operators need integers).
inline bool op_allows(Op op, Type t) {
  return !(is_bitwise(op) && is_float(t));
}
// True when every value of type `from` converts to type `to` exactly: no wrap-around, no
// rounding (i32 into i64 or f64; u32 into i64; not i32 into u64, nor i64 into f64).
bool holds_every_value(Type to, Type from);

template <class T>
constexpr Type type_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, std::int8_t>)
    return Type::I8;
  else if constexpr (std::is_same_v<U, std::uint8_t>)
    return Type::U8;
  else if constexpr (std::is_same_v<U, std::int16_t>)
    return Type::I16;
  else if constexpr (std::is_same_v<U, std::uint16_t>)
    return Type::U16;
  else if constexpr (std::is_same_v<U, std::int32_t>)
    return Type::I32;
  else if constexpr (std::is_same_v<U, std::uint32_t>)
    return Type::U32;
  else if constexpr (std::is_same_v<U, std::int64_t> ||
                     (std::is_same_v<U, long long> && sizeof(long long) == 8))
    return Type::I64;
  else if constexpr (std::is_same_v<U, std::uint64_t> ||
                     (std::is_same_v<U, unsigned long long> && sizeof(long long) == 8))
    return Type::U64;
  else if constexpr (std::is_same_v<U, float>)
    return Type::F32;
  else if constexpr (std::is_same_v<U, double>)
    return Type::F64;
  else if constexpr (std::is_same_v<U, f16>)
    return Type::F16;
  else if constexpr (std::is_same_v<U, bf16>)
    return Type::BF16;
  else
    static_assert(sizeof(U) == 0, "librdx reduces i8..i64, u8..u64, f16, bf16, f32 and f64 only");
}

// Calls f(T{}) with the C++ type that t names (rdx::f16 and rdx::bf16 for the 16-bit floats).
template <class F>
decltype(auto) visit_type(Type t, F&& f) {
  switch (t) {
    case Type::I8:
      return f(std::int8_t{});
    case Type::U8:
      return f(std::uint8_t{});
    case Type::I16:
      return f(std::int16_t{});
    case Type::U16:
      return f(std::uint16_t{});
    case Type::I32:
      return f(std::int32_t{});
    case Type::U32:
      return f(std::uint32_t{});
    case Type::I64:
      return f(std::int64_t{});
    case Type::U64:
      return f(std::uint64_t{});
    case Type::F32:
      return f(float{});
    case Type::F64:
      return f(double{});
    case Type::F16:
      return f(f16{});
    case Type::BF16:
      return f(bf16{});
  }
  return f(std::int8_t{});  // unreachable: every enumerator is handled above
}

// Calls f(A{}) with the C++ type of accumulator type `acc`. The storage types (f16, bf16) are
// never accumulators (their values compute in f32 or f64), so the host's arithmetic is never
// instantiated on them: ArgumentError for one.
template <class F>
decltype(auto) visit_acc(Type acc, F&& f) {
  return visit_type(acc, [&](auto z) -> decltype(f(float{})) {
    if constexpr (is_half_v<decltype(z)>)
      throw ArgumentError(std::string(name(acc)) +
                          " is a storage type, not an accumulator (its values compute in f32)");
    else
      return f(z);
  });
}

// One value of any librdx type, kept with its type (a reduction's result).
struct Scalar {
  Type type = Type::I32;
  std::uint64_t bits = 0;  // the value's bytes, little-endian, in the low size_of(type) bytes

  template <class T>
  static Scalar of(T v) {
    Scalar s;
    s.type = type_of<T>();
    std::memcpy(&s.bits, &v, sizeof(T));
    return s;
  }
  static Scalar from_bytes(Type t, const void* p);
  // The value converted to T as a C++ static_cast from the stored type would convert it; a
  // float that T cannot hold (NaN, an infinity, out of range: undefined behaviour for the cast)
  // is an ArgumentError when T is an integer type.
  template <class T>
  T as() const {
    return visit_type(type, [&](auto z) {
      decltype(z) v;
      std::memcpy(&v, &bits, sizeof v);
      return converted_value<T>(v);
    });
  }

  // A 16-bit float converts as its float value does; a value converts to a 16-bit float
  // rounded to nearest (rdx/half.hpp).
  template <class T, class S>
  static T converted_value(S v) {
    if constexpr (is_half_v<S>)
      return converted_value<T>(static_cast<float>(v));
    else if constexpr (is_half_v<T>)
      return T(static_cast<double>(v));
    else
      return converted_plain<T>(v);
  }
  template <class T, class S>
  static T converted_plain(S v) {
    if constexpr (std::is_floating_point_v<S> && std::is_integral_v<T> &&
                  !std::is_same_v<T, bool>) {
      const S hi = std::ldexp(S(1), std::numeric_limits<T>::digits);  // exact: a power of two
      const S lo = std::is_signed_v<T> ? -hi : S(0);
      if (!(std::trunc(v) >= lo && std::trunc(v) < hi))
        throw ArgumentError("Scalar::as: " + std::to_string(v) +
                            " is not a value of the integer type asked for");
    }
    return static_cast<T>(v);
  }
  // Shortest text that reads back to the same value ("nan", "inf", "-inf" for floats).
  std::string to_string() const;
  bool operator==(const Scalar&) const = default;
};

}  // namespace rdx
