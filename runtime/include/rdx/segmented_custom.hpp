// One result per segment for reductions users write (rdx/custom.hpp) and the built-in composites
// (rdx/stats.hpp): segments by offsets and an axis of an N-D array, as rdx/segmented.hpp's
// built-in operators. The inputs (one to four arrays of the same length) are segmented alike.
//
// A map's `i` is the element's index in the whole input (its flat index in C order for an axis);
// minmax's indexes, like argmin/argmax's, count from the segment's start. An empty segment's
// state is the reduction's identity; its statistic: minmax 0 with index kEmptySegmentIndex,
// mean, var and std NaN, norm2, dot and count 0.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "rdx/custom.hpp"
#include "rdx/segmented.hpp"
#include "rdx/stats.hpp"

namespace rdx {

// Plans for a user's reduction over inputs of these types: the same forms as the built-in
// operators' one element per load (no vector loads or vector accumulators: vector 1). Pure.
// ArgumentError for an accumulator option (the fields have their types), UnsupportedError for
// f64 inputs or fields without fp64.
SegmentedPlan plan_segments(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                            std::uint64_t n, std::uint64_t segments, const Options& opts = {});
SegmentedPlan plan_axis(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                        std::span<const std::uint64_t> shape, std::size_t axis,
                        const Options& opts = {});
SegmentedPlan plan_axes(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                        const View& v, std::span<const std::int64_t> axes,
                        const Options& opts = {});

// Every segment's final state: field f's values in fields[f], of type types[f], in segment order.
struct SegmentedStates {
  std::vector<Type> types;                         // in the order of Reduction::fields
  std::vector<std::vector<unsigned char>> fields;  // size() values of types[f] each
  SegmentedPlan plan;                              // plan.reduction names the reduction

  std::uint64_t size() const { return plan.segments; }
  Scalar value(std::size_t field, std::uint64_t k) const {
    return Scalar::from_bytes(types.at(field), fields.at(field).data() + k * size_of(types[field]));
  }
  // Field f's values converted to A, each as Scalar::as converts it.
  template <class A>
  std::vector<A> as(std::size_t field) const;
};

// A user's reduction per segment of host or device inputs (n elements each): as
// rdx::reduce_segments of rdx/segmented.hpp (the offsets' rules, host inputs beyond one
// allocation in passes, the caller's data never modified).
SegmentedStates reduce_segments(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                                std::uint64_t n, std::span<const std::uint64_t> offsets,
                                const Options& opts = {});
SegmentedStates reduce_segments(Context& ctx, const Reduction& r,
                                std::span<const DeviceArray> inputs, std::uint64_t n,
                                std::span<const std::uint64_t> offsets, const Options& opts = {});
// Everything on the device, as rdx::reduce_segments_into: `segments + 1` offsets (cl_ulong) in a
// buffer, checked on the device first (ArgumentError, and `fields` left as they were, for offsets
// the host form refuses); field f's values into fields[f] (segments values of its type, one
// buffer per field of r). Waits for the results; returns the plan that ran.
SegmentedPlan reduce_segments_into(Context& ctx, const Reduction& r,
                                   std::span<const DeviceArray> inputs, std::uint64_t n,
                                   const cl::Buffer& offsets, std::uint64_t segments,
                                   std::span<const cl::Buffer> fields, const Options& opts = {});

// Along one axis of inputs of this shape (C order), as rdx::reduce_axis.
SegmentedStates reduce_axis(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                            std::span<const std::uint64_t> shape, std::size_t axis,
                            const Options& opts = {});
SegmentedStates reduce_axis(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                            std::span<const std::uint64_t> shape, std::size_t axis,
                            const Options& opts = {});
// The same, field f's values into fields[f] (as reduce_segments_into above).
SegmentedPlan reduce_axis_into(Context& ctx, const Reduction& r,
                               std::span<const DeviceArray> inputs,
                               std::span<const std::uint64_t> shape, std::size_t axis,
                               std::span<const cl::Buffer> fields, const Options& opts = {});

// Over several axes of N-D views, as rdx::reduce_axes: every input seen through the same view v
// (host inputs from their own data pointers). The map's i: the element's offset in the data
// where the plan's axis form runs (host data: from the view's lowest element), else
// r * plan.length + k for segment r's element k (the view form, whose order is by segment).
SegmentedStates reduce_axes(Context& ctx, const Reduction& r, std::span<const Array> inputs,
                            const View& v, std::span<const std::int64_t> axes,
                            const Options& opts = {});
SegmentedStates reduce_axes(Context& ctx, const Reduction& r, std::span<const DeviceArray> inputs,
                            const View& v, std::span<const std::int64_t> axes,
                            const Options& opts = {});

// A composite per segment: `type` is the statistic's (minmax: the elements'; count: u64; the
// others: their accumulator, rdx/stats.hpp).
struct SegmentedStats {
  Stat stat = Stat::Mean;
  Type type = Type::F32;
  std::vector<unsigned char> values;      // size() values of type (minmax: the minima)
  std::vector<unsigned char> max_values;  // minmax: the maxima
  // minmax: the first index of the minimum and of the maximum in each segment
  // (kEmptySegmentIndex for an empty one)
  std::vector<std::uint64_t> indices, max_indices;
  SegmentedPlan plan;

