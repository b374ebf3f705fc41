#include "core/pinned_bytes.hpp"

#include "core/format.hpp"

#include "core/cl_check.hpp"

namespace rdx::detail {

PinnedBytes::PinnedBytes(const cl::Context& ctx, const cl::CommandQueue& queue, std::size_t bytes)
    : queue_(queue) {
  cl_int err = CL_SUCCESS;
  buf_ = cl::Buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of pinned host memory)", bytes));
  ptr_ = static_cast<unsigned char*>(queue_.enqueueMapBuffer(
      buf_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, nullptr, nullptr, &err));
  RDX_CHECK_OUT(err, "clEnqueueMapBuffer(pinned host memory)");
}

PinnedBytes::~PinnedBytes() {
  if (ptr_) {
    queue_.enqueueUnmapMemObject(buf_, ptr_);  // errors cannot be reported from a destructor
    queue_.finish();
  }
}

}  // namespace rdx::detail
