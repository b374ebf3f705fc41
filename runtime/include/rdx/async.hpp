// Reductions that do not wait: an event form that writes the result into the caller's device
// buffer (a chain of reductions runs with no host synchronisation), and a host-result form that
// returns a std::future.
#pragma once
#include <cstddef>
#include <cstdint>
#include <future>
#include <span>
#include <vector>

#include "rdx/custom.hpp"
#include "rdx/reduce.hpp"

namespace rdx {

// Enqueues the reduction of n elements of `type` from `data`'s element offset on (a buffer of
// ctx's context) on ctx's queue, after the events `wait`, and the write of its result into `out` at
// byte `offset`: the value in the accumulator type (size_of(acc) bytes; offset a multiple of
// size_of(acc), else ArgumentError, whichever path writes it). Returns the event of that write;
// nothing waits on the host. An empty input writes the operator's identity (float min/max:
// +inf/-inf). argmin and argmax are ArgumentErrors (their result is two values: see minmax in
// rdx/stats.hpp and the Reduction form below), and float products UnsupportedErrors (the
// synchronous form has them). Options::strategy: auto, fast_strided or fast_blocked (the other
// launchers read their result on the host: UnsupportedError). The buffers must stay alive until the
// event completes.
cl::Event enqueue_reduce(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
                         const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>& wait = {}, const Options& opts = {});

// The same for a user's reduction over device inputs: `out` receives the final state's
// state_bytes(r) bytes at `offset`, each field at field_offset(r, k); offset a multiple of the
// largest field's size (ArgumentError otherwise), which puts every field at a multiple of its own.
cl::Event enqueue_reduce(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                         std::uint64_t n, const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>& wait = {}, const Options& opts = {});
// The bytes of r's state and where field k lies in them (fields largest first, then the order
// of Reduction::fields; zeroed padding at the end).
std::size_t state_bytes(const Reduction& r);
std::size_t field_offset(const Reduction& r, std::size_t k);

// rdx::reduce on a thread of its own: the future holds the result or the exception. Host data
// must stay alive and unchanged until the future is ready; the Context must outlive it.
std::future<Result> reduce_async(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
                                 const Options& opts = {});
std::future<Result> reduce_async(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                 Op op, const Options& opts = {});

}  // namespace rdx
