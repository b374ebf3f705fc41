// Segmented forms of users' reductions and of the composites (rdx/segmented_custom.hpp), against
// host references computed here: offsets around every boundary and every axis shape, the
// kernels' forms forced (lanes, parts, column blocks), host inputs in passes and device inputs.
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

namespace {

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

// A buffer of `bytes` bytes holding a copy of p's (uninitialised when p is null).
cl::Buffer buffer(std::size_t bytes, const void* p) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx().cl_context(), CL_MEM_READ_WRITE | (p && bytes ? CL_MEM_COPY_HOST_PTR : 0),
               bytes ? bytes : 1, p && bytes ? const_cast<void*>(p) : nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  return b;
}

// Two inputs, four fields of three types: a count, a dot product in i64, the least x0 and the
// largest flat index i (the map's i counts from the input's start).
rdx::Reduction probe() {
  rdx::Reduction r;
  r.name = "probe";
  r.fields = {{"n", rdx::Type::U64, "0", "1", "a.n + b.n"},
              {"dot", rdx::Type::I64, "0", "(long)x0 * (long)x1", "a.dot + b.dot"},
              {"lo", rdx::Type::I32, "INT_MAX", "x0", "min(a.lo, b.lo)"},
              {"top", rdx::Type::U64, "0", "i", "max(a.top, b.top)"}};
  return r;
}

struct Data {
  std::vector<std::int32_t> x0, x1;
  explicit Data(std::uint64_t n) : x0(n), x1(n) {
    for (std::uint64_t k = 0; k < n; ++k) {
      x0[k] = static_cast<std::int32_t>((k * 2654435761u) % 2001) - 1000;
      x1[k] = static_cast<std::int32_t>((k * 40503u) % 97) - 48;
    }
  }
  std::vector<rdx::Array> arrays() const {
    return {rdx::Array::of(std::span<const std::int32_t>(x0)),
            rdx::Array::of(std::span<const std::int32_t>(x1))};
  }
};

// Segment k's expected fields from its elements' flat indices, in order.
std::string check_probe(const rdx::SegmentedStates& r, const Data& d, std::uint64_t k,
                        const std::vector<std::uint64_t>& at) {
  std::int64_t dot = 0;
  for (std::uint64_t f : at)
    dot += std::int64_t{d.x0[f]} * d.x1[f];
  std::int32_t lo = std::numeric_limits<std::int32_t>::max();
  for (std::uint64_t f : at)
    lo = std::min(lo, d.x0[f]);
  const std::uint64_t top = at.empty() ? 0 : at.back();
  if (r.value(0, k).as<std::uint64_t>() != at.size() || r.value(1, k).as<std::int64_t>() != dot ||
      r.value(2, k).as<std::int32_t>() != lo || r.value(3, k).as<std::uint64_t>() != top)
    return rdx::detail::format(
        "segment {} of {} ({}): n {} dot {} lo {} top {}; expected {} {} {} {}", k, r.size(),
        r.plan.describe(), r.value(0, k).to_string(), r.value(1, k).to_string(),
        r.value(2, k).to_string(), r.value(3, k).to_string(), at.size(), dot, lo, top);
  return "";
}

std::string check_offsets(const rdx::SegmentedStates& r, const Data& d,
                          const std::vector<std::uint64_t>& off) {
  if (r.size() != off.size() - 1) return "wrong segment count";
  for (std::uint64_t k = 0; k + 1 < off.size(); ++k) {
    std::vector<std::uint64_t> at;
    for (std::uint64_t f = off[k]; f < off[k + 1]; ++f)
      at.push_back(f);
    if (auto e = check_probe(r, d, k, at); !e.empty()) return e;
  }
  return "";
}

// The axis form: outer x length x inner; result o * inner + j reads elements (o, l, j).
struct Axis {
  std::uint64_t outer = 1, length = 1, inner = 1;
  Axis(const std::vector<std::uint64_t>& shape, std::size_t axis) {
    for (std::size_t k = 0; k < shape.size(); ++k)
      (k < axis ? outer : k > axis ? inner : length) *= shape[k];
  }
  std::vector<std::uint64_t> at(std::uint64_t r) const {
    std::vector<std::uint64_t> v;
    for (std::uint64_t l = 0; l < length; ++l)
      v.push_back((r / inner) * length * inner + l * inner + r % inner);
    return v;
  }
};

