// Several axes and strided views (rdx::reduce_axes, rdx/view.hpp): C-order arrays over axes
// apart, NumPy's slices (steps, reversed axes, an offset), broadcast axes, no axes and all of
// them, host data and device buffers, against a reference that walks each view's multi-indexes
// one by one (not the library's merged form).
#include <doctest/doctest.h>
#include <fmt/ranges.h>
#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "exact_reference.hpp"
#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

cl::Buffer buffer(std::size_t bytes, const void* p = nullptr) {
  return rdx_test::buffer(ctx(), bytes, p);
}

// Each result's element offsets in the data, in order: an odometer over the kept axes (C order),
// and for each position one over the reduced axes; an address is offset + sum of index x stride.
std::vector<std::vector<std::uint64_t>> walk(const rdx::View& v,
                                             const std::vector<std::size_t>& reduced) {
  const std::size_t d = v.shape.size();
  std::vector<std::int64_t> strides = v.strides;
  if (strides.empty()) {
    strides.assign(d, 1);
    for (std::size_t k = d; k-- > 1;)
      strides[k - 1] = strides[k] * static_cast<std::int64_t>(v.shape[k]);
  }
  std::vector<std::size_t> kept;
  for (std::size_t k = 0; k < d; ++k)
    if (std::find(reduced.begin(), reduced.end(), k) == reduced.end()) kept.push_back(k);
  // Every index over `axes` in C order (one empty index when there are no axes).
  const auto indexes = [&](const std::vector<std::size_t>& axes) {
    std::vector<std::vector<std::uint64_t>> all;
    std::vector<std::uint64_t> i(axes.size(), 0);
    for (std::size_t a : axes)
      if (v.shape[a] == 0) return all;
    while (true) {
      all.push_back(i);
      std::size_t k = axes.size();
      while (k > 0 && ++i[k - 1] == v.shape[axes[k - 1]])
        i[--k] = 0;
      if (k == 0) return all;
    }
  };
  std::vector<std::vector<std::uint64_t>> out;
  for (const auto& ki : indexes(kept)) {
    std::vector<std::uint64_t> seg;
    for (const auto& ri : indexes(reduced)) {
      std::int64_t at = static_cast<std::int64_t>(v.offset);
      for (std::size_t k = 0; k < kept.size(); ++k)
        at += static_cast<std::int64_t>(ki[k]) * strides[kept[k]];
      for (std::size_t k = 0; k < reduced.size(); ++k)
        at += static_cast<std::int64_t>(ri[k]) * strides[reduced[k]];
      seg.push_back(static_cast<std::uint64_t>(at));
    }
    out.push_back(seg);
  }
  return out;
}

