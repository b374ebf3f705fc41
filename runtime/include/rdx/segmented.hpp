// One result per segment: segments given by offsets (CSR row pointers, reduce_by_key's runs) and
// reductions along one axis of an N-D array in C order (row sums, column means, per-sample norms).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/device_info.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"
#include "rdx/view.hpp"

namespace rdx {

// The index argmin/argmax give an empty segment (whose value is 0).
inline constexpr std::uint64_t kEmptySegmentIndex = ~std::uint64_t{0};

// Where a segmented plan's segments are: from offsets (reduce_segments), along one axis of a
// contiguous array (reduce_axis, and reduce_axes where the reduced axes are neighbours), or
// through a view's addresses (reduce_axes over what the axis form cannot walk).
enum class SegmentedForm { Offsets, Axis, View };

// How a segmented reduction runs: a pure function of the device, types, operator and shape
// (plan_segments, plan_axis). Each segment is reduced by `lanes` work-items of one work-group
// (1: a work-item per segment) and split over `parts` work-groups (> 1: a second launch combines
// the parts in order). docs/segmented.md says which form runs when.
struct SegmentedPlan {
  Type type = Type::F32, acc = Type::F32;
  Op op = Op::Sum;
  // A user's reduction (rdx/segmented_custom.hpp): its name (never empty; op is unused, acc is
  // its first field's type) and its state's bytes. Empty for a built-in operator.
  std::string reduction;
  std::size_t state_bytes = 0;
  bool user() const { return !reduction.empty(); }
  std::uint64_t n = 0;         // input elements
  std::uint64_t segments = 0;  // results
  bool by_offsets = false;     // segments from offsets; else the axis form below
  // The axis form: the input seen as outer x length x inner, reduced along length (segments =
  // outer * inner); by offsets, length is the mean segment length (n / segments); the view form:
  // each segment's element count (view.length), inner 1.
  std::uint64_t length = 0, inner = 1;
  // The view form (reduce_axes over what the axis form cannot walk: reduced axes apart, strides,
  // an offset): `view` says where each segment's elements are (1-element loads; no column
  // blocks).
  bool by_view = false;
  ViewForm view;
  SegmentedForm form() const {
    return by_offsets ? SegmentedForm::Offsets
           : by_view  ? SegmentedForm::View
                      : SegmentedForm::Axis;
  }
  // Segments that are neighbours in memory, which a group's work-items take side by side (the
  // axis form's inner; the view form's innermost kept axis where its stride is 1 and its
  // elements' is not; else 1).
  std::uint64_t neighbours() const;
  std::size_t work_group_size = 0;
  // Determinism AnyDevice and Exact of a float sum: each segment's exact sum, correctly rounded
  // (cl/exact_segments.cl: lanes work-items per segment; parts, unroll and vector are 1,
  // column_block 0; one pass only, so host inputs beyond `chunk` are refused).
  bool exact = false;
  bool fold = false;  // the exact form's double windows (devices with doubles; tunable "fold")
  std::uint64_t lanes = 1;   // work-items per segment, a power of two <= work_group_size
  std::uint64_t parts = 1;   // work-groups per segment
  std::uint64_t unroll = 4;  // loads each work-item has in flight (1, 2, 4, 8 or 16)
  // Elements per load: 1, or 4 (built-in operators over segments of contiguous elements: offsets
  // and rows, not the axis form with inner > 1), loaded where their address is a multiple of 4
  // elements, or 16 (CPUs' vector accumulators only: any address).
  std::uint64_t vector = 1;
  // NVIDIA (DeviceInfo::compiles_ptx), the work-group form with a segment's lanes side by side
  // (not columns), built-in operators without an index, 4- or 8-byte accumulators: the tree's
  // levels below 32 lanes by warp shuffles (shfl.sync) instead of local memory and a barrier
  // each; the same pairs in the same order, so the same bits.
  bool shuffle = false;
  // CPUs, with 4- or 16-element loads, for operators whose lanes combine (not argmin/argmax, not
  // float products, not users' reductions): `unroll` vector accumulators per work-item, folded at
  // the end.
  bool vector_acc = false;
  // A user's reduction with a chunk form (Reduction::chunk), the work-group form of the axis and
  // offsets forms: each lane turns this many of its elements into one state at once (tunable
  // state_chunk; 1 or 0: element by element).
  std::uint64_t state_chunk = 0;
  // CPUs, columns (the axis form) of 16 or more, or of 2, 4 or 8 with vector accumulators: each
  // work-item (local size 1) takes this many neighbouring columns and walks the rows in order,
  // its columns' states in local memory (lanes, unroll and vector are 1; vector_acc: 16 columns
  // combined at once); 0: the work-group form above.
  std::uint64_t column_block = 0;
  // The column-block form over all of 2, 4 or 8 columns with vector accumulators: a part's rows
  // read as one contiguous run of 16-element loads, each lane one column, folded at the end.
  bool column_fold() const {
    return column_block && vector_acc && column_block == inner && inner < 16 && 16 % inner == 0;
  }
  // Host inputs: elements per pass, the device's largest allocation (or the tunable "chunk", which
  // may only lower it). A longer input is reduced in passes of at most `chunk` elements, in order
  // (the axis form: whole rows of `inner` elements where one fits); a segment that spans passes
  // has its pieces combined on the host. Data already on the device runs in one pass.
  std::uint64_t chunk = 0;
  bool in_passes() const { return n > chunk; }
  // Ran on the calling thread, no kernel (set in results only): a host input of a built-in
  // operator on a CPU device, few enough elements that auto's plan of a whole input of them would
  // (Plan::params' host_loop, docs/tuning.md), the offsets or axis form, run_to_run.
  bool host_loop = false;
  // The most operations on a path from an element of a segment of `count` elements to its
  // result (the float error bound, as Plan::depth).
  std::uint64_t depth_for(std::uint64_t count) const;
  std::string describe() const;
  bool operator==(const SegmentedPlan&) const = default;

