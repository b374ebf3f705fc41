// Segmented reductions (rdx/segmented.hpp): offsets and axes around every boundary of the
// kernels' forms (a work-item, several, a whole group per segment; segments split over groups),
// against the host reference of each segment (rdx::check_segments, rdx::check_axis).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "coverage.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

namespace {

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

std::uint64_t total(const std::vector<std::uint64_t>& offsets) {
  return offsets.back();
}

// The forms the plan picks on this device, and the ones it picks elsewhere, forced: several
// lanes per segment (the lanes' tree), segments split into parts (seg_finish), loads in flight
// per work-item from 1 to 16, and loads of 4 elements.
// `contiguous`: segments of neighbouring elements (offsets, rows), which vector loads need.
std::vector<rdx::Options> forms(bool contiguous = true) {
  // 64 lanes, or a whole group where groups are smaller (CPUs: 16).
  const std::uint64_t wg =
      rdx::plan_segments(ctx().device_info(), rdx::Type::I32, rdx::Op::Sum, 1, 1).work_group_size;
  std::vector<rdx::Options> all(4);
  all[1].tuning.set("lanes", 4).set("vector", contiguous ? 4 : 1);
  all[2]
      .tuning.set("lanes", std::min<std::uint64_t>(64, wg))
      .set("parts", 3)
      .set("unroll", 16)
      .set("vector", contiguous ? 4 : 1);
  all[3].tuning.set("lanes", 1).set("parts", 2).set("unroll", 1);
  return all;
}

cl::Buffer buffer(std::size_t bytes, const void* p = nullptr) {
  return rdx_test::buffer(ctx(), bytes, p);
}

bool device_allows(rdx::Type t) {
  return t != rdx::Type::F64 || ctx().device_info().fp64;
}

// (type, operator) pairs: every operator on i32 and f32, every type with sum, argmax on u8, min
// on f64, prod and xor on i64.
std::vector<std::pair<rdx::Type, rdx::Op>> pairs() {
  std::vector<std::pair<rdx::Type, rdx::Op>> all;
  for (rdx::Op op : rdx::kAllOps) {
    all.emplace_back(rdx::Type::I32, op);
    if (rdx::op_allows(op, rdx::Type::F32)) all.emplace_back(rdx::Type::F32, op);
  }
  for (rdx::Type t : rdx::kAllTypes)
    if (t != rdx::Type::I32 && t != rdx::Type::F32) all.emplace_back(t, rdx::Op::Sum);
  all.emplace_back(rdx::Type::U8, rdx::Op::ArgMax);
  all.emplace_back(rdx::Type::F64, rdx::Op::Min);
  all.emplace_back(rdx::Type::I64, rdx::Op::Prod);
  all.emplace_back(rdx::Type::I64, rdx::Op::Xor);
  return all;
}

}  // namespace

TEST_CASE("segmented: offsets around every boundary, against each segment's reference") {
  const std::size_t wg =
      rdx::plan_segments(ctx().device_info(), rdx::Type::I32, rdx::Op::Sum, 1, 1).work_group_size;
  const auto layouts = rdx::segment_layouts(wg, 7);
  for (auto [type, op] : pairs()) {
    if (!device_allows(type)) continue;
    // The forced forms with the operators whose state differs (an index; float rules); in the
    // quick tier with one of each: i32 sum, argmin on i32 and f32, f32 prod.
    const bool all_forms = rdx::test::quick_tier()
                               ? (type == rdx::Type::I32 && op == rdx::Op::Sum) ||
                                     op == rdx::Op::ArgMin ||
                                     (type == rdx::Type::F32 && op == rdx::Op::Prod)
                               : type == rdx::Type::I32 || op == rdx::Op::ArgMin;
    const auto opts = all_forms ? forms() : std::vector<rdx::Options>(1);
    for (std::size_t f = 0; f < opts.size(); ++f)
      for (const auto& off : layouts) {
        const auto data =
            rdx::make_case_data(type, op, rdx::Pattern::Random, total(off), off.size());
        const auto r = rdx::reduce_segments(ctx(), type, data.data(), total(off), off, op, opts[f]);
        INFO(r.plan.describe());
        CHECK(rdx::check_segments(r, data.data(), off) == "");
      }
  }
}