std::string check_axis(const rdx::SegmentedStates& r, const Data& d,
                       const std::vector<std::uint64_t>& shape, std::size_t axis) {
  const Axis a(shape, axis);
  if (r.size() != a.outer * a.inner) return "wrong result count";
  for (std::uint64_t k = 0; k < r.size(); ++k)
    if (auto e = check_probe(r, d, k, a.at(k)); !e.empty()) return e;
  return "";
}

// The forms the plan picks, and others forced: several lanes (the tree) and parts (seg_finish),
// one work-item per segment over two parts.
std::vector<rdx::Options> forms() {
  std::vector<rdx::Options> all(3);
  all[1].tuning.set("lanes", 4).set("parts", 3);
  all[2].tuning.set("lanes", 1).set("parts", 2).set("unroll", 1);
  return all;
}

std::uint64_t product(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

}  // namespace

TEST_CASE("segmented custom: a user's reduction by offsets and along every axis") {
  const rdx::Reduction r = probe();
  const std::size_t wg =
      rdx::plan_segments(ctx().device_info(), rdx::Type::I32, rdx::Op::Sum, 1, 1).work_group_size;
  for (const auto& off : rdx::segment_layouts(wg, 5)) {
    const Data d(off.back());
    const auto in = d.arrays();
    for (const rdx::Options& o : forms()) {
      const auto s = rdx::reduce_segments(ctx(), r, in, d.x0.size(), off, o);
      INFO(s.plan.describe());
      CHECK(s.plan.reduction == "probe");
      CHECK(s.plan.vector == 1);
      CHECK(check_offsets(s, d, off) == "");
    }
  }
  for (const auto& shape : rdx::axis_shapes()) {
    const Data d(product(shape));
    const auto in = d.arrays();
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
      std::vector<rdx::Options> all = forms();
      if (Axis(shape, axis).inner > 1) all.emplace_back().tuning.set("column_block", 16);
      for (const rdx::Options& o : all) {
        const auto s = rdx::reduce_axis(ctx(), r, in, shape, axis, o);
        INFO(s.plan.describe());
        CHECK(check_axis(s, d, shape, axis) == "");
      }
    }
  }
}