// NumPy's rules on one result's elements: sum, max (NaN wins), nanmin (NaN left out), argmax
// (the first NaN, else the first maximum).
struct Expected {
  double sum = 0, max = -INFINITY, nanmin = INFINITY;
  std::uint64_t argmax = 0;
};
Expected expected(const std::vector<float>& data, const std::vector<std::uint64_t>& at) {
  Expected e;
  bool nan = false;
  for (std::size_t k = 0; k < at.size(); ++k) {
    const float x = data[at[k]];
    e.sum += x;
    if (std::isnan(x)) {
      if (!nan) e.argmax = k;
      nan = true;
      continue;
    }
    if (!nan && x > e.max) {
      e.max = x;
      e.argmax = k;
    }
    e.nanmin = std::min<double>(e.nanmin, x);
  }
  if (nan) e.max = NAN;
  if (at.empty()) e.argmax = rdx::kEmptySegmentIndex;
  return e;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

struct Case {
  const char* what;
  rdx::View view;
  std::vector<std::int64_t> axes;
};

// The data: small integers (every sum exact in f32), NaN at every 37th element from 5.
std::vector<float> base_data(std::size_t n, bool with_nan) {
  std::vector<float> x(n);
  for (std::size_t k = 0; k < n; ++k)
    x[k] = static_cast<float>(static_cast<int>((k * 7919) % 23) - 11);
  if (with_nan)
    for (std::size_t k = 5; k < n; k += 37)
      x[k] = NAN;
  return x;
}

std::vector<Case> cases() {
  using V = rdx::View;
  return {
      {"C (3,4,5) over (0,2)", V::contiguous(std::vector<std::uint64_t>{3, 4, 5}), {0, 2}},
      {"C (3,4,5) over -1", V::contiguous(std::vector<std::uint64_t>{3, 4, 5}), {-1}},
      {"C (2,3,4,5) over (1,3)", V::contiguous(std::vector<std::uint64_t>{2, 3, 4, 5}), {1, 3}},
      {"C (2,3,4,5) over (0,1,3)",
       V::contiguous(std::vector<std::uint64_t>{2, 3, 4, 5}),
       {3, 0, 1}},
      {"Fortran (4,5) over 1", {{4, 5}, {1, 4}, 0}, {1}},
      {"a[::-1, 1::2] of (5,6) over 0", {{5, 3}, {-6, 2}, 25}, {0}},
      {"a[::-1, 1::2] of (5,6) over (0,1)", {{5, 3}, {-6, 2}, 25}, {0, 1}},
      {"a[::-1, 1::2] of (5,6) over ()", {{5, 3}, {-6, 2}, 25}, {}},
      {"broadcast (3,40) over 0", {{3, 40}, {0, 1}, 7}, {0}},
      {"(6,4) strides (8,2) offset 3 over (0,1)", {{6, 4}, {8, 2}, 3}, {0, 1}},
      {"(2,1,3) over 1", V::contiguous(std::vector<std::uint64_t>{2, 1, 3}), {1}},
      {"Fortran (3,100) over 0", {{3, 100}, {1, 3}, 0}, {0}},
      {"C (3,4,5) from 10 over 0", V::contiguous(std::vector<std::uint64_t>{3, 4, 5}, 10), {0}},
  };
}

void check_case(const Case& c, const std::vector<float>& data, rdx::Op op,
                const rdx::SegmentedResult& r) {
  const auto at = walk(c.view, rdx::normalized_axes(c.axes, c.view.shape.size()));
  REQUIRE(r.size() == at.size());
  for (std::size_t s = 0; s < at.size(); ++s) {
    const Expected e = expected(data, at[s]);
    const double got = r.value(s).as<double>();
    INFO(
        rdx::detail::format("{} {} result {} of {}: {}", c.what, rdx::name(op), s, at.size(), got));
    switch (op) {
      case rdx::Op::Sum:
        CHECK(same(got, e.sum));
        break;
      case rdx::Op::Max:
        CHECK(same(got, e.max));
        break;
      case rdx::Op::NanMin:
        CHECK(same(got, at[s].empty() ? INFINITY : e.nanmin));
        break;
      case rdx::Op::ArgMax:
        CHECK(same(got, e.max));
        CHECK(r.indices[s] == e.argmax);
        break;
      default:
        FAIL("no reference for this operator");
    }
  }
}

}  // namespace

TEST_CASE("views: axes apart, slices, reversed and broadcast axes against a walk of each view") {
  const std::vector<float> data = base_data(400, true);
  const std::vector<Case> all = cases();
  for (const Case& c : all) {
    for (rdx::Op op : {rdx::Op::Sum, rdx::Op::ArgMax}) {
      const auto r = rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), c.view, c.axes, op);
      INFO(r.plan.describe());
      check_case(c, data, op, r);
    }
  }
  // The view form runs in one pass: a chunk below the elements it spans is refused; the axis
  // form runs in passes.
  rdx::Options small;
  small.tuning.set("chunk", 16);
  const std::vector<rdx::Array> in = {{rdx::Type::F32, data.data()}};
  CHECK_THROWS_AS(rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), all[0].view, all[0].axes,
                                   rdx::Op::Sum, small),
                  rdx::UnsupportedError);
  CHECK_THROWS_AS(rdx::reduce_axes(ctx(), rdx::Stat::Mean, in, all[0].view, all[0].axes, small),
                  rdx::UnsupportedError);
  const auto passes = rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), all[1].view, all[1].axes,
                                       rdx::Op::Sum, small);
  CHECK(passes.plan.in_passes());
  check_case(all[1], data, rdx::Op::Sum, passes);
  // NaN's two families on views of both forms.
  for (std::size_t k : {0, 5, 6, 9}) {
    const Case& c = all[k];
    for (rdx::Op op : {rdx::Op::Max, rdx::Op::NanMin})
      check_case(c, data, op,
                 rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), c.view, c.axes, op));
  }
}

