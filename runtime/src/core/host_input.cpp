#include "core/host_input.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "core/cl_check.hpp"
#include "core/pinned_bytes.hpp"

namespace rdx::detail {
namespace {

// Two blocks of pinned memory per context that host input is staged through (see host_input).
constexpr std::size_t kStageBlock = std::size_t{32} << 20;

struct Staging {
  std::mutex mutex;  // one upload at a time per context
  std::unique_ptr<PinnedBytes> block[2];
};

// `bytes` of host data into b through the context's two pinned blocks: the host copies block
// k + 1 while the device reads block k; returns when every write has finished.
void staged_write(Context::Impl& ctx, const cl::Buffer& b, const unsigned char* host,
                  std::uint64_t bytes) {
  const auto staging = ctx.cached<Staging>("host input staging");
  std::lock_guard<std::mutex> lock(staging->mutex);
  for (auto& block : staging->block)
    if (!block) block = std::make_unique<PinnedBytes>(ctx.context, ctx.queue, kStageBlock);
  cl::Event written[2];
  // On an error, the writes already enqueued finish before the blocks are reused.
  struct Drain {
    cl::CommandQueue& queue;
    bool done = false;
    ~Drain() {
      if (!done) queue.finish();  // errors cannot be reported from a destructor
    }
  } drain{ctx.queue};
  std::uint64_t at = 0;
  for (int k = 0; at < bytes; k ^= 1) {
    const std::size_t len =
        static_cast<std::size_t>(std::min<std::uint64_t>(kStageBlock, bytes - at));
    if (written[k]()) RDX_CHECK(written[k].wait());
    std::memcpy(staging->block[k]->data(), host + at, len);
    RDX_CHECK(ctx.queue.enqueueWriteBuffer(b, CL_FALSE, at, len, staging->block[k]->data(), nullptr,
                                           &written[k]));
    RDX_CHECK(ctx.queue.flush());
    at += len;
  }
  for (auto& w : written)
    if (w()) RDX_CHECK(w.wait());
  drain.done = true;
}

}  // namespace

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
  if (in_place || !bytes) return b;
  if (bytes >= 2 * kStageBlock)
    staged_write(ctx, b, static_cast<const unsigned char*>(host), bytes);
  else
    RDX_CHECK(ctx.queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, host));
  return b;
}

}  // namespace rdx::detail
