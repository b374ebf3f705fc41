// Internal: the one check of a device input (rdx::BufferAt, rdx::DeviceArray, rdx::Shard, and the
// caller's offset and result buffers), made before any work.
#pragma once
#include <cstdint>
#include <string_view>

#include "rdx/buffer_at.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

// ArgumentError unless `in` is a buffer (not null) of ctx's OpenCL context whose element offset
// is within it (at most its end: an empty input may start there) and that holds n elements of
// `type` from that offset on; checked whatever n is, 0 included. `who` begins the message.
void check_device_input(const Context& ctx, const BufferAt& in, Type type, std::uint64_t n,
                        std::string_view who);

}  // namespace rdx::detail
