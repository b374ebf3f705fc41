// Internal: pinned host memory, which NVIDIA's driver copies to and from by DMA, without staging
// it through a buffer of its own: results read back (about 2 us sooner than into pageable memory)
// and host input written (core/host_input.cpp).
#pragma once
#include <cstddef>

#include "rdx/context.hpp"  // cl::Buffer

namespace rdx::detail {

// A CL_MEM_ALLOC_HOST_PTR buffer, mapped once; unmapped when it ends. Not thread-safe: its owner
// serialises its use.
class PinnedBytes {
 public:
  PinnedBytes(const cl::Context& ctx, const cl::CommandQueue& queue, std::size_t bytes = 16);
  ~PinnedBytes();
  PinnedBytes(const PinnedBytes&) = delete;
  PinnedBytes& operator=(const PinnedBytes&) = delete;
  unsigned char* data() const { return ptr_; }

 private:
  cl::CommandQueue queue_;
  cl::Buffer buf_;
  unsigned char* ptr_ = nullptr;
};

}  // namespace rdx::detail