TEST_CASE("views: the forms the plan picks elsewhere, forced: lanes, parts, columns") {
  const std::vector<float> data = base_data(400, false);
  const Case c = cases()[3];  // one segment over three axes apart
  rdx::Options lanes, parts;
  lanes.tuning.set("lanes", 16).set("unroll", 2);
  parts.tuning.set("lanes", 4).set("parts", 3);
  for (const rdx::Options& o : {lanes, parts}) {
    const auto r =
        rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), c.view, c.axes, rdx::Op::ArgMax, o);
    CHECK(r.plan.by_view);
    check_case(c, data, rdx::Op::ArgMax, r);
  }
  // Columns in the view form: neighbouring results side by side in a group.
  const Case cols = cases()[12];
  rdx::Options wide;
  wide.tuning.set("lanes", 2);
  const auto r = rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), cols.view, cols.axes,
                                  rdx::Op::Sum, wide);
  CHECK(r.plan.neighbours() == 20);
  check_case(cols, data, rdx::Op::Sum, r);
}

TEST_CASE("views: device buffers at an offset, results into the caller's buffers") {
  const std::vector<float> data = base_data(400, true);
  const cl::Buffer dev = buffer(data.size() * 4, data.data());
  const std::vector<Case> all = cases();
  for (std::size_t k : {0, 5, 9}) {
    const Case& c = all[k];
    check_case(c, data, rdx::Op::ArgMax,
               rdx::reduce_axes(ctx(), rdx::Type::F32, dev, c.view, c.axes, rdx::Op::ArgMax));
  }
  // A slice of the buffer from element 100: a contiguous (4, 5) array there, over axis 0.
  const rdx::View slice = rdx::View::contiguous(std::vector<std::uint64_t>{4, 5}, 100);
  const std::vector<std::int64_t> axis0 = {0};
  const cl::Buffer values = buffer(5 * 4), indices = buffer(5 * 8);
  const auto plan = rdx::reduce_axes_into(ctx(), rdx::Type::F32, dev, slice, axis0, rdx::Op::ArgMax,
                                          values, &indices);
  CHECK(plan.by_view);  // offset 100: the axis form starts at 0
  std::vector<float> v(5);
  std::vector<std::uint64_t> i(5);
  ctx().queue().enqueueReadBuffer(values, CL_TRUE, 0, 20, v.data());
  ctx().queue().enqueueReadBuffer(indices, CL_TRUE, 0, 40, i.data());
  const auto at = walk(slice, {0});
  for (std::size_t s = 0; s < 5; ++s) {
    const Expected e = expected(data, at[s]);
    CHECK(same(v[s], e.max));
    CHECK(i[s] == e.argmax);
  }
  // A view past the buffer's end, or before its start: ArgumentError, before any kernel runs.
  const rdx::View past = rdx::View::contiguous(std::vector<std::uint64_t>{4, 5}, 390);
  CHECK_THROWS_AS(rdx::reduce_axes(ctx(), rdx::Type::F32, dev, past, axis0, rdx::Op::Sum),
                  rdx::ArgumentError);
  const rdx::View before{{5}, {-1}, 3};
  CHECK_THROWS_AS(rdx::reduce_axes(ctx(), rdx::Type::F32, dev, before, axis0, rdx::Op::Sum),
                  rdx::ArgumentError);
}

