// A device input at an element offset: what every cl::Buffer input of librdx takes.
#pragma once
#include <cstdint>

#include "rdx/context.hpp"

namespace rdx {

// The elements of `buffer` (a buffer of the Context's OpenCL context) from element `offset` on:
// element k of the input is element offset + k of the buffer, and argmin/argmax's indexes count
// from the offset. A cl::Buffer converts to one at offset 0, so rdx::reduce(ctx, type, buffer,
// n, op) reads from the start. A PyOpenCL array sliced from a larger one is its base_data at
// offset / itemsize. Read in place at any offset (no sub-buffer: OpenCL requires a sub-buffer's
// origin to be aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN, 128 bytes on PoCL). Every entry point
// refuses (ArgumentError, before any work) a null buffer, an offset past the buffer's end, and n
// elements that run past it, whatever n: with n == 0 an offset at the end is an empty input there,
// one further is past it.
struct BufferAt {
  cl::Buffer buffer;
  std::uint64_t offset = 0;
  BufferAt(const cl::Buffer& b, std::uint64_t element_offset = 0)  // NOLINT: converts on purpose
      : buffer(b), offset(element_offset) {}
};

}  // namespace rdx
