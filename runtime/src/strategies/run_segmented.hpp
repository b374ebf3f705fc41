// Internal: running a segmented plan (rdx/segmented.hpp) on device buffers: cl/segmented.cl's
// kernels, the offsets' check, the results into device buffers.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "rdx/segmented.hpp"

namespace rdx::detail {

// The segments of `in` (p.n elements from its offset on; segments by `offsets`, p.segments + 1 of
// them, when
// p.by_offsets, else p's axis form) reduced into `values` (p.segments values of p.acc) and, for
// argmin/argmax, `indices` (p.segments ulongs). Waits for the results. Returns the plan that
// ran (its lanes at most the work-group size the kernel was built for).
// check_offsets (offsets from the caller's device buffer): cl/segmented.cl's seg_check runs
// first; if the offsets do not start at 0, decrease, or end past p.n, the reduction writes
// nothing and this throws ArgumentError once the queue is done.
// A user's reduction (p.user()) runs with `user` (its definitions, state size, the index base and
// further inputs of its map); `values` then receives p.segments states of user->state_bytes.
// The exact form (p.exact) of a user's reduction sums each of `exact_fields` (every field a float
// sum) and writes it, rounded, into its place in `values`' states.
// `results` (a composite's, where takes_results(p)): the kernel that ends each segment writes
// its results into results->out instead of its state into `values` (which then holds only the
// parts' partial states, if any; pass any buffer).
struct ExactFieldPlace {
  std::string name;
  Type type = Type::F32;
  std::size_t offset = 0;  // in the state
};
// A composite's results (cl/seg_result.h): `statements` (ops/stats.hpp's ResultForm), the
// outputs' types, and one buffer per type, p.segments values each.
struct StateResults {
  const std::string& statements;
  std::span<const Type> types;
  std::span<const cl::Buffer> out;
};
// Whether p's kernels can end with StateResults: a user's reduction along axes or a view, not
// exact, not in column blocks (cl/segmented.cl's SEG_RESULTS).
inline bool takes_results(const SegmentedPlan& p) {
  return p.user() && !p.by_offsets && !p.exact && !p.column_block;
}
SegmentedPlan run_segmented(Context::Impl& ctx, const SegmentedPlan& p, const BufferAt& in,
                            const cl::Buffer* offsets, const cl::Buffer& values,
                            const cl::Buffer* indices, bool check_offsets = false,
                            const UserRun* user = nullptr,
                            std::span<const ExactFieldPlace> exact_fields = {},
                            const StateResults* results = nullptr);

// A user's reduction's states on the device, for host inputs in passes (its combine runs on the
// device only), with the kernels of plan p: identity_states sets states [0, count) of `out` to
// the identity; merge_states combines states [0, count) of `piece` into out's states [first,
// first + count), out's on the left. Both wait for their kernel.
void identity_states(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                     const cl::Buffer& out, std::uint64_t count);
void merge_states(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                  const cl::Buffer& out, std::uint64_t first, const cl::Buffer& piece,
                  std::uint64_t count);

// A composite's results from its states (cl/seg_results.cl): `results` (the outputs' statements,
// ops/stats.hpp's ResultForm, with `out_types` their types) run over states [0, p.segments) of
// `states`, one output buffer per type in `out`. p is neither by_offsets nor exact. Waits.
void state_results(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                   const cl::Buffer& states, const std::string& results,
                   std::span<const Type> out_types, std::span<const cl::Buffer> out);

}  // namespace rdx::detail