TEST_CASE("views: composites' results into the caller's buffers, as reduce_axes gives them") {
  std::vector<float> data = base_data(400, true);
  for (float& x : data)
    x = x * 0.37f + 0.01f;  // not whole numbers: sums of another order round differently
  const cl::Buffer dev = buffer(data.size() * 4, data.data());
  // A (4, 5) array at element 100 over axis 0, and its reversed rows over axis 1.
  const rdx::View slice = rdx::View::contiguous(std::vector<std::uint64_t>{4, 5}, 100);
  const rdx::View reversed{{4, 5}, {5, -1}, 104};
  const std::vector<rdx::DeviceArray> in = {{rdx::Type::F32, dev, 0}};
  const std::vector<rdx::Type> f32 = {rdx::Type::F32};
  const std::vector<std::int64_t> axis0 = {0}, axis1 = {1};
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  int compared = 0;
  for (rdx::Stat s : {rdx::Stat::Var, rdx::Stat::Std, rdx::Stat::MinMax, rdx::Stat::Count,
                      rdx::Stat::NanMean, rdx::Stat::Norm2, rdx::Stat::NanSum, rdx::Stat::Mean})
    for (const auto& view_axes : {std::pair{slice, axis0}, std::pair{reversed, axis1}})
      for (const rdx::Options& o : {rdx::Options{}, exact}) {
        // Not a structured binding: INFO's lambda captures these (clang 15 refuses bindings).
        const rdx::View& view = view_axes.first;
        const std::vector<std::int64_t>& axes = view_axes.second;
        // Exact: the mean per segment's exact form, finished on the host.
        if (o.determinism != rdx::Determinism::RunToRun && s != rdx::Stat::Mean) continue;
        INFO(rdx::name(s), " over axis ", axes[0], " ", rdx::name(o.determinism));
        const rdx::SegmentedStats want = rdx::reduce_axes(ctx(), s, in, view, axes, o);
        const std::vector<rdx::Type> types = rdx::stat_result_types(ctx().device_info(), s, f32, o);
        REQUIRE(types[0] == want.type);
        std::vector<cl::Buffer> out;
        for (rdx::Type t : types)
          out.push_back(buffer(want.size() * rdx::size_of(t)));
        rdx::reduce_axes_into(ctx(), s, in, view, axes, out, o);
        auto read = [&](std::size_t j, void* to, std::size_t bytes) {
          ctx().queue().enqueueReadBuffer(out[j], CL_TRUE, 0, bytes, to);
        };
        std::vector<unsigned char> values(want.values.size());
        read(0, values.data(), values.size());
        CHECK(values == want.values);  // the same bits, whichever side finished them
        if (s == rdx::Stat::MinMax) {
          REQUIRE(types.size() == 4);
          std::vector<std::uint64_t> lo(want.size()), hi(want.size());
          std::vector<unsigned char> maxima(want.max_values.size());
          read(1, lo.data(), lo.size() * 8);
          read(2, maxima.data(), maxima.size());
          read(3, hi.data(), hi.size() * 8);
          CHECK(lo == want.indices);
          CHECK(maxima == want.max_values);
          CHECK(hi == want.max_indices);
        }
        ++compared;
      }
  CHECK(compared == 8 * 2 + 2);
  // 16-bit integers' minmax has no device form: finished on the host and written there.
  std::vector<std::int16_t> shorts(20);
  for (std::size_t k = 0; k < shorts.size(); ++k)
    shorts[k] = static_cast<std::int16_t>((k * 7919) % 61) - 30;
  const cl::Buffer sdev = buffer(shorts.size() * 2, shorts.data());
  const std::vector<rdx::DeviceArray> sin = {{rdx::Type::I16, sdev, 0}};
  const rdx::View grid = rdx::View::contiguous(std::vector<std::uint64_t>{4, 5});
  const rdx::SegmentedStats want = rdx::reduce_axes(ctx(), rdx::Stat::MinMax, sin, grid, axis0);
  const std::vector<rdx::Type> i16 = {rdx::Type::I16};
  const std::vector<rdx::Type> st =
      rdx::stat_result_types(ctx().device_info(), rdx::Stat::MinMax, i16);
  REQUIRE(st ==
          std::vector<rdx::Type>{rdx::Type::I16, rdx::Type::U64, rdx::Type::I16, rdx::Type::U64});
  const std::vector<cl::Buffer> sout = {buffer(10), buffer(40), buffer(10), buffer(40)};
  rdx::reduce_axes_into(ctx(), rdx::Stat::MinMax, sin, grid, axis0, sout);
  std::vector<std::int16_t> lo(5), hi(5);
  std::vector<std::uint64_t> lo_at(5), hi_at(5);
  ctx().queue().enqueueReadBuffer(sout[0], CL_TRUE, 0, 10, lo.data());
  ctx().queue().enqueueReadBuffer(sout[1], CL_TRUE, 0, 40, lo_at.data());
  ctx().queue().enqueueReadBuffer(sout[2], CL_TRUE, 0, 10, hi.data());
  ctx().queue().enqueueReadBuffer(sout[3], CL_TRUE, 0, 40, hi_at.data());
  CHECK(lo == want.as<std::int16_t>());
  CHECK(lo_at == want.indices);
  CHECK(hi_at == want.max_indices);
  for (std::size_t k = 0; k < 5; ++k) {  // against the data itself too
    std::int16_t l = shorts[k], h = shorts[k];
    for (std::size_t r = 1; r < 4; ++r) {
      l = std::min(l, shorts[r * 5 + k]);
      h = std::max(h, shorts[r * 5 + k]);
    }
    CHECK(lo[k] == l);
    CHECK(hi[k] == h);
  }
  // Too few outputs, or one too small: ArgumentError.
  const std::vector<cl::Buffer> one = {buffer(5 * 4)};
  CHECK_THROWS_AS(rdx::reduce_axes_into(ctx(), rdx::Stat::MinMax, in, slice, axis0, one),
                  rdx::ArgumentError);
  const std::vector<cl::Buffer> small = {buffer(4)};
  CHECK_THROWS_AS(rdx::reduce_axes_into(ctx(), rdx::Stat::Count, in, slice, axis0, small),
                  rdx::ArgumentError);
}

