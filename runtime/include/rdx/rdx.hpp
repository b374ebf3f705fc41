// librdx: reductions of host or device arrays on any OpenCL device. Complete, tested examples:
// docs/examples/ (reduce_host.cpp, reduce_buffer.cpp, stream.cpp), shown in the README.
#pragma once
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#include <CL/opencl.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

#include "rdx/device_info.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "rdx/strategies.hpp"
#include "rdx/types.hpp"

namespace rdx {

std::string_view version();  // "MAJOR.MINOR.PATCH", the same as `clrdx --version`

// The on-disk cache of built kernels: $RDX_CACHE_DIR, else $XDG_CACHE_HOME/rdx, else
// ~/.cache/rdx ("" when RDX_CACHE_DIR=off); entries live in its programs-v2/ folder.
// clear_program_cache() removes those entries (and nothing else) and returns how many. Both
// throw ArgumentError when RDX_CACHE_DIR names something that is not a directory.
std::string program_cache_dir();
std::uint64_t clear_program_cache();

// One device, one in-order queue (without profiling; calls with Options::profile use a second
// queue made for them), its DeviceInfo and its cache of built programs.
// Safe to share between host threads.
class Context {
 public:
  // selector: see select_device(); "" means RDX_DEVICE, else the first GPU, else the first device.
  explicit Context(std::string_view selector = "");
  ~Context();
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;

  const DeviceInfo& device_info() const;
  const cl::Context& cl_context() const;
  const cl::Device& cl_device() const;
  const cl::CommandQueue& queue() const;
  // What this context plans with: the built-in tuning table plus the tuning file's entries for
  // its device (read once, when the context is made).
  const TuningTable& tuning() const;

  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// What a reduction returns: the value (of the accumulator type), the index for argmin/argmax,
// and the plan that ran.
struct Result {
  Scalar value;
  std::optional<std::uint64_t> index;
  Plan plan;
  double device_seconds = 0;  // with Options::profile: the kernels' time on the device
};

// Untyped entry points (what the CLI uses). `type` is the element type; data is never modified.
Result reduce(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
              const Options& opts = {});
Result reduce(Context& ctx, Type type, const cl::Buffer& data, std::uint64_t n, Op op,
              const Options& opts = {});

// The device's round trip: the median time of one empty kernel launch plus a blocking read of one
// scalar into pinned host memory (as auto reads its result), over `repeats` tries after warm-up.
// The floor of any reduction call (bench baseline).
double measure_roundtrip(Context& ctx, int repeats = 50);

// The result of an empty input: the operator's identity, in type acc. Throws ArgumentError for
// argmin/argmax, which have no identity.
Scalar identity(Op op, Type acc);

template <class T>
struct IndexResult {
  T value;
  std::uint64_t index;  // first occurrence
};

namespace detail {
template <class R, class T>
Options with_acc(Options o) {
  if constexpr (!std::is_void_v<R>) o.acc = type_of<R>();
  return o;
}
template <class R, class T>
using result_t = std::conditional_t<std::is_void_v<R>, T, R>;
}  // namespace detail

// Host data. R, when given, is the accumulator type (reduce<double>(ctx, floats, Op::Sum)).
template <class R = void, class T>
detail::result_t<R, std::remove_cv_t<T>> reduce(Context& ctx, std::span<T> data, Op op,
                                                Options opts = {}) {
  using E = std::remove_cv_t<T>;
  auto r = reduce(ctx, type_of<E>(), data.data(), data.size(), op, detail::with_acc<R, E>(opts));
  return r.value.template as<detail::result_t<R, E>>();
}

template <class T>
IndexResult<std::remove_cv_t<T>> reduce_index(Context& ctx, std::span<T> data, Op op,
                                              Options opts = {}) {
  using E = std::remove_cv_t<T>;
  auto r = reduce(ctx, type_of<E>(), data.data(), data.size(), op, opts);
  return {r.value.template as<E>(), r.index.value_or(0)};
}

// Device-resident data: n elements of T at the start of `data`, which belongs to ctx's context.
template <class T, class R = T>
R reduce_buffer(Context& ctx, const cl::Buffer& data, std::uint64_t n, Op op, Options opts = {}) {
  auto r = reduce(ctx, type_of<T>(), data, n, op, detail::with_acc<R, T>(opts));
  return r.value.template as<R>();
}

template <class T>
IndexResult<T> reduce_index_buffer(Context& ctx, const cl::Buffer& data, std::uint64_t n, Op op,
                                   Options opts = {}) {
  auto r = reduce(ctx, type_of<T>(), data, n, op, opts);
  return {r.value.template as<T>(), r.index.value_or(0)};
}

}  // namespace rdx

// Streaming: a sequence of host chunks reduced as one input (rdx::Stream).
#include "rdx/stream.hpp"
