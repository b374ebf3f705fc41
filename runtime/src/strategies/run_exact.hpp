// Internal: the exact_sum plan (rdx::Determinism Exact for float sums, and both levels for users'
// float sum fields) run on device data with cl/exact_sum.cl, its digits and flags read back
// (ops/exact_sum.hpp).
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

// The exact sum of the first n elements of `in` with ex's plan (its grid: "groups", "blocked",
// "fold"; from ex.in_offset), of elements of type `value` (F32 or F64): `in`'s own, or with
// ex.user (a user's reduction) the field `field` of each element's mapped state, the further inputs
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

}  // namespace rdx::detail