 private:
  std::uint64_t one_pass_depth(std::uint64_t count) const;
};

// Throws ArgumentError (an operator the type does not allow, acc narrower than the element, a
// strategy other than "auto", a work-group size the device does not allow, an unknown tunable)
// or UnsupportedError (f64 without fp64). Options::tuning may set "lanes" (a power of two, at most
// the work-group size), "parts" (>= 1), "unroll" and "vector", for sweeps in `clrdx bench`,
// "fold" (the exact form: 0 turns its double windows off), and
// "column_block" (0: the work-group form; else columns per work-item, at most 4096, for the axis
// form with inner > 1) and "chunk" (>= 1; host inputs only: the device-buffer forms refuse one
// below n).
SegmentedPlan plan_segments(const DeviceInfo& dev, Type type, Op op, std::uint64_t n,
                            std::uint64_t segments, const Options& opts = {});
// shape: the array's dimensions in C order (at least one); axis < shape.size().
SegmentedPlan plan_axis(const DeviceInfo& dev, Type type, Op op,
                        std::span<const std::uint64_t> shape, std::size_t axis,
                        const Options& opts = {});
// v over `axes` (rdx/view.hpp's rules): the axis form where v's reduced axes are one run that
// the axis form walks with offset 0, else the view form.
SegmentedPlan plan_axes(const DeviceInfo& dev, Type type, Op op, const View& v,
                        std::span<const std::int64_t> axes, const Options& opts = {});

// One value (in the accumulator type) per segment, and for argmin/argmax its index counted from
// the segment's start (kEmptySegmentIndex for an empty segment). An empty segment's value is the
// operator's identity (rdx::identity; float min / max: +inf / -inf; argmin/argmax: 0).
struct SegmentedResult {
  Type acc = Type::F32;  // the values' type: the accumulator; for min, max, argmin, ... of f16 or
                         // bf16 elements, the element type
  std::vector<unsigned char> values;   // size() * size_of(acc) bytes, the values in order
  std::vector<std::uint64_t> indices;  // argmin/argmax only
  SegmentedPlan plan;

