// Internal: running a segmented plan (rdx/segmented.hpp) on device buffers: cl/segmented.cl's
// kernels, the offsets' check, the results into device buffers.
#pragma once
#include <cstdint>

#include "core/context_impl.hpp"
#include "rdx/segmented.hpp"

namespace rdx::detail {

// The segments of `in` (p.n elements; segments by `offsets`, p.segments + 1 of them, when
// p.by_offsets, else p's axis form) reduced into `values` (p.segments values of p.acc) and, for
// argmin/argmax, `indices` (p.segments ulongs). Waits for the results. Returns the plan that
// ran (its lanes at most the work-group size the kernel was built for).
// check_offsets (offsets from the caller's device buffer): cl/segmented.cl's seg_check runs
// first; if the offsets do not start at 0, decrease, or end past p.n, the reduction writes
// nothing and this throws ArgumentError once the queue is done.
SegmentedPlan run_segmented(Context::Impl& ctx, const SegmentedPlan& p, const cl::Buffer& in,
                            const cl::Buffer* offsets, const cl::Buffer& values,
                            const cl::Buffer* indices, bool check_offsets = false);

// The same rule for offsets on the host.
void check_host_offsets(std::span<const std::uint64_t> offsets, std::uint64_t n);

}  // namespace rdx::detail
