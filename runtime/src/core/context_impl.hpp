// Internal: what a Context holds.
#pragma once
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "core/keyed_slots.hpp"
#include "core/plan_memo.hpp"
#include "core/programs.hpp"
#include "rdx/context.hpp"
#include "rdx/device_info.hpp"
#include "rdx/plan.hpp"
#include "rdx/tuning.hpp"

namespace rdx {

struct Context::Impl {
  DeviceInfo info;
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;  // in order, without profiling: the path every call takes
  detail::ProgramCache programs;
  TuningTable tuning;      // built-in entries + the tuning file's entries for this device
  detail::PlanMemo plans;  // rdx::reduce's recent plans (make_plan's, kept: core/plan_memo.hpp)

  // Per-context objects a strategy keeps between calls (kernels, scratch), by the strategy's key.
  template <class T>
  std::shared_ptr<T> cached(const std::string& key) {
    return std::static_pointer_cast<T>(
        cache.get(key, [] { return std::shared_ptr<void>(std::make_shared<T>()); }));
  }
  // Drops the object under `key` (holders keep theirs): for an entry that must not stay.
  void forget(const std::string& key) { cache.forget(key); }
  detail::KeyedSlots<std::string, void> cache;

  // The queue a call runs on: `queue`, or with Options::profile a second queue of the same
  // device made with CL_QUEUE_PROFILING_ENABLE on first use. Profiling is kept off the default
  // path because it costs each small call several microseconds on some drivers (NVIDIA's).
  cl::CommandQueue& queue_for(bool profile);

 private:
  std::mutex profiling_mutex;
  cl::CommandQueue profiling_queue;
};

namespace detail {

// The library's access to a Context's internals (Context::impl_ is private).
struct ContextAccess {
  static Context::Impl& of(const Context& c) { return *c.impl_; }
};

inline Context::Impl& impl_of(const Context& c) {
  return ContextAccess::of(c);
}

// The steps of making a Context (core/context.cpp), which its constructors (api/context.cpp) take
// in this order, loading the device's tuning table (plan/tuning.cpp's tuning_for) after the first:
// a malformed tuning file is reported when the Context is made, before any OpenCL object is.
// Context(selector): the device `selector` picks (info, platform, device; $RDX_DEVICE when empty);
// then its OpenCL context and in-order queue.
void select_into(Context::Impl& impl, std::string_view selector);
void open_queue(Context::Impl& impl);
// Context(context, device, queue): the app's objects checked (ArgumentError: null, a device
// outside the context, a queue of another one or out of order) and the device's facts read;
// the caller keeps context and queue.
void adopt_into(Context::Impl& impl, const cl::Context& context, const cl::Device& device,
                const cl::CommandQueue& queue);

}  // namespace detail

}  // namespace rdx
