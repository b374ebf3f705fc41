// Internal: rdx::reduce_partial of a device buffer in two steps, for the device group's shards
// (api/multi.cpp): every device's work is enqueued from one thread before any of it is waited
// for. Two host threads' calls into NVIDIA's driver slowed each other: on two H200s, 2^30 f32 in
// two shards took 0.63-0.65 ms as plain calls on two threads and 0.51-0.53 ms enqueued from one
// thread (docs/multidevice.md).
#pragma once
#include <cstdint>
#include <functional>

#include "rdx/buffer_at.hpp"
#include "rdx/partial.hpp"

namespace rdx::detail {

// Whether `plan` runs in two steps: the exact sums, and the strategies with an enqueue form
// (StrategyDef::enqueue).
bool enqueues(const Plan& plan);

// reduce_partial's state of n >= 1 elements of `in` (checked by the caller) under `plan`
// (enqueues(plan)): enqueues the work and the read of its state and returns without waiting; the
// function waits for them and gives the Partial. Call it once. Dropping it uncalled waits for the
// device before its scratch is released.
std::function<Partial()> enqueue_partial(Context& ctx, const Plan& plan, const BufferAt& in,
                                         std::uint64_t n, bool profile);

}  // namespace rdx::detail
