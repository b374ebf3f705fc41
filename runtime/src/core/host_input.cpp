#include "core/host_input.hpp"

#include <fmt/format.h>

#include "core/cl_check.hpp"

namespace rdx::detail {

bool reads_host_in_place(const DeviceInfo& dev) {
  return dev.kind == DeviceKind::CPU;
}

cl::Buffer host_input(Context::Impl& ctx, const void* host, std::uint64_t bytes,
                      std::size_t element_size) {
  const bool aligned = element_size && reinterpret_cast<std::uintptr_t>(host) % element_size == 0;
  const bool in_place = host && bytes && aligned && reads_host_in_place(ctx.info);
  cl_int err = CL_SUCCESS;
  // OpenCL's host_ptr is not const; CL_MEM_READ_ONLY: no kernel writes the buffer.
  cl::Buffer b(ctx.context, CL_MEM_READ_ONLY | (in_place ? CL_MEM_USE_HOST_PTR : 0),
               bytes ? bytes : 1, in_place ? const_cast<void*>(host) : nullptr, &err);
  RDX_CHECK_OUT(
      err, fmt::format("clCreateBuffer({} bytes of input{})", bytes, in_place ? ", in place" : ""));
  if (!in_place && bytes) RDX_CHECK(ctx.queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, host));
  return b;
}

}  // namespace rdx::detail
