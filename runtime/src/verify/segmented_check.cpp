// Segmented results against the host: every segment reduced by reference_reduce, and the
// layouts and shapes the tests and `clrdx verify` run (rdx/verify.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"
#include "rdx/verify.hpp"

namespace rdx {
namespace {

// One segment's result (k) against the reference of its `count` elements, gathered into `elems`.
std::string check_one(const SegmentedResult& r, std::uint64_t k,
                      const std::vector<unsigned char>& elems, std::uint64_t count) {
  const SegmentedPlan& p = r.plan;
  const Scalar got = r.value(k);
  const std::optional<std::uint64_t> index =
      is_index_op(p.op) ? std::optional<std::uint64_t>(r.indices[k]) : std::nullopt;
  std::string why;
  if (count == 0) {
    const Scalar want = result_value(
        p.op, p.type,
        is_index_op(p.op) ? Scalar::from_bytes(p.acc, "\0\0\0\0\0\0\0\0") : identity(p.op, p.acc));
    if (!(got == want) || (index && *index != kEmptySegmentIndex))
      why = fmt::format("got {} (index {}), want the empty segment's {}", got.to_string(),
                        index ? std::to_string(*index) : "none", want.to_string());
  } else {
    const Reference ref = reference_reduce(p.type, p.acc, p.op, elems.data(), count);
    Plan plan;
    plan.strategy = "segmented";
    plan.type = p.type;
    plan.acc = p.acc;
    plan.op = p.op;
    plan.n = count;
    plan.depth = p.depth_for(count);
    why = check_result(plan, got, index, ref);
  }
  return why.empty() ? why
                     : fmt::format("segment {} of {} ({} elements; {}): {}", k, p.segments, count,
                                   p.describe(), why);
}

}  // namespace

std::string check_segments(const SegmentedResult& r, const void* data,
                           std::span<const std::uint64_t> offsets) {
  const std::size_t es = size_of(r.plan.type);
  const auto* bytes = static_cast<const unsigned char*>(data);
  if (r.size() + 1 != offsets.size())
    return fmt::format("{} results for {} segments", r.size(), offsets.size() - 1);
  std::vector<unsigned char> elems;
  for (std::uint64_t k = 0; k < r.size(); ++k) {
    const std::uint64_t count = offsets[k + 1] - offsets[k];
    elems.assign(bytes + offsets[k] * es, bytes + offsets[k + 1] * es);
    if (std::string why = check_one(r, k, elems, count); !why.empty()) return why;
  }
  return "";
}

std::string check_axis(const SegmentedResult& r, const void* data,
                       std::span<const std::uint64_t> shape, std::size_t axis) {
  const std::size_t es = size_of(r.plan.type);
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::uint64_t outer = 1, inner = 1;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k < axis) outer *= shape[k];
    if (k > axis) inner *= shape[k];
  }
  const std::uint64_t length = shape[axis];
  if (r.size() != outer * inner) return fmt::format("{} results, want {}", r.size(), outer * inner);
  std::vector<unsigned char> elems(length * es);
  for (std::uint64_t o = 0; o < outer; ++o)
    for (std::uint64_t i = 0; i < inner; ++i) {
      for (std::uint64_t l = 0; l < length; ++l)
        std::memcpy(elems.data() + l * es, bytes + ((o * length + l) * inner + i) * es, es);
      if (std::string why = check_one(r, o * inner + i, elems, length); !why.empty()) return why;
    }
  return "";
}

std::string check_axes(const SegmentedResult& r, const void* data, const View& v,
                       std::span<const std::int64_t> axes) {
  const std::size_t es = size_of(r.plan.type), d = v.shape.size();
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::vector<std::int64_t> strides = v.strides;
  if (strides.empty()) {  // C order
    strides.assign(d, 1);
    for (std::size_t k = d; k-- > 1;)
      strides[k - 1] = strides[k] * static_cast<std::int64_t>(v.shape[k]);
  }
  const std::vector<std::size_t> reduced = normalized_axes(axes, d);
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < d; ++k)
    if (std::find(reduced.begin(), reduced.end(), k) == reduced.end()) kept.push_back(k);
  // Every index over `dims` in C order, as element offsets (times their strides); one empty
  // index (offset 0) when there are no dims, none when one has length 0.
  const auto offsets = [&](const std::vector<std::size_t>& dims) {
    std::vector<std::int64_t> all;
    std::vector<std::uint64_t> i(dims.size(), 0);
    for (std::size_t a : dims)
      if (v.shape[a] == 0) return all;
    while (true) {
      std::int64_t at = 0;
      for (std::size_t k = 0; k < dims.size(); ++k)
        at += static_cast<std::int64_t>(i[k]) * strides[dims[k]];
      all.push_back(at);
      std::size_t k = dims.size();
      while (k > 0 && ++i[k - 1] == v.shape[dims[k - 1]])
        i[--k] = 0;
      if (k == 0) return all;
    }
  };
  const std::vector<std::int64_t> results = offsets(kept), elements = offsets(reduced);
  if (r.size() != results.size())
    return fmt::format("{} results, want {}", r.size(), results.size());
  std::vector<unsigned char> elems(elements.size() * es);
  for (std::uint64_t k = 0; k < results.size(); ++k) {
    for (std::size_t l = 0; l < elements.size(); ++l)
      std::memcpy(elems.data() + l * es,
                  bytes + (static_cast<std::int64_t>(v.offset) + results[k] + elements[l]) *
                              static_cast<std::int64_t>(es),
                  es);
    if (std::string why = check_one(r, k, elems, elements.size()); !why.empty()) return why;
  }
  return "";
}

std::vector<std::vector<std::uint64_t>> segment_layouts(std::size_t wg, std::uint64_t seed) {
  std::vector<std::vector<std::uint64_t>> all;
  const auto from_lengths = [&](const std::vector<std::uint64_t>& lengths) {
    std::vector<std::uint64_t> off{0};
    for (std::uint64_t l : lengths)
      off.push_back(off.back() + l);
    all.push_back(off);
  };
  all.push_back({0});  // no segments
  from_lengths({0});
  from_lengths({1});
  from_lengths({0, 1, 0, 2, 3, 0, 0, 5});
  from_lengths({wg - 1, wg, wg + 1, 1, wg * 4 + 3});
  from_lengths(std::vector<std::uint64_t>(300, 4));
  // One huge segment among tiny ones.
  std::vector<std::uint64_t> mixed(200, 1);
  mixed[77] = 40000;
  mixed[3] = 0;
  from_lengths(mixed);
  // The power-law mix of the yardsticks (lengths 1 << (hash % 17)), shortened: % 13.
  std::mt19937_64 g(seed);
  std::vector<std::uint64_t> power;
  for (int k = 0; k < 60; ++k)
    power.push_back(std::uint64_t{1} << (g() % 13));
  from_lengths(power);
  return all;
}

std::vector<std::vector<std::uint64_t>> axis_shapes() {
  return {{0},          {1},          {7},         {1000},       {3, 0},
          {0, 5},       {1, 1},       {5, 1},      {1, 5},       {33, 257},
          {257, 33},    {2, 3, 4},    {4, 1, 300}, {3, 100, 17}, {2, 3, 0, 4},
          {2, 5, 3, 7}, {1, 2, 1, 3}, {16, 4000},  {300, 8},     {2, 501, 2}};
}

}  // namespace rdx
