// Internal: the exact_sum plan (rdx::Determinism AnyDevice and Exact for float sums) run on
// device data with cl/exact_sum.cl, its digits and flags read back (ops/exact_sum.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "ops/exact_sum.hpp"
#include "rdx/buffer_at.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

// The exact sum of the first n elements of `in` (plan.type), with the plan's grid ("groups",
// "blocked", "fold"); waits for it. `device_seconds`, when given, receives the kernels' time
// (profile).
ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n,
                   bool profile = false, double* device_seconds = nullptr);

// The same with ex's plan (and ex.in_offset), of elements of type `value` (F32 or F64): `in`'s
// own, or with ex.user
// (a user's reduction) the field `field` of each element's mapped state, the further inputs
// ex.user's.
ExactSum run_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field = "");

// The same in two steps, of ex.plan's type, for the device group's one-thread path: enqueues the
// work and the read of the digits and returns without waiting; the function waits and gives
// them. The Exec outlives the function, which is called at most once.
std::function<ExactSum()> exact_later(Exec& ex, const cl::Buffer& in, std::uint64_t n);

// The same enqueued for rdx::enqueue_reduce: after `wait`, the sum rounded on the device into
// `out_type` (F32 or F64) at byte `offset` of `out` (a multiple of its size); `done` receives the
// event of that write. Returns without waiting.
void enqueue_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field, Type out_type, const cl::Buffer& out,
                   std::size_t offset, const std::vector<cl::Event>* wait, cl::Event* done);

// The exact sum of n elements of plan.type: host data in chunks of at most one allocation (or the
// tunable "chunk"), or a device buffer in one pass; waits for it. `device_seconds`, when given,
// receives the kernels' time (profile).
ExactSum exact_total(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                     std::uint64_t n, bool profile = false, double* device_seconds = nullptr);

}  // namespace rdx::detail