TEST_CASE("views: exact sums, composites and an empty axis") {
  std::vector<float> data = base_data(400, false);
  for (std::size_t k = 0; k < data.size(); ++k)
    data[k] = std::ldexp(data[k], static_cast<int>(k % 40) - 20);  // sums that round
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  const std::vector<Case> all = cases();
  for (std::size_t k : {0, 6}) {
    const Case& c = all[k];
    const auto r =
        rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), c.view, c.axes, rdx::Op::Sum, exact);
    CHECK(r.plan.exact);
    CHECK(r.plan.by_view);
    // Each result: the segment's elements' exact sum (GMP), correctly rounded.
    const auto at = walk(c.view, rdx::normalized_axes(c.axes, c.view.shape.size()));
    for (std::size_t s = 0; s < at.size(); ++s) {
      std::vector<float> seg;
      for (std::uint64_t a : at[s])
        seg.push_back(data[a]);
      rdx_test::Exact sum;
      rdx_test::exact_sum(sum.z, seg);
      INFO(c.what, " result ", s);
      CHECK(rdx_test::check_rounded(sum.z, r.value(s).as<float>(), false) == "");
    }
  }
  // mean and minmax of the reversed slice over axis 0 (the view form), against the walk.
  const Case c = cases()[5];
  const std::vector<rdx::Array> in = {{rdx::Type::F32, data.data()}};
  const auto mean = rdx::reduce_axes(ctx(), rdx::Stat::Mean, in, c.view, c.axes);
  const auto mm = rdx::reduce_axes(ctx(), rdx::Stat::MinMax, in, c.view, c.axes);
  CHECK(mean.plan.by_view);
  const auto at = walk(c.view, {0});
  REQUIRE(mean.size() == at.size());
  for (std::size_t s = 0; s < at.size(); ++s) {
    double sum = 0;
    std::uint64_t lo = 0, hi = 0;
    for (std::size_t k = 0; k < at[s].size(); ++k) {
      const float x = data[at[s][k]];
      sum += x;
      if (x < data[at[s][lo]]) lo = k;
      if (x > data[at[s][hi]]) hi = k;
    }
    CHECK(mean.value(s).as<double>() == doctest::Approx(sum / at[s].size()).epsilon(1e-6));
    CHECK(mm.indices[s] == lo);
    CHECK(mm.max_indices[s] == hi);
    CHECK(mm.value(s).as<float>() == data[at[s][lo]]);
  }
  // An axis of length 0: every result is the identity (sum 0), none for a kept one.
  const rdx::View empty = rdx::View::contiguous(std::vector<std::uint64_t>{2, 0, 3});
  const std::vector<std::int64_t> axis1 = {1}, axis0 = {0};
  CHECK(rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), empty, axis1, rdx::Op::Sum)
            .as<float>() == std::vector<float>(6, 0.0f));
  CHECK(rdx::reduce_axes(ctx(), rdx::Type::F32, data.data(), empty, axis0, rdx::Op::Sum).size() ==
        0);
}
