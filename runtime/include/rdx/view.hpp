// N-D arrays as NumPy describes them (a shape, strides in elements, the first element's offset)
// and the axes a reduction runs over: the inputs of rdx::reduce_axes (rdx/segmented.hpp,
// rdx/segmented_custom.hpp). Pure: no device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace rdx {

// An N-D array in memory: element (i0, i1, ...) is element offset + i0 * strides[0] + i1 *
// strides[1] + ... of the data. Strides count elements, not bytes (NumPy's byte strides divided
// by the item size), and may be negative (a reversed axis) or 0 (a broadcast one); empty strides
// mean C order (the last axis contiguous). A shape of no dimensions is one element.
struct View {
  std::vector<std::uint64_t> shape;
  std::vector<std::int64_t> strides;
  std::uint64_t offset = 0;

  // C order over `shape`.
  static View contiguous(std::span<const std::uint64_t> shape, std::uint64_t offset = 0) {
    return {{shape.begin(), shape.end()}, {}, offset};
  }
  bool operator==(const View&) const = default;
};

// The elements one reduction reads, in the form the kernels walk (rdx::SegmentedPlan::view):
// results (segments) over the kept axes, elements of each over the reduced axes, both in C
// order. Axes of length 1 are dropped, and neighbouring axes of a group that are one run in
// memory are merged, so that a group's position counts the same in fewer digits. Segment r's
// element k is at offset + (r's digits over kept_shape) . kept_strides + (k's digits over
// reduced_shape) . reduced_strides.
struct ViewForm {
  std::vector<std::uint64_t> kept_shape, reduced_shape;
  std::vector<std::int64_t> kept_strides, reduced_strides;
  std::uint64_t offset = 0;
  std::uint64_t segments = 1, length = 1;  // products of kept_shape and of reduced_shape
  bool operator==(const ViewForm&) const = default;
};

// At most this many dimensions (NumPy's limit).
inline constexpr std::size_t kMaxDims = 64;

// `axes` as NumPy takes them (-1: the last; each axis once), in increasing order. Throws
// ArgumentError for an axis out of range or given twice.
std::vector<std::size_t> normalized_axes(std::span<const std::int64_t> axes, std::size_t dims);

// The result's shape: `shape` without the reduced axes (NumPy's keepdims=False).
std::vector<std::uint64_t> reduced_shape(std::span<const std::uint64_t> shape,
                                         std::span<const std::int64_t> axes);

// v reduced over `axes` in the kernels' form. Throws ArgumentError: strides of another length
// than the shape, more than kMaxDims dimensions, element counts or addresses beyond 64 bits, an
// element before the start of the data (a negative stride walking past offset 0).
ViewForm view_form(const View& v, std::span<const std::int64_t> axes);

// The first and one past the last element of the data that v can address (its elements' lowest
// and highest offsets; lo == hi when v has no elements). Throws as view_form.
struct Span {
  std::uint64_t lo = 0, hi = 0;
};
Span element_span(const View& v);
// The same for the elements of a view form.
Span element_span(const ViewForm& f);

}  // namespace rdx