  std::uint64_t size() const { return plan.segments; }
  Scalar value(std::uint64_t k) const {
    return Scalar::from_bytes(acc, values.data() + k * size_of(acc));
  }
  // The values converted to A, each as Scalar::as converts it.
  template <class A>
  std::vector<A> as() const;
};

namespace detail {
// `count` values of type t, packed in `bytes`, each converted to A as Scalar::as converts it.
template <class A>
std::vector<A> converted(Type t, const std::vector<unsigned char>& bytes, std::uint64_t count) {
  std::vector<A> out(count);
  visit_type(t, [&](auto z) {
    using S = decltype(z);
    for (std::uint64_t k = 0; k < count; ++k) {
      S v;
      std::memcpy(&v, bytes.data() + k * sizeof(S), sizeof(S));
      out[k] = Scalar::converted_value<A>(v);
    }
  });
  return out;
}
}  // namespace detail

// Segments by offsets: segment k is elements offsets[k] .. offsets[k+1] - 1, so there are
// offsets.size() - 1 segments; offsets start at 0, never decrease and end at most at n
// (ArgumentError, checked before any kernel runs). Host or device data (a BufferAt: from its
// element offset on, which the segments' offsets count from); the caller's data is never
// modified.
SegmentedResult reduce_segments(Context& ctx, Type type, const void* data, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, Op op,
                                const Options& opts = {});
SegmentedResult reduce_segments(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, Op op,
                                const Options& opts = {});

// Everything on the device: data (n elements of type), `segments + 1` offsets (cl_ulong) in
// `offsets`, and the results written into `values` (segments values of the accumulator type) and,
// for argmin/argmax, `indices` (segments cl_ulong). The offsets are checked on the device, in the
// same queue, before the reduction: offsets that the host form refuses give ArgumentError, and
// `values` and `indices` are left as they were. Waits for the results; returns the plan that ran.
SegmentedPlan reduce_segments_into(Context& ctx, Type type, const BufferAt& data, std::uint64_t n,
                                   const cl::Buffer& offsets, std::uint64_t segments, Op op,
                                   const cl::Buffer& values, const cl::Buffer* indices = nullptr,
                                   const Options& opts = {});

// Along one axis of an N-D array in C order: the result has the input's shape without that axis
// (rows of a 2-D array: axis 1; columns: axis 0), in C order. An axis of length 0 gives the
// identity everywhere (argmin/argmax: kEmptySegmentIndex).
SegmentedResult reduce_axis(Context& ctx, Type type, const void* data,
                            std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                            const Options& opts = {});
SegmentedResult reduce_axis(Context& ctx, Type type, const BufferAt& data,
                            std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                            const Options& opts = {});

// The same, results into the caller's device buffers (as reduce_segments_into); waits for them.
SegmentedPlan reduce_axis_into(Context& ctx, Type type, const BufferAt& data,
                               std::span<const std::uint64_t> shape, std::size_t axis, Op op,
                               const cl::Buffer& values, const cl::Buffer* indices = nullptr,
                               const Options& opts = {});

// Over several axes of an N-D view at once, as NumPy's reductions take axis=(0, 2): the result
// has v's shape without `axes` (rdx::reduced_shape), in C order; no axes: every element its own
// result; all of them: one result. The elements are read where v puts them (strides of any sign,
// an offset), with no copy. argmin/argmax give each minimum's position among the reduced axes'
// positions in C order (over one axis: its position along it, as NumPy's argmin(axis)). Host
// data: the elements between v's lowest and highest offset are moved to the device in one pass
// (UnsupportedError beyond the tunable chunk, unless the axis form runs). Device data: the
// buffer holds every element v addresses (ArgumentError otherwise); v.offset is where the first
// is, so a buffer's slice needs no sub-buffer.
SegmentedResult reduce_axes(Context& ctx, Type type, const void* data, const View& v,
                            std::span<const std::int64_t> axes, Op op, const Options& opts = {});
SegmentedResult reduce_axes(Context& ctx, Type type, const cl::Buffer& data, const View& v,
                            std::span<const std::int64_t> axes, Op op, const Options& opts = {});
SegmentedPlan reduce_axes_into(Context& ctx, Type type, const cl::Buffer& data, const View& v,
                               std::span<const std::int64_t> axes, Op op, const cl::Buffer& values,
                               const cl::Buffer* indices = nullptr, const Options& opts = {});

// Typed forms: R, when given, is the accumulator type.
template <class R = void, class T>
auto reduce_segments(Context& ctx, std::span<T> data, std::span<const std::uint64_t> offsets, Op op,
                     Options opts = {}) {
  using E = std::remove_cv_t<T>;
  using A = std::conditional_t<std::is_void_v<R>, E, R>;
  if constexpr (!std::is_void_v<R>) opts.acc = type_of<R>();
  return reduce_segments(ctx, type_of<E>(), data.data(), data.size(), offsets, op, opts)
      .template as<A>();
}
template <class R = void, class T>
auto reduce_axis(Context& ctx, std::span<T> data, std::span<const std::uint64_t> shape,
                 std::size_t axis, Op op, Options opts = {}) {
  using E = std::remove_cv_t<T>;
  using A = std::conditional_t<std::is_void_v<R>, E, R>;
  if constexpr (!std::is_void_v<R>) opts.acc = type_of<R>();
  return reduce_axis(ctx, type_of<E>(), data.data(), shape, axis, op, opts).template as<A>();
}

template <class A>
std::vector<A> SegmentedResult::as() const {
  return detail::converted<A>(acc, values, size());
}

}  // namespace rdx
