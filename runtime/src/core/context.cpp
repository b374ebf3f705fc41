#include <cstdlib>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/device_handles.hpp"

namespace rdx {

Context::Context(std::string_view selector) : impl_(std::make_unique<Impl>()) {
  std::string sel(selector);
  if (sel.empty())
    if (const char* env = std::getenv("RDX_DEVICE")) sel = env;
  auto handles = detail::enumerate_devices();
  std::vector<DeviceInfo> infos;
  for (auto& h : handles)
    infos.push_back(h.info);
  const DeviceInfo& chosen = select_device(infos, sel);
  const auto& h = handles[chosen.index];
  impl_->info = h.info;
  impl_->platform = h.platform;
  impl_->device = h.device;
  impl_->tuning = tuning_for(h.info);
  cl_int err = CL_SUCCESS;
  impl_->context = cl::Context(h.device, nullptr, nullptr, nullptr, &err);
  RDX_CHECK_OUT(err, "clCreateContext");
  impl_->queue = cl::CommandQueue(impl_->context, h.device, 0, &err);
  RDX_CHECK_OUT(err, "clCreateCommandQueue");
}

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
