// librdx's Context: one OpenCL device, its queue and its cache of built programs.
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
#include <string>
#include <string_view>

#include "rdx/device_info.hpp"
#include "rdx/tuning.hpp"

namespace rdx {

namespace detail {
struct ContextAccess;  // the library's way to a Context's internals
}  // namespace detail

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
  // The app's own OpenCL objects: no second context is made, so buffers of `context` can be
  // reduced in place (rdx::reduce's cl::Buffer forms, rdx/custom.hpp's DeviceArray). `device`
  // must belong to `context`, and `queue` (in order) to both; every call of this Context runs on
  // `queue`, after what the app queued before it. The handles are retained, not taken over.
  Context(const cl::Context& context, const cl::Device& device, const cl::CommandQueue& queue);
  // The same from the C API's handles (retained here; the app keeps its own references).
  static Context wrap(::cl_context context, cl_device_id device, cl_command_queue queue);
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

  struct Impl;  // the library's (runtime/src/core/context_impl.hpp)

 private:
  friend struct detail::ContextAccess;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdx
