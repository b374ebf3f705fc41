// Internal: the binned_sum plan (rdx::Determinism AnyDevice for float sums) run on device data
// with cl/binned_sum.cl, its merged state read back (ops/binned_sum.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "ops/binned_sum.hpp"
#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

// The binned state of the first n elements of `in` (ex.plan's type, from ex.in_offset), with the
// plan's grid ("groups", "blocked", "lanes") and merge ("host_finish"); waits for it.
BinnedSum run_binned(Exec& ex, const cl::Buffer& in, std::uint64_t n);

// The same in two steps, for the device group's one-thread path: enqueues the work and the read
// of the state and returns without waiting; the function waits and gives it. The Exec outlives
// the function, which is called at most once.
std::function<BinnedSum()> binned_later(Exec& ex, const cl::Buffer& in, std::uint64_t n);

// The same enqueued for rdx::enqueue_reduce: after `wait`, the sum rounded on the device into
// `out_type` (F32 or F64) at byte `offset` of `out` (a multiple of its size); `done` receives the
// event of that write. Returns without waiting. The groups' states are merged by binned_finish
// whatever the plan's "host_finish" says: the result stays on the device.
void enqueue_binned(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type out_type,
                    const cl::Buffer& out, std::size_t offset, const std::vector<cl::Event>* wait,
                    cl::Event* done);

}  // namespace rdx::detail
