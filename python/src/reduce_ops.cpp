// rdx._rdx.reduce_op: the built-in operators (sum, prod, min, max, argmin, argmax, the bitwise
// ones and the nan* forms of the extremes) over a whole array or over some of its axes, read in
// place: a host array, or a device array (DeviceInput) on its own context. And
// rdx._rdx.reduce_segments_op: one result per segment of a 1-D array. And rdx._rdx.reduce_op_into:
// a device array over some of its axes, the results left on the device in the caller's buffers.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "context.hpp"
#include "rdx/reduce.hpp"
#include "rdx/segmented.hpp"
#include "unlocked.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

rdx::Result whole(rdx::Context& ctx, const HostInput& in, rdx::Op op, const rdx::Options& o) {
  return rdx::reduce(ctx, in.type, first_element(in).data, in.count, op, o);
}
rdx::Result whole(rdx::Context& ctx, const DeviceInput& in, rdx::Op op, const rdx::Options& o) {
  return rdx::reduce(ctx, in.type, rdx::BufferAt(in.buffer, in.view.offset), in.count, op, o);
}
rdx::SegmentedResult over_axes(rdx::Context& ctx, const HostInput& in,
                               const std::vector<std::int64_t>& over, rdx::Op op,
                               const rdx::Options& o) {
  return rdx::reduce_axes(ctx, in.type, in.base, in.view, over, op, o);
}
rdx::SegmentedResult over_axes(rdx::Context& ctx, const DeviceInput& in,
                               const std::vector<std::int64_t>& over, rdx::Op op,
                               const rdx::Options& o) {
  return rdx::reduce_axes(ctx, in.type, in.buffer, in.view, over, op, o);
}
rdx::SegmentedResult segments(rdx::Context& ctx, const HostInput& in,
                              std::span<const std::uint64_t> offsets, rdx::Op op,
                              const rdx::Options& o) {
  return rdx::reduce_segments(ctx, in.type, first_element(in).data, in.count, offsets, op, o);
}
rdx::SegmentedResult segments(rdx::Context& ctx, const DeviceInput& in,
                              std::span<const std::uint64_t> offsets, rdx::Op op,
                              const rdx::Options& o) {
  return rdx::reduce_segments(ctx, in.type, rdx::BufferAt(in.buffer, in.view.offset), in.count,
                              offsets, op, o);
}

HostInput input_of(const HostArray& a) {
  return host_input(a);
}
const DeviceInput& input_of(const DeviceInput& a) {
  return a;
}

// Whole: (value, index or None) as Python numbers. Axes: (values, indexes or None) as NumPy
// arrays of the reduced shape.
template <class A>
nb::tuple reduce_op(PyContext& c, const A& a, const std::string& op_name, const Axes& axes,
                    const std::string& acc, const std::string& determinism) {
  const auto& in = input_of(a);
  const rdx::Op op = rdx::parse_op(op_name);
  const rdx::Options opts = options_of(acc, determinism);
  if (!axes && in.c_contiguous) {
    rdx::Result r;
    {
      Unlocked unlocked;
      r = whole(c.ctx, in, op, opts);
    }
    return nb::make_tuple(scalar_object(r.value), index_object(r.index));
  }
  const std::vector<std::int64_t> over = axes_or_every(axes, in.view);
  rdx::SegmentedResult r;
  {
    Unlocked unlocked;
    r = over_axes(c.ctx, in, over, op, opts);
  }
  const bool index = rdx::is_index_op(op);
  if (!axes)
    return nb::make_tuple(scalar_object(r.value(0)),
                          index_object(index ? std::optional(r.indices[0]) : std::nullopt));
  const std::vector<std::uint64_t> shape = rdx::reduced_shape(in.view.shape, over);
  nb::object values = numpy_of(r.acc, std::move(r.values), shape);
  nb::object indexes = index ? numpy_of(std::move(r.indices), shape) : nb::none();
  return nb::make_tuple(values, indexes);
}

// (values, indexes or None) as NumPy arrays of one value per segment; the array is 1-D and
// C-contiguous (the Python layer's check).
template <class A>
nb::tuple reduce_segments_op(PyContext& c, const A& a, Offsets offsets, const std::string& op_name,
                             const std::string& acc, const std::string& determinism) {
  const auto& in = input_of(a);
  if (in.view.shape.size() != 1 || !in.c_contiguous)
    throw rdx::ArgumentError("reduce_segments: a 1-D array of contiguous elements");
  const rdx::Op op = rdx::parse_op(op_name);
  const rdx::Options opts = options_of(acc, determinism);
  rdx::SegmentedResult r;
  {
    Unlocked unlocked;
    r = segments(c.ctx, in, {offsets.data(), offsets.shape(0)}, op, opts);
  }
  const std::vector<std::uint64_t> shape{r.size()};
  nb::object values = numpy_of(r.acc, std::move(r.values), shape);
  nb::object indexes = rdx::is_index_op(op) ? numpy_of(std::move(r.indices), shape) : nb::none();
  return nb::make_tuple(values, indexes);
}