TEST_CASE("segmented: CPUs' 16-element loads into vector accumulators, NaN and offsets") {
  const rdx::DeviceInfo& dev = ctx().device_info();
  rdx::Options v16;
  v16.tuning.set("vector", 16);
  if (dev.kind != rdx::DeviceKind::CPU) {
    // Other devices load 1 or 4 elements; 16 is refused before any work.
    const std::vector<float> x(64, 1.0f);
    const std::vector<std::uint64_t> off = {0, 64};
    CHECK_THROWS_AS(
        rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), 64, off, rdx::Op::Sum, v16),
        rdx::ArgumentError);
    return;
  }
  // The default form (16-element loads), and forced: 2 lanes over 3 parts with one load in
  // flight, and 16 loads in flight.
  std::vector<rdx::Options> opts(3, v16);
  opts[1].tuning.set("lanes", 2).set("parts", 3).set("unroll", 1);
  opts[2].tuning.set("unroll", 16);
  const std::pair<rdx::Type, rdx::Op> cases[] = {
      {rdx::Type::F32, rdx::Op::Sum},    {rdx::Type::F32, rdx::Op::Max},
      {rdx::Type::F32, rdx::Op::NanMin}, {rdx::Type::I32, rdx::Op::Sum},
      {rdx::Type::U8, rdx::Op::Sum},     {rdx::Type::F16, rdx::Op::Sum},
      {rdx::Type::I64, rdx::Op::Xor},    {rdx::Type::F64, rdx::Op::Min}};
  auto layouts = rdx::segment_layouts(16, 11);
  layouts.push_back({0, 1000, 1001, 3049, 3050, 3066, 7000});  // long ones, odd starts
  for (auto [type, op] : cases) {
    if (!device_allows(type)) continue;
    for (const auto& off : layouts) {
      const std::uint64_t n = total(off);
      auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, n, off.size());
      if (type == rdx::Type::F32)  // NaN in some segments' bodies and tails
        for (std::uint64_t k = 5; k < n; k += 613)
          reinterpret_cast<float*>(data.data())[k] = std::numeric_limits<float>::quiet_NaN();
      // The data three elements into a buffer (the element offset), then every form.
      const std::size_t es = rdx::size_of(type);
      std::vector<unsigned char> padded(3 * es, 0x5a);
      padded.insert(padded.end(), data.begin(), data.end());
      const cl::Buffer buf = buffer(padded.size(), padded.data());
      for (std::size_t f = 0; f < opts.size(); ++f) {
        const auto r =
            rdx::reduce_segments(ctx(), type, rdx::BufferAt(buf, 3), n, off, op, opts[f]);
        INFO(r.plan.describe());
        CHECK(r.plan.vector == 16);
        CHECK(r.plan.vector_acc);
        CHECK(rdx::check_segments(r, data.data(), off) == "");
      }
    }
  }
  // By default from a mean of 64 for min and max in f32 accumulators (f16 elements among them),
  // in groups of 64 with 2 accumulators: NaN in bodies and tails, an empty segment, odd starts.
  const std::vector<std::uint64_t> short_off = {0, 64, 200, 200, 201, 330, 700, 777};
  for (const rdx::Type type : {rdx::Type::F32, rdx::Type::F16}) {
    if (!device_allows(type)) continue;
    for (const rdx::Op op : {rdx::Op::Min, rdx::Op::Max}) {
      const std::uint64_t n = total(short_off);
      auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, n, 7);
      for (std::uint64_t k : {3, 70, 328, 776}) {
        if (type == rdx::Type::F32)
          reinterpret_cast<float*>(data.data())[k] = std::numeric_limits<float>::quiet_NaN();
        else
          reinterpret_cast<std::uint16_t*>(data.data())[k] = 0x7e00;  // an f16 quiet NaN
      }
      const auto r = rdx::reduce_segments(ctx(), type, data.data(), n, short_off, op);
      INFO(r.plan.describe());
      CHECK(r.plan.vector == 16);
      CHECK(r.plan.unroll == 2);
      CHECK(r.plan.work_group_size == 64);
      CHECK(rdx::check_segments(r, data.data(), short_off) == "");
    }
  }
}

