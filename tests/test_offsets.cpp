// Device inputs at an element offset (rdx::BufferAt, DeviceArray::offset, Shard::offset): every
// strategy and every entry point reads the n elements from the offset on, in place, and nothing
// before or after them; argmin/argmax's index counts from the offset. The elements around the
// range are guards that change any result that reads them (NaN, or a value below every element).
// The reference is the host's loop over the same range.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

using rdx::BufferAt;
using rdx::Op;
using rdx::Type;

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

// `n` values in [0, 1) at element `offset` of a buffer of offset + n + 9 elements, the rest
// `guard`.
struct Guarded {
  std::vector<float> all;
  cl::Buffer buffer;
  std::uint64_t offset = 0, n = 0;
  Guarded(std::uint64_t offset_, std::uint64_t n_, float guard, unsigned seed)
      : all(offset_ + n_ + 9, guard), offset(offset_), n(n_) {
    std::mt19937 g(seed);
    for (std::uint64_t i = 0; i < n; ++i)
      all[offset + i] = std::uniform_real_distribution<float>(0.0f, 1.0f)(g);
    buffer = rdx_test::buffer(ctx(), all.size() * sizeof(float), all.data());
  }
  const float* range() const { return all.data() + offset; }
};

// The first index of the smallest of x[0, n).
std::uint64_t first_min(const float* x, std::uint64_t n) {
  return static_cast<std::uint64_t>(std::min_element(x, x + n) - x);
}

}  // namespace

TEST_CASE("offsets: every strategy reads a buffer from its element offset") {
  // Guards below every element: a strategy that reads one gives its value and index.
  const float low = -1e30f;
  for (const std::uint64_t offset : {std::uint64_t{3}, std::uint64_t{1027}}) {
    Guarded d(offset, 1000, low, 7);
    d.all[offset + 611] = -0.5f;  // the minimum, twice: the first index counts
    d.all[offset + 900] = -0.5f;
    d.buffer = rdx_test::buffer(ctx(), d.all.size() * sizeof(float), d.all.data());
    for (const rdx::StrategyInfo& s : rdx::strategies()) {
      CAPTURE(s.name);
      CAPTURE(offset);
      rdx::Options o;
      o.strategy = std::string(s.name);
      const rdx::Result r =
          rdx::reduce(ctx(), Type::F32, BufferAt(d.buffer, offset), d.n, Op::ArgMin, o);
      CHECK(r.plan.strategy == s.name);
      CHECK(r.value.as<float>() == -0.5f);
      CHECK(r.index == 611);
    }
  }
}

TEST_CASE("offsets: sums, NaN guards, exact sums and the typed forms") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Guarded d(5, 4099, nan, 11);  // a guard read makes the result NaN
  double want = 0;
  for (std::uint64_t i = 0; i < d.n; ++i)
    want += d.range()[i];
  const BufferAt at(d.buffer, d.offset);
  const float sum = rdx::reduce_buffer<float>(ctx(), at, d.n, Op::Sum);
  CHECK(sum == doctest::Approx(want).epsilon(1e-5));
  CHECK(rdx::reduce_buffer<float>(ctx(), at, d.n, Op::Max) ==
        *std::max_element(d.range(), d.range() + d.n));
  const auto idx = rdx::reduce_index_buffer<float>(ctx(), at, d.n, Op::ArgMin);
  CHECK(idx.index == first_min(d.range(), d.n));
  // Exact: the same bits as the host copy of the range.
  for (const rdx::Determinism level : {rdx::Determinism::AnyDevice, rdx::Determinism::Exact}) {
    rdx::Options o;
    o.determinism = level;
    const float host = rdx::reduce(ctx(), std::span<const float>(d.range(), d.n), Op::Sum, o);
    CHECK(rdx::reduce_buffer<float>(ctx(), at, d.n, Op::Sum, o) == host);
  }
  // An offset of 0 is the plain buffer.
  Guarded z(0, 300, nan, 12);
  CHECK(rdx::reduce_buffer<float>(ctx(), BufferAt(z.buffer, 0), 300, Op::Max) ==
        rdx::reduce_buffer<float>(ctx(), z.buffer, 300, Op::Max));
}