  std::uint64_t size() const { return plan.segments; }
  Scalar value(std::uint64_t k) const {
    return Scalar::from_bytes(type, values.data() + k * size_of(type));
  }
  Scalar max(std::uint64_t k) const {
    return Scalar::from_bytes(type, max_values.data() + k * size_of(type));
  }
  // The values (minmax: the minima) converted to A, each as Scalar::as converts it.
  template <class A>
  std::vector<A> as() const;
};

// `map`: count's predicate, as rdx::reduce(Context&, Stat, ...).
SegmentedStats reduce_segments(Context& ctx, Stat s, std::span<const Array> inputs, std::uint64_t n,
                               std::span<const std::uint64_t> offsets, const Options& opts = {},
                               const std::string& map = "");
SegmentedStats reduce_segments(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                               std::uint64_t n, std::span<const std::uint64_t> offsets,
                               const Options& opts = {}, const std::string& map = "");
SegmentedStats reduce_axis(Context& ctx, Stat s, std::span<const Array> inputs,
                           std::span<const std::uint64_t> shape, std::size_t axis,
                           const Options& opts = {}, const std::string& map = "");
SegmentedStats reduce_axis(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                           std::span<const std::uint64_t> shape, std::size_t axis,
                           const Options& opts = {}, const std::string& map = "");

// Over several axes of N-D views (rdx::reduce_axes); minmax's indexes as argmin/argmax's there.
SegmentedStats reduce_axes(Context& ctx, Stat s, std::span<const Array> inputs, const View& v,
                           std::span<const std::int64_t> axes, const Options& opts = {},
                           const std::string& map = "");
SegmentedStats reduce_axes(Context& ctx, Stat s, std::span<const DeviceArray> inputs, const View& v,
                           std::span<const std::int64_t> axes, const Options& opts = {},
                           const std::string& map = "");

// The types of a composite's results per segment on `dev`, as SegmentedStats holds them and
// reduce_axes_into writes them: count u64; minmax the elements' (rdx::result_type of min), then
// u64 indexes, the same type, u64 indexes; the others their accumulator (rdx/stats.hpp).
std::vector<Type> stat_result_types(const DeviceInfo& dev, Stat s, std::span<const Type> inputs,
                                    const Options& opts = {});

// reduce_axes over device arrays with the results left on the device: outputs[j] (the caller's
// buffers, from their start) receives result j of every segment in C order of the kept axes, of
// stat_result_types' type j (minmax: the minima, their indexes, the maxima, theirs). Computed
// there where the composite has that form (cl/seg_results.cl); otherwise (the exact forms,
// norm2, 16-bit minmax) finished on the host and written to the buffers; the mean of floats
// under RunToRun as reduce_axes computes it (the built-in sum over n), the same bits. Waits for
// them.
SegmentedPlan reduce_axes_into(Context& ctx, Stat s, std::span<const DeviceArray> inputs,
                               const View& v, std::span<const std::int64_t> axes,
                               std::span<const cl::Buffer> outputs, const Options& opts = {},
                               const std::string& map = "");

template <class A>
std::vector<A> SegmentedStates::as(std::size_t field) const {
  return detail::converted<A>(types.at(field), fields.at(field), size());
}

template <class A>
std::vector<A> SegmentedStats::as() const {
  return detail::converted<A>(type, values, size());
}

}  // namespace rdx