TEST_CASE("segmented: every axis of 1-D to 4-D arrays, lengths 0 and 1 among them") {
  const std::pair<rdx::Type, rdx::Op> cases[] = {{rdx::Type::F32, rdx::Op::Sum},
                                                 {rdx::Type::I32, rdx::Op::ArgMin},
                                                 {rdx::Type::F32, rdx::Op::Max},
                                                 {rdx::Type::U16, rdx::Op::Or}};
  for (auto [type, op] : cases)
    for (const auto& shape : rdx::axis_shapes()) {
      std::uint64_t n = 1;
      for (auto d : shape)
        n *= d;
      const auto data = rdx::make_case_data(type, op, rdx::Pattern::Small, n, shape.size());
      for (std::size_t axis = 0; axis < shape.size(); ++axis) {
        const auto r = rdx::reduce_axis(ctx(), type, data.data(), shape, axis, op);
        INFO(r.plan.describe());
        CHECK(rdx::check_axis(r, data.data(), shape, axis) == "");
        if (type == rdx::Type::F32 && op == rdx::Op::Sum) {
          // The forced forms: several lanes (columns: neighbouring segments per group) and parts.
          std::uint64_t inner = 1;
          for (std::size_t k = axis + 1; k < shape.size(); ++k)
            inner *= shape[k];
          auto all = forms(inner == 1);
          if (inner > 1) {
            // Columns in blocks (CPUs' default from 16 columns), forced on any device: blocks
            // of 16 split over parts, and blocks of 40 (16-column loads and a tail of 8).
            all.emplace_back().tuning.set("column_block", 16).set("parts", 3);
            all.emplace_back().tuning.set("column_block", 40).set("parts", 1);
          }
          for (const auto& o : all) {
            const auto f = rdx::reduce_axis(ctx(), type, data.data(), shape, axis, op, o);
            INFO(f.plan.describe());
            CHECK(rdx::check_axis(f, data.data(), shape, axis) == "");
          }
        }
      }
    }
}

TEST_CASE("segmented: typed forms, device buffers, and the results in the caller's buffers") {
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<std::uint64_t> off = {0, 2, 2, 7, 12};
  CHECK(rdx::reduce_segments(ctx(), std::span(x), off, rdx::Op::Sum) ==
        std::vector<float>{3, 0, 25, 50});
  CHECK(rdx::reduce_segments<double>(ctx(), std::span(x), off, rdx::Op::Max) ==
        std::vector<double>{2, -INFINITY, 7, 12});
  const std::vector<std::uint64_t> shape = {3, 4};
  CHECK(rdx::reduce_axis(ctx(), std::span(x), shape, 1, rdx::Op::Sum) ==
        std::vector<float>{10, 26, 42});
  CHECK(rdx::reduce_axis(ctx(), std::span(x), shape, 0, rdx::Op::Sum) ==
        std::vector<float>{15, 18, 21, 24});

  cl::CommandQueue q = ctx().queue();
  const cl::Buffer data = buffer(x.size() * 4, x.data());
  const cl::Buffer offsets = buffer(off.size() * 8, off.data());
  const cl::Buffer values = buffer(4 * 4), indices = buffer(4 * 8);
  const auto plan = rdx::reduce_segments_into(ctx(), rdx::Type::F32, data, x.size(), offsets, 4,
                                              rdx::Op::ArgMin, values, &indices);
  CHECK(plan.segments == 4);
  std::vector<float> v(4);
  std::vector<std::uint64_t> i(4);
  q.enqueueReadBuffer(values, CL_TRUE, 0, 16, v.data());
  q.enqueueReadBuffer(indices, CL_TRUE, 0, 32, i.data());
  CHECK(v == std::vector<float>{1, 0, 3, 8});
  CHECK(i == std::vector<std::uint64_t>{0, rdx::kEmptySegmentIndex, 0, 0});
  const auto from_buffer =
      rdx::reduce_segments(ctx(), rdx::Type::F32, data, x.size(), off, rdx::Op::Min);
  CHECK(from_buffer.as<float>() == std::vector<float>{1, INFINITY, 3, 8});
  CHECK(rdx::reduce_axis(ctx(), rdx::Type::F32, data, shape, 0, rdx::Op::Prod).as<float>() ==
        std::vector<float>{45, 120, 231, 384});

  // Segments split into parts: partial states past what a context keeps for them (1 MiB a call:
  // 100000 segments x 3 parts of f32 values and u64 indices), then fewer, which it keeps.
  for (const std::uint64_t segs : {100000, 10000, 100000}) {
    const std::uint64_t len = 3, n = segs * len;
    auto y = rdx::make_case_data(rdx::Type::F32, rdx::Op::ArgMax, rdx::Pattern::Random, n, segs);
    std::vector<std::uint64_t> o(segs + 1);
    for (std::uint64_t k = 0; k <= segs; ++k)
      o[k] = k * len;
    rdx::Options three;
    three.tuning.set("parts", 3);
    for (const rdx::Op op : {rdx::Op::ArgMax, rdx::Op::Sum}) {
      const auto r = rdx::reduce_segments(ctx(), rdx::Type::F32, y.data(), n, o, op, three);
      INFO(r.plan.describe());
      CHECK(r.plan.parts == 3);
      CHECK(rdx::check_segments(r, y.data(), o) == "");
    }
  }
}