TEST_CASE("offsets: integers at odd offsets, every vector alignment") {
  std::vector<std::int32_t> v(4133);
  std::iota(v.begin(), v.end(), -2000);
  const cl::Buffer buf = rdx_test::buffer(ctx(), v.size() * 4, v.data());
  for (const std::uint64_t offset : {1u, 2u, 7u, 13u}) {
    CAPTURE(offset);
    const std::uint64_t n = v.size() - offset - 3;
    const std::int64_t want =
        std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(offset),
                        v.begin() + static_cast<std::ptrdiff_t>(offset + n), std::int64_t{0});
    CHECK(rdx::reduce_buffer<std::int64_t, std::int32_t>(ctx(), BufferAt(buf, offset), n,
                                                         Op::Sum) == want);
  }
}

TEST_CASE("offsets: partials, async, segments and axes") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Guarded d(9, 600, nan, 13);
  const BufferAt at(d.buffer, d.offset);
  const float* x = d.range();
  const float max = *std::max_element(x, x + d.n);
  // reduce_partial and finish.
  CHECK(rdx::finish(rdx::reduce_partial(ctx(), Type::F32, at, d.n, Op::Max)).value.as<float>() ==
        max);
  // reduce_async.
  CHECK(rdx::reduce_async(ctx(), Type::F32, at, d.n, Op::Max).get().value.as<float>() == max);
  // enqueue_reduce: the result into a device buffer, on the device.
  {
    const cl::Buffer out = rdx_test::buffer(ctx(), sizeof(float));
    cl::Event e = rdx::enqueue_reduce(ctx(), Type::F32, at, d.n, Op::Max, out, 0);
    float got = 0;
    REQUIRE(ctx().queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof got, &got) == CL_SUCCESS);
    CHECK(got == max);
  }
  // Segments by offsets count from the buffer's offset.
  const std::vector<std::uint64_t> cuts = {0, 100, 101, 600};
  const rdx::SegmentedResult seg = rdx::reduce_segments(ctx(), Type::F32, at, d.n, cuts, Op::Max);
  REQUIRE(seg.size() == 3);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK(seg.value(k).as<float>() == *std::max_element(x + cuts[k], x + cuts[k + 1]));
  // The same with the offsets on the device (checked there against n), and exact per segment.
  const cl::Buffer cut_buf = rdx_test::buffer(ctx(), cuts.size() * 8, cuts.data());
  const cl::Buffer values = rdx_test::buffer(ctx(), 3 * sizeof(float));
  rdx::reduce_segments_into(ctx(), Type::F32, at, d.n, cut_buf, 3, Op::Max, values);
  std::vector<float> got(3);
  REQUIRE(ctx().queue().enqueueReadBuffer(values, CL_TRUE, 0, 12, got.data()) == CL_SUCCESS);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK(got[k] == seg.value(k).as<float>());
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  const rdx::SegmentedResult sums =
      rdx::reduce_segments(ctx(), Type::F32, at, d.n, cuts, Op::Sum, exact);
  const rdx::SegmentedResult host_sums =
      rdx::reduce_segments(ctx(), Type::F32, x, d.n, cuts, Op::Sum, exact);
  REQUIRE(sums.size() == 3);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK(sums.value(k).bits == host_sums.value(k).bits);
  // reduce_axis: 20 rows of 30 from the offset on, along the rows, with argmax's index.
  const std::uint64_t shape[] = {20, 30};
  const rdx::SegmentedResult rows = rdx::reduce_axis(ctx(), Type::F32, at, shape, 1, Op::ArgMax);
  REQUIRE(rows.size() == 20);
  for (std::uint64_t r = 0; r < 20; ++r) {
    const float* row = x + r * 30;
    CHECK(rows.indices[r] == static_cast<std::uint64_t>(std::max_element(row, row + 30) - row));
  }
}