// A device array over `over` (some of its axes, normalized and increasing), the results left on
// the device: `values` (one value of the accumulator type per result, in C order of the kept
// axes) and, for argmin/argmax and their nan* forms, `indices` (u64), both fresh arrays the
// caller made at offset 0. False, with nothing run, where the results would need a conversion
// (rdx::result_type is not the accumulator: f16 and bf16 extremes). Float nanargmin/nanargmax
// of an all-NaN slice is the host form's ArgumentError, found by one max over the values (NaN
// only there).
bool reduce_op_into(PyContext& c, const DeviceInput& in, const std::string& op_name,
                    const std::vector<std::int64_t>& over, const std::string& acc,
                    const std::string& determinism, const DeviceInput& values,
                    const std::optional<DeviceInput>& indices) {
  const rdx::Op op = rdx::parse_op(op_name);
  const rdx::Options opts = options_of(acc, determinism);
  const rdx::Type a = opts.acc.value_or(rdx::computed_type(in.type));
  if (rdx::result_type(op, in.type, a) != a) return false;
  if (values.type != a || values.view.offset != 0 || (indices && indices->view.offset != 0) ||
      rdx::is_index_op(op) != indices.has_value())
    throw rdx::ArgumentError(
        "reduce_op_into: values of the accumulator type (and indices for "
        "argmin/argmax), each at offset 0");
  Unlocked unlocked;
  const rdx::SegmentedPlan p =
      rdx::reduce_axes_into(c.ctx, in.type, in.buffer, in.view, over, op, values.buffer,
                            indices ? &indices->buffer : nullptr, opts);
  if (p.segments && (op == rdx::Op::NanArgMin || op == rdx::Op::NanArgMax) && rdx::is_float(a)) {
    const rdx::Result m =
        rdx::reduce(c.ctx, a, rdx::BufferAt(values.buffer, 0), p.segments, rdx::Op::Max);
    if (std::isnan(m.value.as<double>()))
      throw rdx::ArgumentError("reduce_axes: every element of a slice is NaN, so " +
                               std::string(rdx::name(op)) +
                               " has no index (NumPy raises: All-NaN slice encountered)");
  }
  return true;
}

}  // namespace

void register_reduce_ops(nb::module_& m) {
  const char* doc =
      "op over the whole array (axes None) or over the given axes (normalized, increasing).";
  m.def("reduce_op", &reduce_op<DeviceInput>, nb::arg("context"), nb::arg("array"), nb::arg("op"),
        nb::arg("axes").none(), nb::arg("acc"), nb::arg("determinism"), doc);
  m.def("reduce_op", &reduce_op<HostArray>, nb::arg("context"), nb::arg("array"), nb::arg("op"),
        nb::arg("axes").none(), nb::arg("acc"), nb::arg("determinism"), doc);
  m.def("reduce_op_into", &reduce_op_into, nb::arg("context"), nb::arg("array"), nb::arg("op"),
        nb::arg("axes"), nb::arg("acc"), nb::arg("determinism"), nb::arg("values"),
        nb::arg("indices").none(),
        "op over the given axes (normalized, increasing; not all) of a device array, the "
        "results into values (the accumulator type) and indices (u64, argmin/argmax), device "
        "arrays at offset 0; waits for them. False, with nothing run, where the results need a "
        "conversion (f16 and bf16 extremes).");
  const char* seg_doc =
      "op over each segment of a 1-D contiguous array: segment k is offsets[k] .. "
      "offsets[k + 1] - 1.";
  m.def("reduce_segments_op", &reduce_segments_op<DeviceInput>, nb::arg("context"),
        nb::arg("array"), nb::arg("offsets"), nb::arg("op"), nb::arg("acc"), nb::arg("determinism"),
        seg_doc);
  m.def("reduce_segments_op", &reduce_segments_op<HostArray>, nb::arg("context"), nb::arg("array"),
        nb::arg("offsets"), nb::arg("op"), nb::arg("acc"), nb::arg("determinism"), seg_doc);
}

}  // namespace rdxpy
