#include "core/host_input.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/cl_check.hpp"
#include "core/pinned_bytes.hpp"

namespace rdx::detail {
namespace {

// Host input from kStageMin bytes on is staged through pinned memory (see host_input): up to
// kStageThreads host threads, each copying its slice of the input through two blocks of its own.
// 4 GiB of f32 to an H100 (clrdx reduce, medians of 3 rounds, docs/multidevice.md): pageable
// copies 0.64 s; 4 threads with 1, 2 and 4 MiB blocks 0.29, 0.19 and 0.19 s; 8 threads with 2 MiB
// 0.13 s. On other instances of the machine: one thread with 32 MiB blocks 0.60 s against 0.50 s
// pageable; 4, 8 and 16 threads with 16 MiB blocks 0.30, 0.30 and 0.43 s against 0.62 s.
constexpr std::uint64_t kStageMin = std::uint64_t{32} << 20;
constexpr std::size_t kStageBlock = std::size_t{2} << 20;
constexpr unsigned kStageThreads = 8;

struct Staging {
  std::mutex mutex;                                  // one upload at a time per context
  std::vector<std::unique_ptr<PinnedBytes>> blocks;  // two per thread
};

// Bytes [begin, end) of host data into b through blocks `two`: the host copies one block while
// the device reads the other; returns when every write has finished.
void staged_slice(Context::Impl& ctx, const cl::Buffer& b, const unsigned char* host,
                  std::uint64_t begin, std::uint64_t end, PinnedBytes* const* two) {
  cl::Event written[2];
  std::uint64_t at = begin;
  for (int k = 0; at < end; k ^= 1) {
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(kStageBlock, end - at));
    if (written[k]()) RDX_CHECK(written[k].wait());
    std::memcpy(two[k]->data(), host + at, len);
    RDX_CHECK(
        ctx.queue.enqueueWriteBuffer(b, CL_FALSE, at, len, two[k]->data(), nullptr, &written[k]));
    RDX_CHECK(ctx.queue.flush());
    at += len;
  }
  for (auto& w : written)
    if (w()) RDX_CHECK(w.wait());
}

// `bytes` of host data into b through the context's pinned blocks, in slices on up to
// kStageThreads threads (this one among them); returns when every write has finished.
void staged_write(Context::Impl& ctx, const cl::Buffer& b, const unsigned char* host,
                  std::uint64_t bytes) {
  const auto staging = ctx.cached<Staging>("host input staging");
  std::lock_guard<std::mutex> lock(staging->mutex);
  // At least two blocks' worth per thread.
  const auto threads = static_cast<unsigned>(std::min<std::uint64_t>(
      kStageThreads, std::max<std::uint64_t>(1, bytes / (2 * kStageBlock))));
  while (staging->blocks.size() < 2 * threads)
    staging->blocks.push_back(std::make_unique<PinnedBytes>(ctx.context, ctx.queue, kStageBlock));
  std::vector<PinnedBytes*> blocks;
  for (auto& p : staging->blocks)
    blocks.push_back(p.get());
  std::vector<std::exception_ptr> errors(threads);
  const auto slice = [&](unsigned t) {
    try {
      staged_slice(ctx, b, host, bytes * t / threads, bytes * (t + 1) / threads, &blocks[2 * t]);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  std::vector<std::thread> running;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      running.emplace_back(slice, t);
    } catch (const std::system_error&) {
      slice(t);  // no thread for it: this one copies the slice
    }
  }
  slice(0);
  for (auto& th : running)
    th.join();
  for (const auto& e : errors)
    if (e) {
      ctx.queue.finish();  // the writes enqueued finish before the blocks are reused
      std::rethrow_exception(e);
    }
}

}  // namespace

bool reads_host_in_place(const DeviceInfo& dev) {
  return dev.kind == DeviceKind::CPU;
}

namespace {

// A read-only buffer of `bytes`: over host in place (CL_MEM_USE_HOST_PTR), else a new one that
// the bytes are written into.
cl::Buffer input_buffer(Context::Impl& ctx, const void* host, std::uint64_t bytes, bool in_place) {
  cl_int err = CL_SUCCESS;
  // OpenCL's host_ptr is not const; CL_MEM_READ_ONLY: no kernel writes the buffer.
  cl::Buffer b(ctx.context, CL_MEM_READ_ONLY | (in_place ? CL_MEM_USE_HOST_PTR : 0),
               bytes ? bytes : 1, in_place ? const_cast<void*>(host) : nullptr, &err);
  RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of input{})", bytes,
                                    in_place ? ", in place" : ""));
  if (!in_place) write_host_input(ctx, b, host, bytes);
  return b;
}

}  // namespace

cl::Buffer host_input(Context::Impl& ctx, const void* host, std::uint64_t bytes,
                      std::size_t element_size) {
  const bool aligned = element_size && reinterpret_cast<std::uintptr_t>(host) % element_size == 0;
  return input_buffer(ctx, host, bytes, host && bytes && aligned && reads_host_in_place(ctx.info));
}

BufferAt host_input_at(Context::Impl& ctx, const void* host, std::uint64_t bytes,
                       std::size_t element_size) {
  // The smallest page size of the hosts librdx runs on: rounding down to at most this stays in
  // host's page.
  constexpr std::uintptr_t kPage = 4096;
  const auto at = reinterpret_cast<std::uintptr_t>(host);
  if (!host || !bytes || !element_size || at % element_size || !reads_host_in_place(ctx.info))
    return host_input(ctx, host, bytes, element_size);
  const std::uintptr_t align = ctx.info.base_align_bytes;
  const std::uintptr_t skip = at % align;
  if (skip == 0) return input_buffer(ctx, host, bytes, true);
  if (align <= kPage && skip % element_size == 0 && bytes + skip <= ctx.info.max_alloc)
    return {input_buffer(ctx, reinterpret_cast<const void*>(at - skip), bytes + skip, true),
            skip / element_size};
  return input_buffer(ctx, host, bytes, false);  // in place, its loads would be misaligned
}

void write_host_input(Context::Impl& ctx, const cl::Buffer& b, const void* host,
                      std::uint64_t bytes) {
  if (!bytes) return;
  if (bytes >= kStageMin)
    staged_write(ctx, b, static_cast<const unsigned char*>(host), bytes);
  else
    RDX_CHECK(ctx.queue.enqueueWriteBuffer(b, CL_TRUE, 0, bytes, host));
}

}  // namespace rdx::detail