TEST_CASE("offsets: users' reductions read each input from its own offset") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Guarded a(3, 2000, nan, 21), b(17, 2000, nan, 22);
  double want = 0;
  for (std::uint64_t i = 0; i < a.n; ++i)
    want += double(a.range()[i]) * b.range()[i];
  const rdx::DeviceArray in[] = {{Type::F32, a.buffer, a.offset}, {Type::F32, b.buffer, b.offset}};
  for (const char* strategy : {"auto", "localtree"}) {
    CAPTURE(strategy);
    rdx::Options o;
    o.strategy = strategy;
    const rdx::StatResult r = rdx::reduce(ctx(), rdx::Stat::Dot, in, a.n, o);
    CHECK(r.value.as<float>() == doctest::Approx(want).epsilon(1e-5));
  }
  // Exact dot: the host copies' bits.
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  const rdx::Array host[] = {rdx::Array::of<float>(std::span<const float>(a.range(), a.n)),
                             rdx::Array::of<float>(std::span<const float>(b.range(), b.n))};
  CHECK(rdx::reduce(ctx(), rdx::Stat::Dot, in, a.n, exact).value.as<float>() ==
        rdx::reduce(ctx(), rdx::Stat::Dot, host, a.n, exact).value.as<float>());
}

TEST_CASE("offsets: a range past the buffer's end is refused before any work") {
  Guarded d(0, 100, 0.0f, 31);  // 109 elements
  CHECK_NOTHROW(rdx::reduce(ctx(), Type::F32, BufferAt(d.buffer, 9), 100, Op::Sum));
  CHECK_THROWS_AS(rdx::reduce(ctx(), Type::F32, BufferAt(d.buffer, 10), 100, Op::Sum),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::reduce(ctx(), Type::F32, BufferAt(d.buffer, ~std::uint64_t{0}), 2, Op::Sum),
                  rdx::ArgumentError);
  const rdx::DeviceArray in[] = {{Type::F32, d.buffer, 50}};
  CHECK_THROWS_AS(rdx::reduce(ctx(), rdx::Stat::Count, in, 60), rdx::ArgumentError);
}

TEST_CASE("offsets: an offset past the end is refused even when n is 0; at the end it is empty") {
  std::vector<float> v(1000, 1.0f);
  const cl::Buffer buf = rdx_test::buffer(ctx(), v.size() * sizeof(float), v.data());
  const BufferAt end(buf, 1000), past(buf, 1001);
  // At the end: an empty input there (NumPy's a[1000:]), the identity.
  CHECK(rdx::reduce_buffer<float>(ctx(), end, 0, Op::Sum) == 0.0f);
  CHECK(rdx::reduce_segments(ctx(), Type::F32, end, 0, std::vector<std::uint64_t>{0, 0}, Op::Max)
            .size() == 1);
  // One element further: an ArgumentError from every entry point, before any work.
  const auto refused = [](auto&& call) { CHECK_THROWS_AS(call(), rdx::ArgumentError); };
  refused([&] { return rdx::reduce_buffer<float>(ctx(), past, 0, Op::Sum); });
  refused([&] { return rdx::reduce_index_buffer<float>(ctx(), past, 0, Op::ArgMin); });
  refused([&] { return rdx::reduce_async(ctx(), Type::F32, past, 0, Op::Max).get(); });
  refused([&] { return rdx::reduce_partial(ctx(), Type::F32, past, 0, Op::Sum); });
  refused([&] {
    const cl::Buffer out = rdx_test::buffer(ctx(), sizeof(float));
    return rdx::enqueue_reduce(ctx(), Type::F32, past, 0, Op::Sum, out, 0);
  });
  refused([&] {
    return rdx::reduce_segments(ctx(), Type::F32, past, 0, std::vector<std::uint64_t>{0, 0},
                                Op::Sum);
  });
  refused([&] {
    const std::uint64_t shape[] = {0, 3};
    return rdx::reduce_axis(ctx(), Type::F32, past, shape, 1, Op::Sum);
  });
  const rdx::DeviceArray in_past[] = {{Type::F32, buf, 1001}};
  refused([&] { return rdx::reduce(ctx(), rdx::Stat::Count, in_past, 0); });
  refused([&] {
    return rdx::reduce(ctx(), rdx::Reduction::transform(Op::Sum, Type::F32, "x"), in_past, 0);
  });
  // The message names the offset and the buffer's end.
  CHECK_THROWS_WITH_AS(rdx::reduce_buffer<float>(ctx(), past, 0, Op::Sum),
                       doctest::Contains("element offset 1001 is past the end"),
                       rdx::ArgumentError);
  const rdx::DeviceArray in_end[] = {{Type::F32, buf, 1000}};
  CHECK_NOTHROW(rdx::reduce(ctx(), rdx::Stat::Count, in_end, 0));
}
