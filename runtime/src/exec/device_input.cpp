// The one check of a device input (see device_input.hpp).
#include "exec/device_input.hpp"

#include <limits>

#include "core/cl_check.hpp"
#include "core/format.hpp"
#include "plan/request.hpp"  // byte_size
#include "rdx/errors.hpp"

namespace rdx::detail {

void check_device_input(const Context& ctx, const BufferAt& in, Type type, std::uint64_t n,
                        std::string_view who) {
  const cl::Buffer& buf = in.buffer;
  if (buf() == nullptr) throw ArgumentError(detail::format("{}: the cl::Buffer is null", who));
  std::size_t size = 0;
  RDX_CHECK(buf.getInfo(CL_MEM_SIZE, &size));
  const std::uint64_t elements = size / size_of(type);  // whole elements the buffer holds
  if (in.offset > elements)  // past the end: refused even when nothing is read from there
    throw ArgumentError(detail::format(
        "{}: element offset {} is past the end of the buffer ({} bytes: {} elements of {})", who,
        in.offset, size, elements, name(type)));
  if (n > elements - in.offset) {  // elements past the end
    if (n > std::numeric_limits<std::uint64_t>::max() / size_of(type) - in.offset)
      throw ArgumentError(
          detail::format("{}: element offset {} + {} elements of {} overflow a 64-bit byte count",
                         who, in.offset, n, name(type)));
    const std::uint64_t need = byte_size(type, in.offset + n);
    if (in.offset)
      throw ArgumentError(
          detail::format("{}: {} elements of {} at element offset {} need {} bytes, the buffer "
                         "has {}",
                         who, n, name(type), in.offset, need, size));
    throw ArgumentError(detail::format("{}: {} elements of {} need {} bytes, the buffer has {}",
                                       who, n, name(type), need, size));
  }
  cl::Context owner;
  RDX_CHECK(buf.getInfo(CL_MEM_CONTEXT, &owner));
  if (owner() != ctx.cl_context()())
    throw ArgumentError(detail::format(
        "{}: the cl::Buffer belongs to another OpenCL context than rdx::Context", who));
}

}  // namespace rdx::detail
