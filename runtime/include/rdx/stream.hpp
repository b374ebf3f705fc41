// Streaming reduction: a sequence of host chunks reduced as one input, for data larger than one
// device allocation or larger than host memory.
//
//   rdx::Stream s(ctx, rdx::Type::F32, rdx::Op::Sum);
//   while (std::size_t n = read_some(block)) s.push(block, n);   // block reusable at once
//   rdx::Result r = s.finish();
//
// The contract:
// - The chunks form one input, in push order: the result is that of rdx::reduce over their
//   concatenation (float sums may round differently, within the same documented bound: the
//   returned Plan::depth accounts for the combine; under Determinism AnyDevice and Exact a float
//   sum gives rdx::reduce's bits exactly, whatever the slot size and the pushes). argmin/argmax
//   indices count from the first element ever pushed; all counts are 64-bit.
// - push() copies the caller's elements to the device before it returns: the caller's memory is
//   never modified and may be reused (or freed) as soon as push() returns. A push larger than a
//   slot (see slot_bytes) is split; a push of 0 elements does nothing.
// - Transfers overlap the reduction: two device slots, the writes on a second command queue of
//   the context's OpenCL context, and a worker thread that reduces one full slot on the
//   context's queue while push() fills the other.
// - An exception raised by the worker (a kernel build or an OpenCL failure) is rethrown by the
//   next push() or finish(); after any exception the Stream is failed and every later push() or
//   finish() rethrows it. The Context stays usable either way.
// - finish() returns the Result (the operator's identity for an empty stream; ArgumentError for
//   argmin/argmax of an empty stream) and releases the device slots; push() or finish() after
//   a finish() is an ArgumentError.
// - The destructor never throws: it abandons chunks not yet started and waits for every command
//   already queued (PoCL aborts when a buffer in use is released).
// - One Stream is driven from one thread at a time; several Streams may share one Context,
//   which must outlive them.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "rdx/partial.hpp"
#include "rdx/reduce.hpp"

namespace rdx {

class Stream {
 public:
  // The slot size when none is given: large enough that per-chunk launch and read-back costs
  // vanish (64 MiB at 25 GB/s is 2.7 ms), small enough to keep two slots cheap.
  static constexpr std::uint64_t kDefaultSlotBytes = std::uint64_t{64} << 20;

  // Validates the request at once (as make_plan does: unknown strategy, bitwise op on floats,
  // f64 without fp64 ...). slot_bytes: device bytes per slot, 0 for kDefaultSlotBytes; clamped
  // to the device's max_alloc and rounded down to whole elements (at least one).
  Stream(Context& ctx, Type type, Op op, const Options& opts = {}, std::uint64_t slot_bytes = 0);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Appends n elements of the stream's type at `data` (null only when n == 0).
  void push(const void* data, std::uint64_t n);
  template <class T>
  void push(std::span<T> data) {
    check_type(type_of<std::remove_cv_t<T>>());
    push(data.data(), data.size());
  }

  // Waits for every pushed element to be reduced and returns the result of the whole stream.
  Result finish();
  // The same as a partial state (rdx/partial.hpp), to combine with other streams' or ranks'
  // (UnsupportedError for float products, before anything else); it ends the stream as finish().
  Partial finish_partial();

  std::uint64_t count() const;          // elements pushed so far
  std::uint64_t slot_elements() const;  // elements per device slot (the chunk size)

 private:
  void check_type(Type t) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdx
