// Segmented float sums under rdx::Determinism AnyDevice and Exact (cl/exact_segments.cl): every
// segment's value against GMP's exact sum by the rounding rule (exact_reference.hpp), rounded on
// the device; the same bits as rdx::reduce of the segment alone, across lanes, work-group sizes,
// the offsets and axis forms, device buffers and the two levels; and what the form refuses.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "exact_reference.hpp"
#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

using rdx_test::check_rounded;
using rdx_test::ctx;
using rdx_test::Exact;
using rdx_test::exact_sum;
using rdx_test::fp64;

// Segments of 0 to 5000 elements that defeat plain sums: exponents across +-60 with both signs,
// a huge value and its negation around small ones, -0 alone, subnormals; offsets into `off`.
template <class T>
std::vector<T> hard_segments(std::vector<std::uint64_t>& off, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::uint64_t lengths[] = {0, 1, 2, 3, 7, 30, 100, 1000, 5000};
  std::vector<T> x;
  off = {0};
  for (int k = 0; k < 160; ++k) {
    const std::uint64_t len = lengths[g() % std::size(lengths)];
    const std::size_t start = x.size();
    for (std::uint64_t j = 0; j < len; ++j)
      x.push_back(static_cast<T>(std::ldexp(u(g), static_cast<int>(g() % 120) - 60)));
    switch (k % 5) {
      case 0:  // 1e30, the small ones, -1e30
        if (len >= 3) {
          x[start] = static_cast<T>(1e30);
          x[start + len / 2] = static_cast<T>(-1e30);
        }
        break;
      case 1:  // -0 only
        std::fill(x.begin() + start, x.end(), static_cast<T>(-0.0));
        break;
      case 2:  // subnormals
        for (std::size_t j = start; j < x.size(); ++j)
          x[j] = static_cast<T>(u(g)) * std::numeric_limits<T>::denorm_min() * 1000;
        break;
      default:
        break;
    }
    off.push_back(x.size());
  }
  return x;
}

// Checks every segment of x (offsets off) in r (accumulator A) against GMP.
template <class A, class T>
void check_segments(const std::vector<T>& x, const std::vector<std::uint64_t>& off,
                    const rdx::SegmentedResult& r) {
  REQUIRE(r.size() == off.size() - 1);
  CHECK(r.plan.exact);
  for (std::size_t k = 0; k + 1 < off.size(); ++k) {
    const std::vector<T> seg(x.begin() + off[k], x.begin() + off[k + 1]);
    Exact s;
    exact_sum(s.z, seg);
    const bool neg_zero = !seg.empty() && std::all_of(seg.begin(), seg.end(), [](T v) {
      return v == 0 && std::signbit(v);
    });
    INFO("segment " << k << " of " << seg.size());
    CHECK(check_rounded<A>(s.z, r.value(k).as<A>(), neg_zero) == "");
  }
}

rdx::Options exact_opts() {
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  return o;
}

}  // namespace

TEST_CASE("exact segments: each segment correctly rounded against GMP") {
  std::vector<std::uint64_t> off;
  const std::vector<float> x = hard_segments<float>(off, 1);
  rdx::Options o = exact_opts();
  check_segments<float>(
      x, off,
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, o));
  if (!fp64()) return;
  o.acc = rdx::Type::F64;  // f32 elements rounded into a double
  check_segments<double>(
      x, off,
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, o));
  o.acc.reset();
  std::vector<std::uint64_t> off64;
  const std::vector<double> y = hard_segments<double>(off64, 2);
  check_segments<double>(
      y, off64,
      rdx::reduce_segments(ctx(), rdx::Type::F64, y.data(), y.size(), off64, rdx::Op::Sum, o));
}

TEST_CASE("exact segments: the same bits across lanes, groups, forms, buffers and levels") {
  std::vector<std::uint64_t> off;
  const std::vector<float> x = hard_segments<float>(off, 3);
  rdx::Options o = exact_opts();
  const rdx::SegmentedResult want =
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, o);
  // A segment alone through rdx::reduce.
  for (std::size_t k : {std::size_t{0}, std::size_t{5}, off.size() - 2}) {
    const rdx::Result one =
        rdx::reduce(ctx(), rdx::Type::F32, x.data() + off[k], off[k + 1] - off[k], rdx::Op::Sum, o);
    CHECK(one.value.bits == want.value(k).bits);
  }
  const std::size_t max_wg = ctx().device_info().max_work_group;
  for (std::size_t wg : {std::size_t{16}, std::size_t{64}}) {
    for (std::uint64_t lanes : {1, 4, 16}) {
      if (wg > max_wg || lanes > wg) continue;
      rdx::Options v = o;
      v.determinism = lanes == 4 ? rdx::Determinism::AnyDevice : rdx::Determinism::Exact;
      v.work_group_size = wg;
      v.tuning.set("lanes", lanes);
      const int fold = fp64() && lanes != 16 ? 1 : 0;  // the windows, and the digits alone
      v.tuning.set("fold", fold);
      INFO("wg " << wg << " lanes " << lanes << " fold " << fold);
      const rdx::SegmentedResult r =
          rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, v);
      CHECK(r.plan.lanes == lanes);
      CHECK(r.plan.fold == (fold == 1));
      CHECK(r.values == want.values);
    }
  }
  // The axis form: rows (inner 1) and columns (inner > 1) of a 3-D array, against the offsets
  // form over the same elements gathered.
  const std::uint64_t shape[] = {3, 1000, 7};
  std::vector<float> cube(3 * 1000 * 7);
  for (std::size_t i = 0; i < cube.size(); ++i)
    cube[i] = x[(i * 7919) % x.size()];
  for (std::size_t axis : {std::size_t{1}, std::size_t{2}}) {
    const rdx::SegmentedResult a =
        rdx::reduce_axis(ctx(), rdx::Type::F32, cube.data(), shape, axis, rdx::Op::Sum, o);
    CHECK(a.plan.exact);
    // Segment r's elements, gathered in order.
    std::vector<float> gathered;
    std::vector<std::uint64_t> goff = {0};
    const std::uint64_t length = shape[axis], inner = axis == 1 ? 7 : 1;
    for (std::uint64_t r = 0; r < a.size(); ++r) {
      const std::uint64_t first = r / inner * length * inner + r % inner;
      for (std::uint64_t j = 0; j < length; ++j)
        gathered.push_back(cube[first + j * inner]);
      goff.push_back(gathered.size());
    }
    INFO("axis " << axis);
    CHECK(rdx::reduce_segments(ctx(), rdx::Type::F32, gathered.data(), gathered.size(), goff,
                               rdx::Op::Sum, o)
              .values == a.values);
  }
  // Device buffers: data, and offsets checked on the device.
  cl_int err = CL_SUCCESS;
  const cl_mem_flags copy = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  cl::Buffer data(ctx().cl_context(), copy, x.size() * 4, const_cast<float*>(x.data()), &err);
  cl::Buffer offsets(ctx().cl_context(), copy, off.size() * 8,
                     const_cast<std::uint64_t*>(off.data()), &err);
  cl::Buffer values(ctx().cl_context(), CL_MEM_READ_WRITE, want.values.size(), nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(rdx::reduce_segments(ctx(), rdx::Type::F32, data, x.size(), off, rdx::Op::Sum, o).values ==
        want.values);
  rdx::reduce_segments_into(ctx(), rdx::Type::F32, data, x.size(), offsets, off.size() - 1,
                            rdx::Op::Sum, values, nullptr, o);
  std::vector<unsigned char> got(want.values.size());
  REQUIRE(ctx().queue().enqueueReadBuffer(values, CL_TRUE, 0, got.size(), got.data()) ==
          CL_SUCCESS);
  CHECK(got == want.values);
  // Bad offsets on the device: ArgumentError, and the values left as they were.
  std::vector<std::uint64_t> bad = off;
  bad[3] = x.size() + 1;
  cl::Buffer bad_offsets(ctx().cl_context(), copy, bad.size() * 8, bad.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK_THROWS_AS(rdx::reduce_segments_into(ctx(), rdx::Type::F32, data, x.size(), bad_offsets,
                                            bad.size() - 1, rdx::Op::Sum, values, nullptr, o),
                  rdx::ArgumentError);
  REQUIRE(ctx().queue().enqueueReadBuffer(values, CL_TRUE, 0, got.size(), got.data()) ==
          CL_SUCCESS);
  CHECK(got == want.values);
}

TEST_CASE("exact segments: NaN, infinities, and what the form refuses") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {1, NAN, 2, inf, 3, -inf, inf, 5, 1e38f, 1e38f, 1e38f, 1e38f};
  const std::vector<std::uint64_t> off = {0, 3, 5, 7, 8, 12, 12};
  rdx::Options o;
  o.determinism = rdx::Determinism::AnyDevice;
  const rdx::SegmentedResult r =
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, o);
  CHECK(std::isnan(r.value(0).as<float>()));
  CHECK(r.value(1).as<float>() == inf);
  CHECK(std::isnan(r.value(2).as<float>()));  // -inf and +inf
  CHECK(r.value(3).as<float>() == 5);
  CHECK(r.value(4).as<float>() == inf);  // 4e38 overflows f32
  CHECK(r.value(5).as<float>() == 0);    // empty: +0
  CHECK_FALSE(std::signbit(r.value(5).as<float>()));
  // One pass only: a chunk below n is refused; products and the tunables of other forms too.
  rdx::Options chunked = o;
  chunked.tuning.set("chunk", 4);
  CHECK_THROWS_AS(
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, chunked),
      rdx::UnsupportedError);
  CHECK_THROWS_AS(
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Prod, o),
      rdx::UnsupportedError);
  rdx::Options parts = o;
  parts.tuning.set("parts", 2);
  CHECK_THROWS_AS(
      rdx::reduce_segments(ctx(), rdx::Type::F32, x.data(), x.size(), off, rdx::Op::Sum, parts),
      rdx::ArgumentError);
  // Integer sums need nothing: the work-group form runs.
  const std::vector<std::int32_t> ints = {1, 2, 3, 4};
  const std::vector<std::uint64_t> ioff = {0, 2, 4};
  const rdx::SegmentedResult ir =
      rdx::reduce_segments(ctx(), rdx::Type::I32, ints.data(), ints.size(), ioff, rdx::Op::Sum, o);
  CHECK_FALSE(ir.plan.exact);
  CHECK(ir.value(1).as<std::int32_t>() == 7);
}