TEST_CASE("segmented custom: host inputs in passes, device inputs, and errors") {
  const rdx::Reduction r = probe();
  const std::vector<std::uint64_t> off = {0, 3, 3, 40, 41, 1000, 1000};
  const Data d(off.back());
  const auto in = d.arrays();
  // Passes of 1, 7 and 300 elements: segments across several passes, a pass inside one segment.
  for (std::uint64_t chunk : {1, 7, 300}) {
    rdx::Options o;
    o.tuning.set("chunk", chunk).set("parts", 1);
    const auto s = rdx::reduce_segments(ctx(), r, in, d.x0.size(), off, o);
    INFO(s.plan.describe());
    CHECK(s.plan.in_passes());
    CHECK(check_offsets(s, d, off) == "");
  }
  // Whole slices, rows of a slice and parts of one row per pass.
  const std::vector<std::uint64_t> shape = {3, 100, 17};
  const Data a(product(shape));
  for (std::size_t axis = 0; axis < shape.size(); ++axis)
    for (std::uint64_t chunk : {2000, 500, 5}) {
      rdx::Options o;
      o.tuning.set("chunk", chunk).set("parts", 1);
      const auto s = rdx::reduce_axis(ctx(), r, a.arrays(), shape, axis, o);
      INFO(s.plan.describe());
      CHECK(check_axis(s, a, shape, axis) == "");
    }

  // Device inputs: the same results; a chunk below n is refused.
  const rdx::DeviceArray dev[] = {{rdx::Type::I32, buffer(d.x0.size() * 4, d.x0.data())},
                                  {rdx::Type::I32, buffer(d.x1.size() * 4, d.x1.data())}};
  CHECK(check_offsets(rdx::reduce_segments(ctx(), r, dev, d.x0.size(), off), d, off) == "");
  const std::vector<std::uint64_t> rows = {10, 100};
  CHECK(check_axis(rdx::reduce_axis(ctx(), r, dev, rows, 1), d, rows, 1) == "");
  // Everything on the device: offsets in a buffer (checked there), one result buffer per field.
  const auto read = [](const cl::Buffer& b, std::size_t bytes) {
    std::vector<unsigned char> v(bytes);
    REQUIRE(ctx().queue().enqueueReadBuffer(b, CL_TRUE, 0, bytes, v.data()) == CL_SUCCESS);
    return v;
  };
  const std::uint64_t segs = off.size() - 1;
  const std::vector<unsigned char> fill(8 * segs, 0xAB);
  std::vector<cl::Buffer> outs;
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    outs.push_back(buffer(fill.size(), fill.data()));
  const auto want = rdx::reduce_segments(ctx(), r, in, d.x0.size(), off);
  const cl::Buffer doff = buffer(off.size() * 8, off.data());
  rdx::reduce_segments_into(ctx(), r, dev, d.x0.size(), doff, segs, outs);
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    CHECK(read(outs[f], want.fields[f].size()) == want.fields[f]);
  const auto by_rows = rdx::reduce_axis(ctx(), r, dev, rows, 1);
  std::vector<cl::Buffer> row_outs;
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    row_outs.push_back(buffer(fill.size() * 2, nullptr));
  rdx::reduce_axis_into(ctx(), r, dev, rows, 1, row_outs);
  for (std::size_t f = 0; f < r.fields.size(); ++f)
    CHECK(read(row_outs[f], by_rows.fields[f].size()) == by_rows.fields[f]);
  // Bad device offsets: an ArgumentError, and the buffers as they were.
  for (const cl::Buffer& b : outs)
    REQUIRE(ctx().queue().enqueueWriteBuffer(b, CL_TRUE, 0, fill.size(), fill.data()) ==
            CL_SUCCESS);
  const std::vector<std::uint64_t> down = {0, 5, 4, 6, 7, 8, 9};
  const cl::Buffer bad_off = buffer(down.size() * 8, down.data());
  CHECK_THROWS_AS(rdx::reduce_segments_into(ctx(), r, dev, d.x0.size(), bad_off, segs, outs),
                  rdx::ArgumentError);
  for (const cl::Buffer& b : outs)
    CHECK(read(b, fill.size()) == fill);
  CHECK_THROWS_AS(
      rdx::reduce_segments_into(ctx(), r, dev, d.x0.size(), doff, segs, std::span(outs).first(3)),
      rdx::ArgumentError);  // a buffer per field

  rdx::Options small;
  small.tuning.set("chunk", 10);
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), r, dev, d.x0.size(), off, small), rdx::ArgumentError);

  // Errors before any kernel runs: offsets, an accumulator option, a vector load, the inputs.
  const std::vector<std::uint64_t> bad = {0, 5, 4};
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), r, in, d.x0.size(), bad), rdx::ArgumentError);
  rdx::Options acc;
  acc.acc = rdx::Type::I64;
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), r, in, d.x0.size(), off, acc), rdx::ArgumentError);
  rdx::Options vec;
  vec.tuning.set("vector", 4);
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), r, in, d.x0.size(), off, vec), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), r, std::span(in).first(1), d.x0.size(), off),
                  rdx::ArgumentError);  // the map reads x1
  // A compiler error in an expression names it (fmax of three arguments: valid names, not
  // OpenCL C).
  const auto broken = rdx::Reduction::simple(rdx::Type::I32, "fmax(a, b, a)", "0");
  try {
    rdx::reduce_segments(ctx(), broken, std::span(in).first(1), d.x0.size(), off);
    FAIL("no error");
  } catch (const rdx::ExpressionError& e) {
    CHECK(e.text == "fmax(a, b, a)");
  }
}