TEST_CASE("segmented: bad offsets and shapes are ArgumentErrors before any kernel runs") {
  const std::vector<float> x(10, 1.0f);
  using V = std::vector<std::uint64_t>;
  for (const V& bad : {V{}, V{1, 4}, V{0, 5, 4}, V{0, 11}})
    CHECK_THROWS_AS(
        rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), bad, rdx::Op::Sum),
        rdx::ArgumentError);
  const V shape = {2, 5};
  CHECK_THROWS_AS(rdx::reduce_axis(ctx(), rdx::Type::F32, x.data(), shape, 2, rdx::Op::Sum),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce_axis(ctx(), rdx::Type::F32, x.data(), V{}, 0, rdx::Op::Sum),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce_axis(ctx(), rdx::Type::F32, x.data(), shape, 0, rdx::Op::Xor),
                  rdx::ArgumentError);
  // Device offsets: checked by a kernel before the reduction, the caller's buffers unchanged.
  // The check's flag is kept by the context between calls: each bad call names its own fault,
  // and a good call after a bad one (or before) gives its results.
  cl::CommandQueue q = ctx().queue();
  const cl::Buffer data = buffer(40, x.data());
  const std::vector<float> sentinel = {-7, -7};
  const cl::Buffer values = buffer(8, sentinel.data());
  const std::vector<float> good_x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const cl::Buffer good_data = buffer(40, good_x.data());
  const V good_off = {0, 3, 10};
  const cl::Buffer good_offsets = buffer(24, good_off.data());
  const cl::Buffer good_values = buffer(8);
  const auto good_call = [&] {
    rdx::reduce_segments_into(ctx(), rdx::Type::F32, good_data, good_x.size(), good_offsets, 2,
                              rdx::Op::Sum, good_values);
    std::vector<float> got(2);
    q.enqueueReadBuffer(good_values, CL_TRUE, 0, 8, got.data());
    CHECK(got == std::vector<float>{6, 49});
  };
  const std::uint64_t far = std::uint64_t{1} << 40;
  const std::vector<std::pair<V, std::string>> bad_sets = {
      {V{1, 4, 5}, "the first offset is not 0"},
      {V{0, 5, 4}, "the offsets decrease"},
      {V{0, 4, 11}, "an offset points past the data"},
      {V{0, far, 3}, "an offset points past the data; the offsets decrease"},
      {V{0, 4, 11}, "an offset points past the data"}};
  good_call();
  for (const auto& set : bad_sets) {
    const V& bad = set.first;
    const std::string& why = set.second;
    INFO(why);
    const cl::Buffer offsets = buffer(24, bad.data());
    std::string said;
    try {
      rdx::reduce_segments_into(ctx(), rdx::Type::F32, data, x.size(), offsets, 2, rdx::Op::Sum,
                                values);
    } catch (const rdx::ArgumentError& e) {
      said = e.what();
    }
    CHECK(said == "offsets: " + why);
    if (bad[0] == 0) good_call();
  }
  std::vector<float> after(2);
  q.enqueueReadBuffer(values, CL_TRUE, 0, 8, after.data());
  CHECK(after == sentinel);
}

