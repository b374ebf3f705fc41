// Internal: the reproducible float sum plans (exact_sum, binned_sum: ops/sum_state.hpp) run by
// the plan's form; strategies/run_exact.hpp and strategies/run_binned.hpp have each form's steps.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "ops/sum_state.hpp"
#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

// The state of n elements of plan.type: host data in chunks of at most one allocation (or the
// tunable "chunk"), or a device buffer in one pass; waits for it. `device_seconds`, when given,
// receives the kernels' time (profile).
SumState sum_total(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                   std::uint64_t n, bool profile = false, double* device_seconds = nullptr);

// One pass over a device buffer.
SumState run_sum(Context::Impl& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n,
                 bool profile = false, double* device_seconds = nullptr);

// Enqueued now, the state read without waiting; the function waits and gives it (ex.plan's).
std::function<SumState()> sum_later(Exec& ex, const cl::Buffer& in, std::uint64_t n);

// rdx::enqueue_reduce: the sum rounded on the device into out_type at byte `offset` of `out`.
void enqueue_sum_rounded(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type out_type,
                         const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>* wait, cl::Event* done);

}  // namespace rdx::detail
