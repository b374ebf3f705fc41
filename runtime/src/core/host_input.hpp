// Internal: a device buffer over a caller's host input, the one way every host path hands input
// elements to the kernels (rdx::reduce, the exact sums, users' reductions, the segmented and
// axis reductions).
#pragma once
#include <cstdint>

#include "core/context_impl.hpp"
#include "rdx/buffer_at.hpp"

namespace rdx::detail {

// `bytes` of the caller's host data at `host` (elements of `element_size` bytes) as a read-only
// buffer of ctx's context. On a CPU device (PoCL, Intel's CPU runtime: the device's memory is the
// host's) with `host` aligned to its element, a CL_MEM_USE_HOST_PTR buffer: the kernels read the
// caller's pages where they are, no copy (on PoCL an f32 sum of 2^24 host elements took 34 ms
// with the copy, 2 ms without). Elsewhere a new buffer the bytes are written into (blocking): from
// 32 MiB on, staged through pinned memory that the context keeps (2 MiB blocks, two per host
// thread, up to eight threads each copying its slice of the input while the device reads the
// previous block), below that straight from the caller's memory.
// Either way nothing writes to the caller's data; with USE_HOST_PTR it must stay alive and
// unchanged until the commands that read the buffer have finished, which every caller waits for.
cl::Buffer host_input(Context::Impl& ctx, const void* host, std::uint64_t bytes,
                      std::size_t element_size);

// As host_input, for kernels that count their vector loads' alignment from the buffer's start
// (cl/segmented.cl's SEG_VEC loads, which every buffer the device allocates satisfies: its start
// aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN). Read in place, the buffer starts at `host` rounded
// down to that alignment (within host's page: readable, never read) and the input at the element
// offset from there (a caller's malloc'd data is 16-byte aligned, an f64 load of 4 needs 32).
// Where that cannot be (an alignment beyond a page; the bytes before the data would take the
// buffer past the device's largest allocation) a new buffer the bytes are written into, as
// elsewhere (host_input's, at offset 0).
BufferAt host_input_at(Context::Impl& ctx, const void* host, std::uint64_t bytes,
                       std::size_t element_size);

// `bytes` of the caller's host data at `host` written into buffer b from its start, as host_input
// writes them (staged through pinned memory from 32 MiB on, else straight); returns when written.
// For a buffer reused across passes (api/segmented_passes.cpp) where the device does not read the
// host in place.
void write_host_input(Context::Impl& ctx, const cl::Buffer& b, const void* host,
                      std::uint64_t bytes);

// Whether host_input reads host data in place on this device.
bool reads_host_in_place(const DeviceInfo& dev);

}  // namespace rdx::detail
