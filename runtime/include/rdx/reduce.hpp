// librdx's reductions of one host or device array: rdx::reduce and its typed forms.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"

namespace rdx {

// What a reduction returns: the value (of the accumulator type; for min, max, argmin, ... of f16
// or bf16 elements, the element's type), the index for argmin/argmax,
// and the plan that ran.
struct Result {
  Scalar value;
  std::optional<std::uint64_t> index;
  Plan plan;
  double device_seconds = 0;  // with Options::profile: the kernels' time on the device
};

// Untyped entry points (what the CLI uses). `type` is the element type; data is never modified.
// Device data: n elements of a buffer of ctx's context from its element offset on (a cl::Buffer
// is a BufferAt at offset 0); argmin/argmax's index counts from the offset.
Result reduce(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
              const Options& opts = {});
Result reduce(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
              const Options& opts = {});

// The device's round trip: the median time of one empty kernel launch plus a blocking read of one
// scalar into pinned host memory (as auto reads its result), over `repeats` tries after warm-up.
// The floor of any reduction call (bench baseline).
double measure_roundtrip(Context& ctx, int repeats = 50);

// The result of an empty input: the operator's identity, in type acc. Throws ArgumentError for
// argmin/argmax, which have no identity.
Scalar identity(Op op, Type acc);

// The type a result of op over `type` elements into accumulator `acc` is given in: the element
// type where op returns an element's value and the element is a storage type (max of f16: an
// f16, exact), else acc. result_value converts an accumulator value to it.
Type result_type(Op op, Type type, Type acc);
Scalar result_value(Op op, Type type, const Scalar& value);

template <class T>
struct IndexResult {
  T value;
  std::uint64_t index;  // first occurrence
};

namespace detail {
// R, when given, is the accumulator; a 16-bit float R (rdx::f16, rdx::bf16) is no accumulator:
// the reduction computes in f32 and its result is rounded to R, as NumPy's float16 sum is.
template <class R, class T>
Options with_acc(Options o) {
  if constexpr (!std::is_void_v<R> && !is_half_v<R>) o.acc = type_of<R>();
  return o;
}
template <class R, class T>
using result_t = std::conditional_t<std::is_void_v<R>, T, R>;
// The index forms' operator: argmin or argmax (ArgumentError otherwise).
inline void check_index_op(Op op, const char* where) {
  if (!is_index_op(op))
    throw ArgumentError(std::string(where) + ": " + std::string(name(op)) +
                        " gives no index: use argmin or argmax, or reduce for a value");
}
}  // namespace detail

// Host data. R, when given, is the accumulator type (reduce<double>(ctx, floats, Op::Sum)). The
// result is R, else the element type: an f16 or bf16 input's f32 result rounded to it (exact for
// min, max and the other operators that return an element).
template <class R = void, class T>
detail::result_t<R, std::remove_cv_t<T>> reduce(Context& ctx, std::span<T> data, Op op,
                                                Options opts = {}) {
  using E = std::remove_cv_t<T>;
  auto r = reduce(ctx, type_of<E>(), data.data(), data.size(), op, detail::with_acc<R, E>(opts));
  return r.value.template as<detail::result_t<R, E>>();
}

// argmin or argmax: the value and its index (ArgumentError for another operator).
template <class T>
IndexResult<std::remove_cv_t<T>> reduce_index(Context& ctx, std::span<T> data, Op op,
                                              Options opts = {}) {
  using E = std::remove_cv_t<T>;
  detail::check_index_op(op, "reduce_index");
  auto r = reduce(ctx, type_of<E>(), data.data(), data.size(), op, opts);
  return {r.value.template as<E>(), r.index.value_or(0)};
}

// Device-resident data: n elements of T from `data`'s offset on (a cl::Buffer: its start), a
// buffer of ctx's context.
// R is the accumulator, first as in reduce<R>; T, the elements' type, defaults to it
// (reduce_buffer<float>: f32 elements; reduce_buffer<double, float>: f32 elements into f64).
template <class R, class T = R>
R reduce_buffer(Context& ctx, const BufferAt& data, std::uint64_t n, Op op, Options opts = {}) {
  auto r = reduce(ctx, type_of<T>(), data, n, op, detail::with_acc<R, T>(opts));
  return r.value.template as<R>();
}

template <class T>
IndexResult<T> reduce_index_buffer(Context& ctx, const BufferAt& data, std::uint64_t n, Op op,
                                   Options opts = {}) {
  detail::check_index_op(op, "reduce_index_buffer");
  auto r = reduce(ctx, type_of<T>(), data, n, op, opts);
  return {r.value.template as<T>(), r.index.value_or(0)};
}

}  // namespace rdx