namespace {

// Passes the axis form of `shape` along `axis` makes with `chunk` elements per pass.
std::uint64_t axis_passes(const std::vector<std::uint64_t>& shape, std::size_t axis,
                          std::uint64_t chunk) {
  std::uint64_t outer = 1, inner = 1;
  for (std::size_t k = 0; k < shape.size(); ++k)
    (k < axis ? outer : inner) *= k == axis ? 1 : shape[k];
  const std::uint64_t slice = shape[axis] * inner;
  if (slice == 0) return 0;
  if (slice <= chunk) return (outer + chunk / slice - 1) / (chunk / slice);
  const std::uint64_t rows = inner <= chunk ? chunk / inner : 1;
  const std::uint64_t cols = std::min(inner, chunk);
  return outer * ((shape[axis] + rows - 1) / rows) * ((inner + cols - 1) / cols);
}

}  // namespace

TEST_CASE("segmented: host inputs in passes (the tunable chunk), segments across passes") {
  const std::size_t wg =
      rdx::plan_segments(ctx().device_info(), rdx::Type::I32, rdx::Op::Sum, 1, 1).work_group_size;
  const std::pair<rdx::Type, rdx::Op> cases[] = {
      {rdx::Type::I32, rdx::Op::Sum}, {rdx::Type::I32, rdx::Op::ArgMin},
      {rdx::Type::F32, rdx::Op::Sum}, {rdx::Type::F32, rdx::Op::ArgMax},
      {rdx::Type::F32, rdx::Op::Max}, {rdx::Type::F32, rdx::Op::Prod}};
  for (auto [type, op] : cases) {
    for (const auto& off : rdx::segment_layouts(wg, 3)) {
      const std::uint64_t n = total(off);
      // Pieces of 1 element, a few passes, and a pass boundary just past a work-group's segment.
      std::vector<std::uint64_t> chunks = {n / 3 + 1, wg + 2};
      if (n <= 64) chunks.push_back(1);
      if (n <= 4096) chunks.push_back(7);
      const auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, n, off.size());
      for (std::uint64_t chunk : chunks) {
        rdx::Options o;  // one part: fewer programs to build (the passes are what is tested)
        o.tuning.set("chunk", chunk).set("parts", 1);
        const auto r = rdx::reduce_segments(ctx(), type, data.data(), n, off, op, o);
        INFO(r.plan.describe());
        CHECK(r.plan.chunk == chunk);
        CHECK(r.plan.in_passes() == (n > chunk));
        CHECK(rdx::check_segments(r, data.data(), off) == "");
      }
    }
    for (const auto& shape : rdx::axis_shapes()) {
      std::uint64_t n = 1;
      for (auto d : shape)
        n *= d;
      const auto data = rdx::make_case_data(type, op, rdx::Pattern::Random, n, shape.size());
      for (std::size_t axis = 0; axis < shape.size(); ++axis)
        // Whole slices per pass, rows of a slice per pass, and parts of one row.
        for (std::uint64_t chunk : {n / 2 + 1, n / 5 + 1, std::uint64_t{3}}) {
          if (axis_passes(shape, axis, chunk) > 400) continue;
          rdx::Options o;
          o.tuning.set("chunk", chunk).set("parts", 1);
          const auto r = rdx::reduce_axis(ctx(), type, data.data(), shape, axis, op, o);
          INFO(r.plan.describe());
          CHECK(rdx::check_axis(r, data.data(), shape, axis) == "");
        }
    }
  }
  // Data already on the device is one allocation: a chunk below its size is refused.
  const std::vector<float> x(100, 1.0f);
  const cl::Buffer data = buffer(400, x.data());
  rdx::Options o;
  o.tuning.set("chunk", 10);
  const std::vector<std::uint64_t> off = {0, 50, 100}, shape = {10, 10};
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), rdx::Type::F32, data, 100, off, rdx::Op::Sum, o),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce_axis(ctx(), rdx::Type::F32, data, shape, 0, rdx::Op::Sum, o),
                  rdx::ArgumentError);
  o.tuning.set("chunk", 0);
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), 100, off, rdx::Op::Sum, o),
                  rdx::ArgumentError);
}

