// Internal: what the segmented entry points (api/segmented.cpp) and their passes over host inputs
// larger than one allocation (api/segmented_passes.cpp) share.
#pragma once
#include <cstdint>
#include <span>

#include "core/context_impl.hpp"
#include "rdx/segmented.hpp"

namespace rdx::detail {

// A device buffer of `bytes` bytes (at least 1), read-only and holding a copy of `init` when given.
cl::Buffer device_buffer(Context::Impl& impl, std::uint64_t bytes, const void* init,
                         const char* what);

// Runs p on device data (offsets, when by offsets, already on the device and checked) and reads
// the results back.
SegmentedResult run_to_host(Context& ctx, const SegmentedPlan& p, const cl::Buffer& data,
                            const cl::Buffer* offsets);

// p on host data of more than p.chunk elements, in passes of at most p.chunk elements: offsets
// (checked) for p.by_offsets, else p's axis form. Each pass runs p's form (lanes, parts, loads)
// on its own elements.
SegmentedResult segments_in_passes(Context& ctx, const SegmentedPlan& p, const void* data,
                                   std::span<const std::uint64_t> offsets);
SegmentedResult axis_in_passes(Context& ctx, const SegmentedPlan& p, const void* data);

}  // namespace rdx::detail
