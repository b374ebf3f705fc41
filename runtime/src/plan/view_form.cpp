// N-D views and their axes in the form the kernels walk (rdx/view.hpp): NumPy's axis rules, and
// the merging of axes that are one run in memory. Pure: no OpenCL calls.
#include <fmt/ranges.h>
#include "core/format.hpp"

#include <algorithm>

#include "rdx/errors.hpp"
#include "rdx/view.hpp"

namespace rdx {
namespace {

using Wide = __int128;

std::vector<std::int64_t> strides_of(const View& v) {
  if (v.shape.size() > kMaxDims)
    throw ArgumentError(
        detail::format("a view has at most {} dimensions, not {}", kMaxDims, v.shape.size()));
  if (!v.strides.empty()) {
    if (v.strides.size() != v.shape.size())
      throw ArgumentError(detail::format("a view of {} dimensions has {} strides", v.shape.size(),
                                         v.strides.size()));
    return v.strides;
  }
  std::vector<std::int64_t> s(v.shape.size());
  Wide step = 1;
  for (std::size_t k = v.shape.size(); k-- > 0;) {
    s[k] = static_cast<std::int64_t>(std::min<Wide>(step, INT64_MAX));
    step = std::min<Wide>(step * static_cast<Wide>(v.shape[k]), Wide{1} << 64);
  }
  return s;
}

// The element count, checked against 64 bits (0 when an extent is 0).
std::uint64_t count_of(std::span<const std::uint64_t> shape) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  Wide n = 1;
  for (std::uint64_t d : shape) {
    n *= d;
    if (n > static_cast<Wide>(INT64_MAX))
      throw ArgumentError(detail::format(
          "a view of shape ({}) has more elements than 64 bits count", fmt::join(shape, ", ")));
  }
  return static_cast<std::uint64_t>(n);
}

// One group of axes (kept or reduced), merged where neighbours are one run in memory.
struct Group {
  std::vector<std::uint64_t> shape;
  std::vector<std::int64_t> strides;
  void add(std::uint64_t extent, std::int64_t stride) {
    if (extent == 1) return;  // one position: its stride is never used
    if (!shape.empty() && static_cast<Wide>(strides.back()) == static_cast<Wide>(stride) * extent) {
      shape.back() *= extent;  // count_of checked the product
      strides.back() = stride;
      return;
    }
    shape.push_back(extent);
    strides.push_back(stride);
  }
  // A group with an empty axis has no positions: one axis of 0.
  void collapse_if_empty() {
    if (std::find(shape.begin(), shape.end(), 0) == shape.end()) return;
    shape = {0};
    strides = {1};
  }
};

}  // namespace

std::vector<std::size_t> normalized_axes(std::span<const std::int64_t> axes, std::size_t dims) {
  const auto d = static_cast<std::int64_t>(dims);
  std::vector<std::size_t> out;
  for (std::int64_t a : axes) {
    if (a < -d || a >= d)
      throw ArgumentError(detail::format("axis {} is out of bounds for an array of {} dimension{}",
                                         a, dims, dims == 1 ? "" : "s"));
    const auto k = static_cast<std::size_t>(a < 0 ? a + d : a);
    if (std::find(out.begin(), out.end(), k) != out.end())
      throw ArgumentError(detail::format("axis {} is given twice (duplicate value in axis)", a));
    out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> reduced_shape(std::span<const std::uint64_t> shape,
                                         std::span<const std::int64_t> axes) {
  const std::vector<std::size_t> r = normalized_axes(axes, shape.size());
  std::vector<std::uint64_t> out;
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (std::find(r.begin(), r.end(), k) == r.end()) out.push_back(shape[k]);
  return out;
}

Span element_span(const View& v) {
  const std::vector<std::int64_t> s = strides_of(v);
  if (count_of(v.shape) == 0) return {v.offset, v.offset};
  Wide lo = v.offset, hi = v.offset;
  for (std::size_t k = 0; k < s.size(); ++k) {
    const Wide reach = static_cast<Wide>(v.shape[k] - 1) * s[k];
    (reach < 0 ? lo : hi) += reach;
  }
  if (lo < 0)
    throw ArgumentError(detail::format(
        "a view's element lies {} elements before the start of the data (offset {}, strides "
        "({}))",
        static_cast<std::int64_t>(-lo), v.offset, fmt::join(s, ", ")));
  if (hi >= static_cast<Wide>(INT64_MAX))
    throw ArgumentError("a view's elements lie beyond 2^63 elements of the data");
  return {static_cast<std::uint64_t>(lo), static_cast<std::uint64_t>(hi) + 1};
}

Span element_span(const ViewForm& f) {
  View v{f.kept_shape, f.kept_strides, f.offset};
  v.shape.insert(v.shape.end(), f.reduced_shape.begin(), f.reduced_shape.end());
  v.strides.insert(v.strides.end(), f.reduced_strides.begin(), f.reduced_strides.end());
  return element_span(v);
}

ViewForm view_form(const View& v, std::span<const std::int64_t> axes) {
  const std::vector<std::int64_t> s = strides_of(v);
  const std::vector<std::size_t> reduced = normalized_axes(axes, v.shape.size());
  count_of(v.shape);
  element_span(v);  // its checks
  Group kept, red;
  for (std::size_t k = 0; k < v.shape.size(); ++k) {
    const bool r = std::find(reduced.begin(), reduced.end(), k) != reduced.end();
    (r ? red : kept).add(v.shape[k], s[k]);
  }
  kept.collapse_if_empty();
  red.collapse_if_empty();
  ViewForm f;
  f.kept_shape = std::move(kept.shape);
  f.kept_strides = std::move(kept.strides);
  f.reduced_shape = std::move(red.shape);
  f.reduced_strides = std::move(red.strides);
  f.offset = v.offset;
  f.segments = count_of(f.kept_shape);
  f.length = count_of(f.reduced_shape);
  return f;
}

}  // namespace rdx
