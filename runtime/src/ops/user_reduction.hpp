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

// The bounds of one expression, far below what makes the OpenCL compiler overflow its stack
// (PoCL: a chain of 20,000 terms; 10,000 compile): its length, its nesting (parentheses, calls,
// casts, unary operators, ?: branches) and its operators.
inline constexpr std::size_t kMaxExpressionChars = 4096;
inline constexpr std::size_t kMaxExpressionDepth = 64;
inline constexpr std::size_t kMaxExpressionOperators = 1024;

// Where each field lives in the state's bytes (the OpenCL C struct the kernels use): fields
// sorted by size, largest first, so the struct has no interior padding; `bytes` includes the
// zeroed tail padding up to the largest field's alignment.
struct StateLayout {
  std::size_t bytes = 0;
  // The largest field's size: bytes is a multiple of it, and a state may start only at a
  // multiple of it (fields lie largest first, each at a multiple of its size, which the exact
  // path's kernel indexes by).
  std::size_t align = 1;
  std::vector<std::size_t> offsets;  // in the order of Reduction::fields
};
StateLayout state_layout(const Reduction& r);

// Throws ArgumentError when r is not a reduction over `inputs` inputs: no fields or more than
// four, a bad field name, or an expression that is not one of the scalar expressions that
// rdx/custom.hpp documents: parsed, not scanned, so that pointers, addresses, dereferences,
// assignments, increments, indexing, the comma operator, statements, comments, quotes and names
// outside the documented ones are refused, and so are expressions beyond the bounds above.
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

// The check that r's identity is neutral, run once per context and reduction
// (exec/user_inputs.cpp): identity_probe_kernel is a kernel, rdx_identity_probe(global rdx_state*
// out, ulong v), to append to user_definitions(r, inputs); run with v = 0 it writes
// identity_probe_states(r) states: e (the identity), combine(e, e), then, unless a map or combine
// divides (/ or %: an integer division by zero would stop some devices), for each of
// kIdentityProbes elements k (every input k, index k) p = map, combine(e, p), combine(p, e),
// combine(p, p). check_identity throws ArgumentError, naming the identity, the combine and the
// value they gave, when combine(e, e) is not e or a combine of e and a p (not NaN) is neither p nor
// combine(p, p) (a combine that normalises its operands, fmax(fabs(a), fabs(b))). Values compare as
// == compares them (+0 matches -0), NaN matching NaN; integers bit for bit.
inline constexpr std::size_t kIdentityProbes = 2;
std::size_t identity_probe_states(const Reduction& r);
std::string identity_probe_kernel(const Reduction& r, std::span<const Type> inputs);
void check_identity(const Reduction& r, const StateLayout& layout, const unsigned char* states);

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
