// Reductions users write themselves: a map over one to four input arrays, a state of one to four
// scalar fields, its identity and its combine, each written as an OpenCL C expression. The
// built-in composite reductions (rdx/stats.hpp) are instances of the same mechanism.
//
// Expressions are scalar OpenCL C expressions, never statements: no `;`, braces, preprocessor
// lines, string literals or comments, and nothing that reaches memory or stores a value (unary `*`
// and `&`, pointer casts, `[]`, `->`, assignments, `++`, `--`), no comma operator outside a call's
// arguments; at most 4096 characters, 1024 operators and 64 levels of nesting. The names they
// may use:
//   map       x (the first input), x0 .. x3 (the inputs), i (the element's index, ulong)
//   combine   one field: a, b (two values of the field's type); several fields: a.NAME, b.NAME
//   identity  none (a constant expression)
// and in every expression: OpenCL C's scalar type names (for casts), its built-in math, integer,
// common and relational functions (fabs, fmax, sqrt, min, select, isnan, convert_*, as_*, ...)
// and its constants (INFINITY, NAN, FLT_MAX, INT_MAX, M_PI, ...). Anything else is an
// ArgumentError, before anything is compiled; a compiler error in an expression is a BuildError
// that names the expression.
//
// The identity must be neutral for the combine: before a reduction first runs on a context, a
// small kernel checks on the device that combine(identity, identity) is the identity and that
// combining it with the map of the elements 0 and 1 gives those back (not where an expression
// divides); an identity that fails is an ArgumentError naming the value it gave
// (docs/custom.md).
//
// The combine must be associative (and commutative on devices that combine partials out of
// order), as in CUB and Boost.Compute: one that is not gives results that depend on the device,
// the strategy and the input size.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rdx/context.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"

namespace rdx {

// One field of a reduction's state.
struct Field {
  std::string name;  // an identifier (letters, digits, _), used as a.NAME / b.NAME
  Type type = Type::F32;
  std::string identity;  // the field's value in the state of an empty input: neutral (checked)
  std::string map;       // the field's value in the state of one element
  std::string combine;   // the field's value in the combination of states a and b
};

// A reduction: one to four fields. Fields are computed from the same a and b (or element), so
// one field may read the others' old values.
struct Reduction {
  std::vector<Field> fields;
  std::string name = "custom";  // shown in Result plans and errors
  // Optional, one input only: OpenCL C statements that set the state `r` (its fields r.NAME) to
  // the state of RDX_CHUNK consecutive elements of a work-item, from `x`, an array of their
  // values (the input's computed type; not mapped: the statements apply the map). The same state
  // as combining their maps, up to rounding; the fast kernels then combine one state per chunk
  // instead of one per element (docs/custom.md). Empty: element by element.
  std::string chunk;

  // One field of type acc: `combine` over a and b, `identity`, and `map` (default: the first
  // input converted to acc).
  static Reduction simple(Type acc, std::string combine, std::string identity,
                          std::string map = "x");
  // A built-in operator (sum, prod, min, max, and, or, xor) over `map`: transform-reduce, in
  // type acc (f16 or bf16: in f32, their computed type; a field is never a storage type).
  // argmin and argmax are ArgumentErrors (their state has an index: see rdx::Stat::MinMax).
  static Reduction transform(Op op, Type acc, std::string map);
};

// One host input array: its element type and its first element (n elements are read).
struct Array {
  Type type = Type::F32;
  const void* data = nullptr;
  template <class T>
  static Array of(std::span<const T> s) {
    return {type_of<T>(), s.data()};
  }
};

// One device input array: n elements of `type` from element `offset` of `buffer` (ctx's
// context) on, as rdx::BufferAt: read in place, the map's i counts from the offset.
struct DeviceArray {
  Type type = Type::F32;
  cl::Buffer buffer;
  std::uint64_t offset = 0;
};

// A reduction's final state: one Scalar per field, in the order of Reduction::fields.
struct StateResult {
  std::vector<Scalar> fields;
  Plan plan;                  // what ran; plan.reduction names the reduction
  double device_seconds = 0;  // with Options::profile: the kernels' time on the device
};

// Reduces n elements of every input (all of the same length n) with r. Inputs beyond one device
// allocation are reduced in chunks, each chunk's state combined on the device with the previous
// ones in order. The caller's data is never modified. Options::strategy may be any strategy:
// amp_sequential, and the atomic ones for a state of other than 4 or 8 bytes, throw
// UnsupportedError (docs/custom.md).
StateResult reduce(Context& ctx, const Reduction& r, std::span<const Array> inputs, std::uint64_t n,
                   const Options& opts = {});
StateResult reduce(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                   std::uint64_t n, const Options& opts = {});

}  // namespace rdx