TEST_CASE("segmented: as<A>() converts each value as Scalar::as does") {
  const std::vector<float> x = {1.5f, 2.25f, -3, 4, 5, 6, 7.125f, 1e10f, 3e9f};
  const std::vector<std::uint64_t> off = {0, 2, 2, 7, 9};
  std::vector<double> sums;  // each segment's f32 sum (rounded once at most), widened
  for (std::size_t k = 0; k + 1 < off.size(); ++k) {
    float s = 0;
    for (std::uint64_t i = off[k]; i < off[k + 1]; ++i)
      s += x[i];
    sums.push_back(static_cast<double>(s));
  }
  const auto r = rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum);
  REQUIRE(r.acc == rdx::Type::F32);
  CHECK(r.as<double>() == sums);
  std::vector<std::int64_t> truncated;
  for (double s : sums)
    truncated.push_back(static_cast<std::int64_t>(s));
  CHECK(r.as<std::int64_t>() == truncated);
  CHECK(r.as<float>() == rdx::reduce_segments(ctx(), std::span(x), off, rdx::Op::Sum));
  // i64 results into f64 and u8, as static_cast converts them (an empty segment: INT64_MIN).
  const std::vector<std::int64_t> big = {(std::int64_t{1} << 53) + 1, 0, -300, 1};
  const std::vector<std::uint64_t> off4 = {0, 2, 2, 3, 4};
  const std::vector<std::int64_t> maxima = {big[0], std::numeric_limits<std::int64_t>::min(),
                                            big[2], big[3]};
  const auto b =
      rdx::reduce_segments(ctx(), rdx::Type::I64, big.data(), big.size(), off4, rdx::Op::Max);
  std::vector<double> as_f64;
  std::vector<std::uint8_t> as_u8;
  for (std::int64_t m : maxima) {
    as_f64.push_back(static_cast<double>(m));
    as_u8.push_back(static_cast<std::uint8_t>(m));
  }
  CHECK(b.as<std::int64_t>() == maxima);
  CHECK(b.as<double>() == as_f64);
  CHECK(b.as<std::uint8_t>() == as_u8);
  // A float that the integer type cannot hold is refused, not cast (undefined behaviour).
  const auto m = rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Min);
  CHECK_THROWS_AS(m.as<std::int64_t>(), rdx::ArgumentError);  // the empty segment's +inf
  CHECK_THROWS_AS(r.as<std::int32_t>(), rdx::ArgumentError);  // 1e10 + 3e9
  const float nan = std::numeric_limits<float>::quiet_NaN(), big_f = 0x1p63f;
  CHECK_THROWS_AS(rdx::Scalar::from_bytes(rdx::Type::F32, &nan).as<int>(), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::Scalar::from_bytes(rdx::Type::F32, &big_f).as<std::int64_t>(),
                  rdx::ArgumentError);
  const float low = -0x1p63f;
  CHECK(rdx::Scalar::from_bytes(rdx::Type::F32, &low).as<std::int64_t>() ==
        std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("segmented: host inputs at any element's address, read in place, stay unchanged") {
  // f64 and f32 data from 0 to 3 elements past a 128-byte boundary: a CPU device reads host
  // inputs in place, and the 4-element loads count their alignment from the buffer's start. Every
  // host path: axes, offsets, a strided view, passes (the tunable chunk), a composite and a
  // user's reduction, each against the host reference, the caller's bytes unchanged after each.
  const std::vector<std::uint64_t> shape = {37, 53};
  const std::uint64_t n = 37 * 53;
  const std::vector<std::uint64_t> off = {0, 5, 5, 700, n};
  const rdx::View rows2{{19, 53}, {106, 1}, 0};  // every other row
  const std::vector<std::int64_t> axis1 = {1};
  rdx::Options vec4 = forms()[1], passes;  // lanes 4, loads of 4; passes of 300 elements
  passes.tuning.set("chunk", 300).set("parts", 1);
  for (rdx::Type type : {rdx::Type::F64, rdx::Type::F32}) {
    if (!device_allows(type)) continue;
    const auto ref = rdx::make_case_data(type, rdx::Op::ArgMax, rdx::Pattern::Random, n, 5);
    const std::size_t size = rdx::size_of(type);
    std::vector<unsigned char> storage(ref.size() + 256);
    for (std::size_t shift = 0; shift < 4; ++shift) {
      const auto base = reinterpret_cast<std::uintptr_t>(storage.data());
      unsigned char* at = storage.data() + (128 - base % 128) + shift * size;
      std::memcpy(at, ref.data(), ref.size());
      const void* x = at;
      INFO(rdx::name(type), " data ", shift, " elements past 128 bytes");
      const auto unchanged = [&] { return std::memcmp(at, ref.data(), ref.size()) == 0; };
      for (rdx::Op op : {rdx::Op::Sum, rdx::Op::ArgMax}) {
        for (const rdx::Options& o : {rdx::Options{}, vec4, passes}) {
          const auto r = rdx::reduce_segments(ctx(), type, x, n, off, op, o);
          INFO(r.plan.describe());
          CHECK(rdx::check_segments(r, ref.data(), off) == "");
          CHECK(rdx::check_axis(rdx::reduce_axis(ctx(), type, x, shape, 1, op, o), ref.data(),
                                shape, 1) == "");
          CHECK(unchanged());
        }
        for (const rdx::Options& o : {rdx::Options{}, passes})
          CHECK(rdx::check_axis(rdx::reduce_axis(ctx(), type, x, shape, 0, op, o), ref.data(),
                                shape, 0) == "");
        CHECK(rdx::check_axes(rdx::reduce_axes(ctx(), type, x, rows2, axis1, op), ref.data(), rows2,
                              axis1) == "");
        CHECK(unchanged());
      }
      // Column means (a composite) and each row's largest element (a user's reduction), in one
      // pass and in passes, against the host's.
      const rdx::Array in[] = {{type, x}};
      const auto elem = [&](std::uint64_t k) {
        return rdx::Scalar::from_bytes(type, ref.data() + k * size).as<double>();
      };
      const auto peak = rdx::Reduction::simple(type, "fmax(a, b)", "-INFINITY");
      for (const rdx::Options& o : {rdx::Options{}, passes}) {
        const auto mean = rdx::reduce_axis(ctx(), rdx::Stat::Mean, in, shape, 0, o);
        const auto rows = rdx::reduce_axis(ctx(), peak, in, shape, 1, o);
        REQUIRE(mean.size() == shape[1]);
        REQUIRE(rows.plan.segments == shape[0]);
        for (std::uint64_t j = 0; j < shape[1]; ++j) {
          double sum = 0;
          for (std::uint64_t i = 0; i < shape[0]; ++i)
            sum += elem(i * shape[1] + j);
          CHECK(mean.value(j).as<double>() == doctest::Approx(sum / 37).epsilon(1e-5));
        }
        for (std::uint64_t i = 0; i < shape[0]; ++i) {
          double most = elem(i * shape[1]);
          for (std::uint64_t j = 1; j < shape[1]; ++j)
            most = std::max(most, elem(i * shape[1] + j));
          CHECK(rows.value(0, i).as<double>() == most);
        }
        CHECK(unchanged());
      }
    }
  }
}

TEST_CASE("segmented: small host inputs on a CPU run on the calling thread, as the kernels do") {
  // Offsets (empty segments among them), rows, columns and views of at most host_items elements
  // under auto: no kernel (SegmentedPlan::host_loop; dispatch/host_loop.cpp's run_host_segments),
  // against each segment's reference and against the kernels' results (profile asks for them):
  // the same values and indices, sums within rounding.
  if (ctx().device_info().kind != rdx::DeviceKind::CPU) {
    MESSAGE("not a CPU device: segmented reductions launch here");
    return;
  }
  rdx::Options kernel;
  kernel.profile = true;
  int ran = 0;
  const std::vector<std::uint64_t> off = {0, 0, 5, 21, 21, 100, 1000};
  const std::vector<std::uint64_t> rows = {40, 17}, cols = {3, 9, 13};
  for (rdx::Type type : {rdx::Type::F32, rdx::Type::I32, rdx::Type::U8, rdx::Type::F64})
    for (rdx::Op op : rdx::kAllOps) {
      if (!rdx::op_allows(op, type) || !device_allows(type)) continue;
      const bool float_prod = rdx::is_float(type) && op == rdx::Op::Prod;  // launches
      CAPTURE(rdx::name(type));
      CAPTURE(rdx::name(op));
      const auto data = rdx::make_case_data(type, op, rdx::Pattern::Small, 1000, 3);
      const auto compare = [&](const rdx::SegmentedResult& h, const rdx::SegmentedResult& k) {
        CHECK(h.plan.host_loop == !float_prod);
        CHECK_FALSE(k.plan.host_loop);
        CHECK(h.indices == k.indices);
        if (rdx::is_float(type) && op == rdx::Op::Sum) {
          for (std::uint64_t j = 0; j < h.size(); ++j)
            CHECK(h.value(j).as<double>() ==
                  doctest::Approx(k.value(j).as<double>()).epsilon(1e-5));
        } else {
          CHECK(h.values == k.values);
        }
        ++ran;
      };
      const auto h = rdx::reduce_segments(ctx(), type, data.data(), 1000, off, op);
      CHECK(rdx::check_segments(h, data.data(), off) == "");
      compare(h, rdx::reduce_segments(ctx(), type, data.data(), 1000, off, op, kernel));
      for (const auto& shape : {rows, cols})
        for (std::size_t axis = 0; axis < shape.size(); ++axis) {
          CAPTURE(axis);
          const auto a = rdx::reduce_axis(ctx(), type, data.data(), shape, axis, op);
          CHECK(rdx::check_axis(a, data.data(), shape, axis) == "");
          compare(a, rdx::reduce_axis(ctx(), type, data.data(), shape, axis, op, kernel));
        }
      // Views (the view form), over their first axis and over both: every other element of 30
      // rows of 33 walked backwards from the last row, and the transpose of 30 rows of 33's
      // first 17 columns (runs of contiguous elements, in memory order).
      for (const rdx::View& v :
           {rdx::View{{30, 17}, {-33, 2}, 29 * 33}, rdx::View{{17, 30}, {1, 33}, 0}})
        for (const std::vector<std::int64_t>& axes :
             {std::vector<std::int64_t>{0}, std::vector<std::int64_t>{0, 1}}) {
          CAPTURE(v.strides[0]);
          CAPTURE(axes.size());
          const auto w = rdx::reduce_axes(ctx(), type, data.data(), v, axes, op);
          CHECK(w.plan.by_view);
          compare(w, rdx::reduce_axes(ctx(), type, data.data(), v, axes, op, kernel));
        }
    }
  CHECK(ran > 100);
  // Composites along an axis of at most 256 segments (kMostHostStatSegments) too: var, nansum,
  // count and any of 40 x 17 f32 with a NaN, against the kernels (within rounding).
  auto x = rdx::make_case_data(rdx::Type::F32, rdx::Op::Sum, rdx::Pattern::Random, 680, 5);
  reinterpret_cast<float*>(x.data())[100] = std::numeric_limits<float>::quiet_NaN();
  const rdx::Array in[] = {{rdx::Type::F32, x.data()}};
  int composites = 0;
  for (rdx::Stat s :
       {rdx::Stat::Var, rdx::Stat::NanVar, rdx::Stat::NanSum, rdx::Stat::Count, rdx::Stat::Any})
    for (std::size_t axis : {0, 1}) {
      CAPTURE(rdx::name(s));
      CAPTURE(axis);
      const auto h = rdx::reduce_axis(ctx(), s, in, rows, axis);
      const auto k = rdx::reduce_axis(ctx(), s, in, rows, axis, kernel);
      CHECK(h.plan.host_loop);
      CHECK_FALSE(k.plan.host_loop);
      REQUIRE(h.size() == k.size());
      REQUIRE(h.type == k.type);
      for (std::uint64_t j = 0; j < h.size(); ++j) {
        const double a = h.value(j).as<double>(), b = k.value(j).as<double>();
        CHECK(std::isnan(a) == std::isnan(b));
        if (!std::isnan(b)) CHECK(a == doctest::Approx(b).epsilon(1e-5));
      }
      ++composites;
    }
  CHECK(composites == 10);
}