TEST_CASE("segmented custom: the composites per segment against host references") {
  // Segments that start at a multiple of 4 elements and not (the chunk form's 4-element loads).
  const std::vector<std::uint64_t> off = {0, 0, 1, 2, 7, 300, 301, 304, 2304, 2411};
  const std::uint64_t n = off.back();
  std::vector<float> x(n), y(n);
  for (std::uint64_t k = 0; k < n; ++k) {
    x[k] = static_cast<float>((k * 37) % 101) * 0.25f - 12.0f;
    y[k] = static_cast<float>((k * 11) % 13) - 6.0f;
  }
  x[5] = x[3];  // a tie: the first index wins
  // The nan* forms read x with NaN at every seventh element, from the fourth.
  std::vector<float> xn = x;
  for (std::uint64_t k = 3; k < n; k += 7)
    xn[k] = std::numeric_limits<float>::quiet_NaN();
  const rdx::Array one[] = {rdx::Array::of(std::span<const float>(x))};
  const rdx::Array with_nan[] = {rdx::Array::of(std::span<const float>(xn))};
  const rdx::Array two[] = {rdx::Array::of(std::span<const float>(x)),
                            rdx::Array::of(std::span<const float>(y))};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // By default var, std, minmax and their nan* forms run their chunk form (state_chunk) in the
  // lanes' loop; state_chunk = 1 runs them element by element: both against the references.
  rdx::Options element_by_element;
  element_by_element.tuning.set("state_chunk", 1);
  for (const rdx::Options& opts : {rdx::Options{}, element_by_element})
    for (rdx::Stat s : rdx::kAllStats) {
      INFO(rdx::name(s));
      INFO((opts.tuning.empty() ? "chunk form" : "element by element"));
      const bool skip = rdx::name(s).substr(0, 3) == "nan";
      const std::span<const rdx::Array> in = s == rdx::Stat::Dot ? std::span<const rdx::Array>(two)
                                             : skip ? std::span<const rdx::Array>(with_nan)
                                                    : std::span<const rdx::Array>(one);
      const float* src = skip ? xn.data() : x.data();
      const bool counts = s == rdx::Stat::Count || s == rdx::Stat::Any || s == rdx::Stat::All;
      const auto r = rdx::reduce_segments(ctx(), s, in, n, off, opts, counts ? "x > 0.5f" : "");
      REQUIRE(r.size() == off.size() - 1);
      if (s == rdx::Stat::Var || s == rdx::Stat::MinMax || s == rdx::Stat::NanStd)
        CHECK((r.plan.state_chunk > 0) == opts.tuning.empty());
      for (std::uint64_t k = 0; k + 1 < off.size(); ++k) {
        const std::uint64_t b = off[k], e = off[k + 1], c = e - b;
        INFO("segment " << k);
        double sum = 0, dot = 0, sq = 0, prod = 1;
        std::uint64_t count = 0, lo = b, hi = b, numbers = 0;
        for (std::uint64_t f = b; f < e; ++f) {
          if (std::isnan(src[f])) continue;  // the nan* forms' NaN (x holds none)
          ++numbers;
          prod *= src[f];
          sum += src[f];
          dot += double(x[f]) * y[f];
          sq += double(x[f]) * x[f];
          count += x[f] > 0.5f;
          if (x[f] < x[lo]) lo = f;
          if (x[f] > x[hi]) hi = f;
        }
        const double mean = numbers ? sum / double(numbers) : nan;
        double m2 = 0;
        for (std::uint64_t f = b; f < e; ++f)
          if (!std::isnan(src[f])) m2 += (src[f] - mean) * (src[f] - mean);
        const double var = numbers ? m2 / double(numbers) : nan;
        const double v = r.value(k).as<double>();
        const auto near = [&](double want) {
          if (std::isnan(want)) return std::isnan(v);
          return std::fabs(v - want) <= 1e-4 * (1 + std::fabs(want));
        };
        switch (s) {
          case rdx::Stat::MinMax:
            CHECK(r.indices[k] == (c ? lo - b : rdx::kEmptySegmentIndex));
            CHECK(r.max_indices[k] == (c ? hi - b : rdx::kEmptySegmentIndex));
            CHECK(v == (c ? x[lo] : 0.0));
            CHECK(r.max(k).as<double>() == (c ? x[hi] : 0.0));
            break;
          case rdx::Stat::Mean:
            CHECK(near(mean));
            break;
          case rdx::Stat::Var:
            CHECK(near(var));
            break;
          case rdx::Stat::Std:
            CHECK(near(std::sqrt(var)));
            break;
          case rdx::Stat::Norm2:
            CHECK(near(std::sqrt(sq)));
            break;
          case rdx::Stat::Dot:
            CHECK(near(dot));
            break;
          case rdx::Stat::Count:
            CHECK(r.value(k).as<std::uint64_t>() == count);
            break;
          case rdx::Stat::Any:  // an empty segment: false, as NumPy's any of nothing
            CHECK(r.type == rdx::Type::U8);
            CHECK(r.value(k).as<int>() == (count > 0 ? 1 : 0));
            break;
          case rdx::Stat::All:  // an empty segment: true
            CHECK(r.type == rdx::Type::U8);
            CHECK(r.value(k).as<int>() == (count == c ? 1 : 0));
            break;
          case rdx::Stat::NanSum:  // an empty segment: 0
            CHECK(near(sum));
            break;
          case rdx::Stat::NanProd:  // short segments only: longer ones overflow f32
            if (c <= 7) CHECK(near(prod));
            break;
          case rdx::Stat::NanMean:
            CHECK(near(mean));
            break;
          case rdx::Stat::NanVar:
            CHECK(near(var));
            break;
          case rdx::Stat::NanStd:
            CHECK(near(std::sqrt(var)));
            break;
        }
      }
    }
  // The chunk form's chunks read 4 elements a load (the GPUs' plan for one lane a segment; asked
  // for here): the same chunks, so the same bits as one element a load.
  rdx::Options chunk_loads,
      one_by_one;  // a tunable also keeps a small host input off the host loop
  chunk_loads.tuning.set("vector", 4);
  one_by_one.tuning.set("vector", 1);
  for (rdx::Stat s : {rdx::Stat::Var, rdx::Stat::Std, rdx::Stat::MinMax, rdx::Stat::NanVar}) {
    INFO(rdx::name(s));
    const std::span<const rdx::Array> in = s == rdx::Stat::NanVar
                                               ? std::span<const rdx::Array>(with_nan)
                                               : std::span<const rdx::Array>(one);
    const auto a = rdx::reduce_segments(ctx(), s, in, n, off, one_by_one);
    const auto b = rdx::reduce_segments(ctx(), s, in, n, off, chunk_loads);
    CHECK(a.plan.vector == 1);
    CHECK(b.plan.vector == 4);
    CHECK(b.plan.lanes == 1);
    CHECK(b.values == a.values);
    CHECK(b.indices == a.indices);
    CHECK(b.max_values == a.max_values);
    CHECK(b.max_indices == a.max_indices);
  }
  // Along an axis: column means and minmax of a 2-D array (positions along the axis).
  const std::vector<std::uint64_t> shape = {n / 19, 19};
  const auto means = rdx::reduce_axis(ctx(), rdx::Stat::Mean, one, shape, 0);
  const auto mm = rdx::reduce_axis(ctx(), rdx::Stat::MinMax, one, shape, 0);
  for (std::uint64_t j = 0; j < 19; ++j) {
    double sum = 0;
    std::uint64_t lo = 0;
    for (std::uint64_t l = 0; l < shape[0]; ++l) {
      sum += x[l * 19 + j];
      if (x[l * 19 + j] < x[lo * 19 + j]) lo = l;
    }
    CHECK(std::fabs(means.value(j).as<double>() - sum / double(shape[0])) < 1e-4);
    CHECK(mm.indices[j] == lo);
  }
}

