// Making a Context: its device (core/context.cpp's steps), the device's tuning table (the
// built-in entries and the tuning file's for this device, plan/tuning.cpp: a malformed file is an
// ArgumentError here, when the Context is made) and its queue. Here, not in core/, because the
// tuning file's keys are checked against the strategies' tunables, which plan/ holds.
#include "core/context_impl.hpp"
#include "rdx/tuning.hpp"

namespace rdx {

Context::Context(std::string_view selector) : impl_(std::make_unique<Impl>()) {
  detail::select_into(*impl_, selector);
  impl_->tuning = tuning_for(impl_->info);
  detail::open_queue(*impl_);
}

Context::Context(const cl::Context& context, const cl::Device& device,
                 const cl::CommandQueue& queue)
    : impl_(std::make_unique<Impl>()) {
  detail::adopt_into(*impl_, context, device, queue);
  impl_->tuning = tuning_for(impl_->info);
  impl_->context = context;
  impl_->queue = queue;
}

Context Context::wrap(::cl_context context, cl_device_id device, cl_command_queue queue) {
  return Context(cl::Context(context, true), cl::Device(device, true),
                 cl::CommandQueue(queue, true));
}

}  // namespace rdx
