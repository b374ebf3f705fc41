// Internal: users' reductions (and the composites, which run as users' reductions) over segments,
// axes and views, as the segmented entry points (api/reduce_segmented_custom.cpp) run them: a job
// (the reduction prepared for its inputs' types), its states on the device from host inputs (in
// passes beyond one allocation) or device inputs, and those states split into fields, scattered
// into the caller's buffers or finished on the device.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/context_impl.hpp"
#include "dispatch/segments.hpp"  // StateResults, takes_results
#include "exec/exec.hpp"
#include "exec/user_inputs.hpp"
#include "ops/stats.hpp"
#include "rdx/segmented.hpp"
#include "rdx/segmented_custom.hpp"

namespace rdx::detail {

// A user's reduction as one call runs it: prepared for its inputs' types.
struct UserJob {
  Context& ctx;
  const Reduction& r;
  UserInputs in;
  std::shared_ptr<const Prepared> prep;

  // further: the inputs after the first; offsets: every input's element offset, or none (all 0).
  UserRun run(std::uint64_t base, std::vector<cl::Buffer> further,
              std::span<const std::uint64_t> offsets = {}) const {
    std::vector<std::uint64_t> rest;
    if (!offsets.empty()) rest.assign(offsets.begin() + 1, offsets.end());
    return {&prep->definitions, prep->layout.bytes, base, std::move(further), std::move(rest)};
  }
};

// The job of host inputs (n elements each) or device inputs (checked); validates r against them.
UserJob host_job(Context& ctx, const Reduction& r, std::span<const Array> inputs, std::uint64_t n,
                 const char* who);
UserJob device_job(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                   std::uint64_t n, const char* who);

// p over device inputs `in` (their elements from flat index `base`; each from its element offset,
// `in_offsets`: the caller's device inputs', host inputs read in place from an aligned start),
// states into `out`, through run_segments; returns the plan that ran (its work-group size may be
// below p's). check_offsets: device offsets of the caller's, checked on the device first.
// results: a composite's results written by the kernels instead of the states (takes_results).
SegmentedPlan run_states(const UserJob& job, const SegmentedPlan& p,
                         const std::vector<cl::Buffer>& in,
                         std::span<const std::uint64_t> in_offsets, std::uint64_t base,
                         const cl::Buffer* offsets, const cl::Buffer& out,
                         bool check_offsets = false, const StateResults* results = nullptr);

// A call's states on the device: the plan that ran and p.segments states in `states`; or, where
// the kernels wrote a composite's results (`finished`), none.
struct DeviceStates {
  SegmentedPlan ran;
  cl::Buffer states;
  bool finished = false;
};

// A buffer for p.segments states of the job's reduction.
cl::Buffer states_buffer(const UserJob& job, const SegmentedPlan& p);

// The job's host inputs reduced by p: in one pass (the elements the segments cover; read in place
// on a CPU device), or in passes whose pieces of a segment are combined on the device. offsets:
// p.by_offsets only (checked). results (where takes_results(p)): a composite's results, written
// by the kernels in one pass (the result is `finished`); in passes the states come back.
DeviceStates host_states(const UserJob& job, const SegmentedPlan& p,
                         std::span<const std::uint64_t> offsets,
                         const StateResults* results = nullptr);
// The job's device inputs reduced by p in one pass (ArgumentError when p.in_passes()); offsets:
// host offsets for p.by_offsets (checked); results as host_states'.
DeviceStates device_states(const UserJob& job, const SegmentedPlan& p,
                           std::span<const std::uint64_t> offsets, const char* who,
                           const StateResults* results = nullptr);

// The states read back and split into fields.
SegmentedStates to_fields(const UserJob& job, const DeviceStates& d);

// The caller's field buffers: one per field of the reduction, each holding p.segments values of
// its type (ArgumentError otherwise).
void check_fields(const UserJob& job, const SegmentedPlan& p, std::span<const cl::Buffer> fields,
                  const char* who);
// The states' field f, every state_bytes-th run of its bytes, into the contiguous fields[f]:
// one rectangular copy per field; waits for them.
void scatter_fields(const UserJob& job, const SegmentedPlan& p, const cl::Buffer& states,
                    std::span<const cl::Buffer> fields);

// A composite's results from its states on the device (cl/seg_results.cl), `form` (its
// stat_result_cl) into `out`, one buffer per output type; d.ran neither by offsets nor exact.
// Waits.
void device_results(const UserJob& job, const DeviceStates& d, const ResultForm& form,
                    std::span<const cl::Buffer> out);

}  // namespace rdx::detail