TEST_CASE("segmented custom: an f32 map accumulated in f64 per segment; as<A>() converts") {
  const std::vector<std::uint64_t> off = {0, 3, 3, 1000, 1001, 5000};
  const std::uint64_t n = off.back();
  std::vector<float> x(n);
  for (std::uint64_t k = 0; k < n; ++k)
    x[k] = static_cast<float>((k * 2654435761u) % 4096);  // squares exact in f32
  const rdx::Array in[] = {rdx::Array::of(std::span<const float>(x))};
  // Each segment's sum of squares in f64 (integers below 2^53: exact in any order), and whether
  // an f32 accumulator would have lost bits of it.
  std::vector<double> want;
  std::vector<float> narrowed;
  std::vector<std::uint64_t> counts;
  bool f32_loses = false;
  for (std::size_t k = 0; k + 1 < off.size(); ++k) {
    double s = 0;
    float s32 = 0;
    std::uint64_t c = 0;
    for (std::uint64_t i = off[k]; i < off[k + 1]; ++i) {
      s += static_cast<double>(x[i] * x[i]);
      s32 += x[i] * x[i];
      c += x[i] > 2048.0f;
    }
    f32_loses = f32_loses || static_cast<double>(s32) != s;
    want.push_back(s);
    narrowed.push_back(static_cast<float>(s));
    counts.push_back(c);
  }
  REQUIRE(f32_loses);
  const auto squares = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F64, "x * x");
  for (rdx::Determinism d : rdx::kAllDeterminisms) {
    INFO(rdx::name(d));
    rdx::Options o;
    o.determinism = d;
    const auto s = rdx::reduce_segments(ctx(), squares, in, n, off, o);
    REQUIRE(s.types.at(0) == rdx::Type::F64);
    CHECK(s.as<double>(0) == want);
    CHECK(s.as<float>(0) == narrowed);
  }
  // A statistic's values convert too: count's u64 into f64.
  const auto c = rdx::reduce_segments(ctx(), rdx::Stat::Count, in, n, off, {}, "x > 2048.0f");
  REQUIRE(c.type == rdx::Type::U64);
  CHECK(c.as<std::uint64_t>() == counts);
  std::vector<double> counts64(counts.begin(), counts.end());
  CHECK(c.as<double>() == counts64);
}