TEST_CASE("exact segments: users' reductions and composites per segment, the whole form's bits") {
  std::vector<std::uint64_t> off;
  const std::vector<float> x = hard_segments<float>(off, 4);
  std::vector<float> y(x.size());
  for (std::size_t k = 0; k < y.size(); ++k)
    y[k] = static_cast<float>(k % 7) - 3.0f;
  const rdx::Array two[] = {rdx::Array::of(std::span<const float>(x)),
                            rdx::Array::of(std::span<const float>(y))};
  rdx::Options o = exact_opts();
  // Two float sums (x, and x * y): each field as rdx::reduce gives it for the segment alone.
  rdx::Reduction r;
  r.name = "sums";
  r.fields = {{"s", rdx::Type::F32, "0", "x0", "a.s + b.s"},
              {"p", rdx::Type::F32, "0", "x0 * x1", "a.p + b.p"}};
  const rdx::SegmentedStates st = rdx::reduce_segments(ctx(), r, two, x.size(), off, o);
  CHECK(st.plan.exact);
  // mean and dot per segment (f32 accumulators: the device needs no doubles).
  rdx::Options f32 = o;
  f32.acc = rdx::Type::F32;
  const rdx::SegmentedStats mean =
      rdx::reduce_segments(ctx(), rdx::Stat::Mean, std::span(two, 1), x.size(), off, f32);
  const rdx::SegmentedStats dot =
      rdx::reduce_segments(ctx(), rdx::Stat::Dot, std::span(two, 2), x.size(), off, f32);
  for (std::size_t k = 0; k + 1 < off.size(); k += 7) {
    const std::uint64_t len = off[k + 1] - off[k];
    const rdx::Array seg[] = {rdx::Array::of(std::span<const float>(x.data() + off[k], len)),
                              rdx::Array::of(std::span<const float>(y.data() + off[k], len))};
    const rdx::StateResult whole = rdx::reduce(ctx(), r, seg, len, o);
    INFO("segment " << k << " of " << len);
    CHECK(st.value(0, k).bits == whole.fields.at(0).bits);
    CHECK(st.value(1, k).bits == whole.fields.at(1).bits);
    CHECK(mean.value(k).bits ==
          rdx::reduce(ctx(), rdx::Stat::Mean, std::span(seg, 1), len, f32).value.bits);
    CHECK(dot.value(k).bits ==
          rdx::reduce(ctx(), rdx::Stat::Dot, std::span(seg, 2), len, f32).value.bits);
  }
  // The axis form and lanes give the same bits as offsets over the same rows.
  const std::uint64_t shape[] = {40, 1000};
  const std::vector<std::uint64_t> rows_off = [] {
    std::vector<std::uint64_t> v;
    for (std::uint64_t k = 0; k <= 40; ++k)
      v.push_back(k * 1000);
    return v;
  }();
  rdx::Options lanes = o;
  lanes.tuning.set("lanes", 8);
  lanes.work_group_size = std::min<std::size_t>(64, ctx().device_info().max_work_group);
  CHECK(rdx::reduce_axis(ctx(), r, two, shape, 1, lanes).fields ==
        rdx::reduce_segments(ctx(), r, two, 40000, rows_off, o).fields);
  // Integer fields run as they are; minmax runs; var per segment and float fields that are not
  // sums are refused.
  CHECK(rdx::reduce_segments(ctx(), rdx::Stat::Count, std::span(two, 1), x.size(), off, o).size() ==
        off.size() - 1);
  CHECK(
      rdx::reduce_segments(ctx(), rdx::Stat::MinMax, std::span(two, 1), x.size(), off, o).size() ==
      off.size() - 1);
  CHECK_THROWS_AS(
      rdx::reduce_segments(ctx(), rdx::Stat::Var, std::span(two, 1), x.size(), off, f32),
      rdx::UnsupportedError);
  const rdx::Reduction prod = rdx::Reduction::transform(rdx::Op::Prod, rdx::Type::F32, "x");
  CHECK_THROWS_AS(rdx::reduce_segments(ctx(), prod, std::span(two, 1), x.size(), off, o),
                  rdx::UnsupportedError);
}
