// Internal: the one dispatch of a segmented plan (run_segments: segments, axes and views, built-in
// operators and users' reductions, run_to_run and exact), and what the segmented entry points
// (api/reduce_segmented.cpp, api/reduce_segmented_custom.cpp through dispatch/user_segments.hpp)
// share around it: host data on the device, results read back, checks, and passes over host
// inputs larger than one allocation (dispatch/segments_passes.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "rdx/segmented.hpp"
#include "strategies/run_segmented.hpp"  // ExactFieldPlace

namespace rdx::detail {

// p run on device buffers by its launcher (strategies/run_segmented.cpp), whatever its form:
// the segments of `in` (p.n elements from its offset on; by `offsets`, p.segments + 1 of them on
// the device, for p.form() == SegmentedForm::Offsets and only then, else p's axis or view form)
// reduced into `values` (p.segments values of p.acc) and, for argmin/argmax, `indices`
// (p.segments ulongs). Waits for the results; returns the plan that ran (its lanes at most the
// work-group size the kernel was built for). check_offsets: the caller's device offsets, checked
// on the device first (ArgumentError once the queue is done). A user's reduction (p.user()) runs
// with `user`; its exact form with `exact_fields` (every field a float sum, each rounded into its
// place in the states).
SegmentedPlan run_segments(Context::Impl& ctx, const SegmentedPlan& p, const BufferAt& in,
                           const cl::Buffer* offsets, const cl::Buffer& values,
                           const cl::Buffer* indices, bool check_offsets = false,
                           const UserRun* user = nullptr,
                           std::span<const ExactFieldPlace> exact_fields = {},
                           const StateResults* results = nullptr);

// Host offsets checked: from 0, never decreasing, none past n (ArgumentError otherwise), the rule
// cl/segmented.cl's seg_check applies to device offsets.
void check_host_offsets(std::span<const std::uint64_t> offsets, std::uint64_t n);

// A new device buffer of `bytes` bytes (at least 1) for the kernels to write (results, states).
// Host inputs and host offsets reach the device through core/host_input.hpp instead.
cl::Buffer device_buffer(Context::Impl& impl, std::uint64_t bytes, const char* what);

// The caller's host elements or offsets as a read-only buffer: core/host_input.hpp's (read in
// place on a CPU device, the elements then at an element offset from an aligned start:
// host_input_at; else written into a new buffer). Every run over them waits for its kernels
// (run_segmented, merge_states), so the caller's memory outlives the reads.
BufferAt host_buffer(Context::Impl& impl, Type type, const void* host, std::uint64_t elements);
cl::Buffer host_offsets(Context::Impl& impl, std::span<const std::uint64_t> offsets);

// Data already on the device runs in one pass: ArgumentError when p.in_passes() (the tunable
// chunk splits host inputs only).
void check_one_pass(const SegmentedPlan& p, const char* who);

// The results (an axis of length 0 may have many) within one allocation: UnsupportedError
// otherwise. Inputs beyond one are reduced in passes (host data); a device buffer holds one
// allocation.
void check_fits(Context& ctx, const SegmentedPlan& p, const char* who);

// Host data seen through a view: the view from its lowest element on (offset rebased), a pointer
// to that element, and how many elements of the data the view spans from it.
struct HostView {
  View view;
  const void* first = nullptr;
  std::uint64_t elements = 0;
};
HostView host_view(const View& v, Type type, const void* data, const char* who);
// The view form runs in one pass: UnsupportedError when the elements its view spans exceed
// p.chunk.
void check_view_pass(const SegmentedPlan& p, std::uint64_t elements, const char* who);
// A device buffer holding every element v addresses (ArgumentError otherwise).
void check_device_view(Context& ctx, const cl::Buffer& data, Type type, const View& v,
                       const char* who);

// Runs p on device data (offsets, when by offsets, already on the device and checked) and reads
// the results back.
SegmentedResult run_to_host(Context& ctx, const SegmentedPlan& p, const BufferAt& data,
                            const cl::Buffer* offsets);
// p (a built-in operator's offsets, axis or view form, run_to_run) over host data reduced on the
// calling thread (dispatch/host_loop.hpp's run_host_segments) where auto's plan of a whole input of
// p.n elements would run there (runs_on_host: a CPU device, at most host_items elements) and opts
// leave the plan's choices to it; the results' plan says host_loop. nullopt otherwise: the
// kernels run it. offsets: p's, checked.
std::optional<SegmentedResult> host_segments(Context& ctx, const SegmentedPlan& p, const void* data,
                                             std::span<const std::uint64_t> offsets,
                                             const Options& opts);

// The results as the caller gets them: nanargmin/nanargmax's all-NaN segments refused
// (ArgumentError), the values in the result's type (rdx::result_type).
SegmentedResult finished_segments(SegmentedResult r);

// One pass over host data larger than one allocation: elements [first, first + q.n) of the
// input, reduced with plan q (p's form on the pass's own elements and shape), whose results are
// the pieces of segments [segment, segment + q.segments).
struct Pass {
  std::uint64_t first = 0, segment = 0;
  SegmentedPlan q;
  std::span<const std::uint64_t> offsets;  // by offsets: the pass's (q.segments + 1, from 0)
  // How far into its segment each piece starts: the first piece, and the others.
  std::uint64_t skip_first = 0, skip = 0;
};

// The passes of plan p (p.n > p.chunk) in order: of offsets (checked) for p.by_offsets, else of
// p's axis form; at most p.chunk elements each. A segment that spans passes has a piece in each,
// and a pass's pieces of one segment are never more than one.
void for_each_pass(const SegmentedPlan& p, std::span<const std::uint64_t> offsets,
                   const std::function<void(const Pass&)>& visit);

// Every pass's elements of one host input: on a device that reads the host in place, a buffer
// over the pass's elements where they are (host_buffer); elsewhere one device buffer, written
// before each pass as host_input writes (core/host_input.hpp: staged through pinned memory from
// 32 MiB on).
class PassInput {
 public:
  PassInput(Context& ctx, Type type, std::uint64_t chunk, std::uint64_t n, const void* data);
  // Elements first .. first + count - 1 of the input (count <= chunk), valid until the next load.
  BufferAt load(std::uint64_t first, std::uint64_t count);

 private:
  Context::Impl& impl_;
  Type type_;
  const unsigned char* base_;
  bool in_place_;
  cl::Buffer buf_;
};

// p (a built-in operator) on host data of more than p.chunk elements, in passes (for_each_pass),
// the pieces of a segment combined on the host in order. offsets: p.by_offsets only.
SegmentedResult in_passes(Context& ctx, const SegmentedPlan& p, const void* data,
                          std::span<const std::uint64_t> offsets = {});

}  // namespace rdx::detail
