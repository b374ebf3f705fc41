// Internal: a user's reduction (rdx/custom.hpp) checked and turned into the kernels' definitions,
// the counterpart of cl_definitions.cpp for the built-in operators. cl/fast.cl runs it (its
// USER_STATE form; cl/common.h says what the definitions provide).
#pragma once
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "rdx/custom.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {

// The most inputs and fields a reduction has.
inline constexpr std::size_t kMaxInputs = 4;
inline constexpr std::size_t kMaxFields = 4;

// Where each field lives in the state's bytes (the OpenCL C struct the kernels use): fields
// sorted by size, largest first, so the struct has no interior padding; `bytes` includes the
// zeroed tail padding up to the largest field's alignment.
struct StateLayout {
  std::size_t bytes = 0;
  std::vector<std::size_t> offsets;  // in the order of Reduction::fields
};
StateLayout state_layout(const Reduction& r);

// Throws ArgumentError when r is not a reduction over `inputs` inputs: no fields or more than
// four, a bad field name, an expression that is empty, unbalanced, holds anything but an
// expression (`;`, braces, `#`, quotes, comments, `__kernel`) or a name outside the documented
// ones (rdx/custom.hpp).
void validate(const Reduction& r, std::size_t inputs);

// Where an expression sits in the definitions: its kind ("identity", "map", "combine"), its
// field, and its line (1-based; the definitions begin the program's source).
struct ExpressionLine {
  std::string kind;
  std::size_t field = 0;
  std::size_t line = 0;
};

// The kernels' definitions for r over inputs of these types (validate first); `lines`, when
// given, receives where each expression is.
std::string user_definitions(const Reduction& r, std::span<const Type> inputs,
                             std::vector<ExpressionLine>* lines = nullptr);

// Whether r over inputs of these types has a vector form: one field of f32, f64, i32, u32, i64
// or u64, every input of that type, and a map and combine made only of the inputs (not i) or a
// and b, decimal literals (f32: float literals with an f suffix), + - * / (unsigned integers also
// %; signed integers none of these, whose overflow is undefined, except in the built-in sum's
// combine, which adds unsigned twins), & | ^ ~ and casts of a vector operand to the field's type
// or its unsigned twin (integers), and fabs, fmin, fmax, sqrt (integers: min, max): expressions
// that compute, lane by lane on VW-wide vectors, what they compute on scalars, bit for bit.
// user_definitions then also defines USER_VMAP_AT, USER_VCOMBINE and the rest of cl/fast.cl's
// USER_VECTOR_MAP form. Pure.
bool has_vector_form(const Reduction& r, std::span<const Type> inputs);

// What Determinism AnyDevice and Exact make of a reduction's fields: every field a float sum
// (combine a + b, or a.F + b.F: summed exactly, cl/exact_sum.cl), no float field at all (the
// integer operators do not depend on the order: run as under RunToRun), or neither.
enum class FieldSums { FloatSums, NoFloats, Other };
FieldSums field_sums(const Reduction& r);

// The fields of a state read back from the device.
std::vector<Scalar> unpack_state(const Reduction& r, const StateLayout& layout,
                                 const unsigned char* bytes);

// A BuildError of a program made from user_definitions(r, inputs), as an ExpressionError naming
// the first expression the compiler complained about (by the #line file names where the compiler
// follows #line, as PoCL's does, else by the line number, as NVIDIA's reports); `build` itself
// when no expression is named.
[[noreturn]] void rethrow_build_error(const Reduction& r, std::span<const Type> inputs,
                                      const BuildError& build);

}  // namespace rdx::detail
