// A Context's internals and the steps of making one; api/context.cpp makes it (between the steps
// it loads the device's tuning table, plan/tuning.cpp).
#include <cstdlib>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/device_handles.hpp"

namespace rdx {

namespace detail {

void select_into(Context::Impl& impl, std::string_view selector) {
  std::string sel(selector);
  if (sel.empty())
    if (const char* env = std::getenv("RDX_DEVICE")) sel = env;
  auto handles = detail::enumerate_devices();
  std::vector<DeviceInfo> infos;
  for (auto& h : handles)
    infos.push_back(h.info);
  const DeviceInfo& chosen = select_device(infos, sel);
  const auto& h = handles[chosen.index];
  impl.info = h.info;
  impl.platform = h.platform;
  impl.device = h.device;
}

void open_queue(Context::Impl& impl) {
  cl_int err = CL_SUCCESS;
  impl.context = cl::Context(impl.device, nullptr, nullptr, nullptr, &err);
  RDX_CHECK_OUT(err, "clCreateContext");
  impl.queue = cl::CommandQueue(impl.context, impl.device, 0, &err);
  RDX_CHECK_OUT(err, "clCreateCommandQueue");
}

void adopt_into(Context::Impl& impl, const cl::Context& context, const cl::Device& device,
                const cl::CommandQueue& queue) {
  if (!context() || !device() || !queue())
    throw ArgumentError("rdx::Context: the app's context, device and queue must not be null");
  std::vector<cl::Device> devices;
  RDX_CHECK(context.getInfo(CL_CONTEXT_DEVICES, &devices));
  bool in_context = false;
  for (const auto& d : devices)
    in_context = in_context || d() == device();
  if (!in_context) throw ArgumentError("rdx::Context: the device does not belong to the context");
  cl::Context queue_context;
  cl::Device queue_device;
  RDX_CHECK(queue.getInfo(CL_QUEUE_CONTEXT, &queue_context));
  RDX_CHECK(queue.getInfo(CL_QUEUE_DEVICE, &queue_device));
  if (queue_context() != context() || queue_device() != device())
    throw ArgumentError("rdx::Context: the queue belongs to another context or device");
  cl_command_queue_properties props = 0;
  RDX_CHECK(queue.getInfo(CL_QUEUE_PROPERTIES, &props));
  if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
    throw ArgumentError("rdx::Context: the queue must be in order");
  cl_platform_id platform = nullptr;
  RDX_CHECK(device.getInfo(CL_DEVICE_PLATFORM, &platform));
  impl.platform = cl::Platform(platform, true);
  impl.device = device;
  impl.info = detail::describe_device(impl.platform, device);
  // The listed device's index, where the app's device is one of them.
  for (const auto& h : detail::enumerate_devices())
    if (h.device() == device()) impl.info.index = h.info.index;
}

}  // namespace detail

cl::CommandQueue& Context::Impl::queue_for(bool profile) {
  if (!profile) return queue;
  std::lock_guard<std::mutex> lock(profiling_mutex);
  if (!profiling_queue()) {
    cl_int err = CL_SUCCESS;
    profiling_queue = cl::CommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
    RDX_CHECK_OUT(err, "clCreateCommandQueue(CL_QUEUE_PROFILING_ENABLE)");
  }
  // What the caller queued on the context's queue (the input's writes) comes first.
  RDX_CHECK(queue.finish());
  return profiling_queue;
}

Context::~Context() {
  // Nothing queued may outlive its buffers: PoCL aborts the process otherwise.
  if (impl_) impl_->queue.finish();
}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

const DeviceInfo& Context::device_info() const {
  return impl_->info;
}
const cl::Context& Context::cl_context() const {
  return impl_->context;
}
const cl::Device& Context::cl_device() const {
  return impl_->device;
}
const cl::CommandQueue& Context::queue() const {
  return impl_->queue;
}
const TuningTable& Context::tuning() const {
  return impl_->tuning;
}

}  // namespace rdx
