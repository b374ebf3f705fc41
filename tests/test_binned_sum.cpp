// The fixed-bin sum of rdx::Determinism AnyDevice (cl/binned_sum.cl). Every result is checked
// against the host's sequential form (ops/binned_sum.cpp: one element at a time, in order, each
// deposit renormed), bit for bit, whatever the work-group size, grid, layout, host chunks,
// stream slots, partial splits, byte forms, device buffers and enqueued form; and against the
// exact sum (GMP) within ReproBLAS's bound (Plan::depth); NaN, the infinities and signed zeros
// follow the exact sum's rules.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "coverage.hpp"
#include "exact_reference.hpp"
#include "ops/binned_sum.hpp"
#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

using rdx_test::ctx;
using rdx_test::Exact;
using rdx_test::exact_sum;
using rdx_test::fp64;
using rdx_test::hard_cases;

std::uint64_t bits(const rdx::Scalar& s) {
  return s.bits;
}

// The host's sequential fixed-bin sum of x into A (F32 or F64), elements taken in order.
template <class A, class T>
rdx::Scalar sequential(const std::vector<T>& x) {
  const rdx::Type acc = rdx::type_of<A>();
  rdx::detail::BinnedSum s = rdx::detail::binned_zero(rdx::detail::binned_bin_type(acc));
  for (T v : x)
    rdx::detail::deposit_binned(s, static_cast<double>(static_cast<A>(v)));
  return rdx::detail::round_exact(rdx::detail::binned_exact(s), s.bin, acc, x.size());
}

template <class T>
rdx::Options any_device(rdx::Type acc) {
  rdx::Options o;
  o.determinism = rdx::Determinism::AnyDevice;
  o.acc = acc;
  return o;
}

// |r - exact| <= depth * epsilon(A) * sum|x| + n * 2^binned_lowest_bit for finite results of
// finite elements.
template <class A, class T>
void check_bound(const std::vector<T>& x, const rdx::Result& r) {
  const A v = r.value.as<A>();
  if (!std::isfinite(v)) return;  // overflow and specials: the bits above decide
  Exact s, abs_sum;
  exact_sum(s.z, x);
  std::vector<double> mag;
  for (T e : x)
    mag.push_back(std::fabs(static_cast<double>(e)));
  exact_sum(abs_sum.z, mag);
  mpz_t d, bound;
  mpz_inits(d, bound, nullptr);
  rdx_test::distance(d, s.z, static_cast<double>(v));
  // bound = abs_sum * depth * 2^(1 - digits(A))
  mpz_mul_ui(bound, abs_sum.z, static_cast<unsigned long>(r.plan.depth));
  mpz_fdiv_q_2exp(bound, bound, std::numeric_limits<A>::digits - 1);
  mpz_t floor;
  mpz_init(floor);
  rdx_test::add_scaled(
      floor, std::ldexp(1.0, rdx::detail::binned_lowest_bit(rdx::type_of<A>())) * double(x.size()));
  mpz_add(bound, bound, floor);
  mpz_clear(floor);
  CHECK(mpz_cmp(d, bound) <= 0);
  mpz_clears(d, bound, nullptr);
}

// Every case of hard_cases: the default plan, a grid stride with work-groups of 16, 2 lanes and
// one vector loaded at a time, its groups' states merged on the host, one of 16 lanes loading 8
// at a time, one loading 4 at a time (the GPUs' default; CPUs: the blocks are the default), blocks
// merged by binned_finish, host chunks and a device buffer at an element offset: the sequential
// form's bits. Without `with_variants` (the quick tier's f64 pairs) the default plan and the device
// buffer alone: each variant is a program of its own for each pair.
template <class T, class A>
void check_cases(bool with_variants = true) {
  const rdx::Type acc = rdx::type_of<A>();
  for (const auto& c : hard_cases<T>(11)) {
    const std::string& label = c.first;
    const std::vector<T>& x = c.second;
    INFO(label << " " << rdx::name(rdx::type_of<T>()) << " into " << rdx::name(acc));
    const rdx::Scalar want = sequential<A>(x);
    const rdx::Options o = any_device<T>(acc);
    const rdx::Result r =
        rdx::reduce(ctx(), rdx::type_of<T>(), x.data(), x.size(), rdx::Op::Sum, o);
    CHECK(r.plan.strategy == "binned_sum");
    CHECK(bits(r.value) == bits(want));
    check_bound<A>(x, r);
    rdx::Options stride = o, lanes = o, unroll = o, blocked = o, chunks = o;
    stride.work_group_size = std::min<std::size_t>(16, ctx().device_info().max_work_group);
    stride.tuning.set("blocked", 0)
        .set("groups", 5)
        .set("lanes", 2)
        .set("unroll", 1)
        .set("host_finish", 1);
    lanes.tuning.set("blocked", 0).set("lanes", 16).set("unroll", 8);
    // 4 vectors of 4 loaded at a time: whole rounds of the grid, then the rest vector by vector.
    unroll.work_group_size = stride.work_group_size;
    unroll.tuning.set("blocked", 0).set("groups", 2).set("lanes", 4).set("unroll", 4);
    blocked.tuning.set("blocked", 1).set("groups", 3).set("host_finish", 0);
    chunks.tuning.set("chunk", 4099);
    const std::pair<std::string, const rdx::Options*> variants[] = {{"stride", &stride},
                                                                    {"lanes", &lanes},
                                                                    {"unroll", &unroll},
                                                                    {"blocked", &blocked},
                                                                    {"chunks", &chunks}};
    for (const auto& variant : std::span(variants, with_variants ? std::size(variants) : 0)) {
      const std::string& variant_name = variant.first;  // INFO captures it (clang 14)
      INFO("variant " << variant_name);
      CHECK(bits(rdx::reduce(ctx(), rdx::type_of<T>(), x.data(), x.size(), rdx::Op::Sum,
                             *variant.second)
                     .value) == bits(want));
    }
    // A device buffer, the elements from offset 3 on.
    std::vector<T> padded(3, T(7));
    padded.insert(padded.end(), x.begin(), x.end());
    const cl::Buffer b = rdx_test::buffer(ctx(), padded.size() * sizeof(T), padded.data());
    CHECK(bits(rdx::reduce(ctx(), rdx::type_of<T>(), rdx::BufferAt{b, 3}, x.size(), rdx::Op::Sum, o)
                   .value) == bits(want));
  }
}

}  // namespace

TEST_CASE("binned sums: the sequential form's bits on hard data, within the bound") {
  // The quick tier: every variant on f32; f64 and f32 into f64 with the default plan
  // (api.loopvec.whole: every variant on each).
  const bool quick = rdx::test::quick_tier();
  check_cases<float, float>();
  if (fp64()) {
    check_cases<double, double>(!quick);
    check_cases<float, double>(!quick);
  }
}

TEST_CASE("binned sums: f16 and bf16 elements into f32") {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<rdx::f16> h;
  std::vector<rdx::bf16> b;
  for (int k = 0; k < 100003; ++k) {
    const double v = std::ldexp(u(g), static_cast<int>(g() % 30) - 15);
    h.push_back(static_cast<rdx::f16>(v));
    b.push_back(static_cast<rdx::bf16>(v * 1e20));
  }
  const rdx::Options o = any_device<float>(rdx::Type::F32);
  CHECK(bits(rdx::reduce(ctx(), rdx::Type::F16, h.data(), h.size(), rdx::Op::Sum, o).value) ==
        bits(sequential<float>(h)));
  CHECK(bits(rdx::reduce(ctx(), rdx::Type::BF16, b.data(), b.size(), rdx::Op::Sum, o).value) ==
        bits(sequential<float>(b)));
}

TEST_CASE("binned sums: NaN, infinities and signed zeros as the exact sum's") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const rdx::Options o = any_device<float>(rdx::Type::F32);
  const auto sum = [&](std::vector<float> x) {
    return rdx::reduce(ctx(), rdx::Type::F32, x.data(), x.size(), rdx::Op::Sum, o)
        .value.as<float>();
  };
  std::vector<float> many(1000, 1.0f);
  many[517] = nan;
  CHECK(std::isnan(sum(many)));
  many[517] = inf;
  CHECK(sum(many) == inf);
  many[3] = -inf;
  CHECK(std::isnan(sum(many)));
  many[517] = many[3] = -inf;
  CHECK(sum(many) == -inf);
  CHECK(std::signbit(sum(std::vector<float>(999, -0.0f))));
  CHECK(std::signbit(sum({-0.0f})));
  const float mixed = sum({-0.0f, 0.0f, -0.0f});
  CHECK((mixed == 0 && !std::signbit(mixed)));
  const float cancel = sum({1.5f, -1.5f});
  CHECK((cancel == 0 && !std::signbit(cancel)));
  const rdx::Result none = rdx::reduce(ctx(), rdx::Type::F32, many.data(), 0, rdx::Op::Sum, o);
  CHECK((none.value.as<float>() == 0 && !std::signbit(none.value.as<float>())));
  const float big = std::numeric_limits<float>::max();
  CHECK(sum({big, big}) == inf);  // rounded once: past the range
  CHECK(sum({big, big, -big}) == big);
}

TEST_CASE("binned sums: blocks of vectors (CPUs) with zeros first, growing magnitudes, specials") {
  // Long enough that every CPU work-item runs blocks of 4 vectors (lanes_add_block): -0 before
  // the first nonzero element, a magnitude that grows every 4096 elements (the block's slow
  // path), and NaN, infinities and a lone +0 inside blocks.
  // The first nonzero element opens the first work-item's bins at the first vector of a block
  // (5000: vector 312) or at its third (5024), so that its deposits reach ENDURANCE (512 f32
  // vectors, 2048 f64 ones) inside a block, where lanes_run leaves the pair to lanes_add_block;
  // with one work-item (groups 1) each set of lanes renorms several times.
  const std::size_t n = 100003;
  const rdx::Options o32 = any_device<float>(rdx::Type::F32);
  rdx::Options one32 = o32;
  one32.tuning.set("groups", 1);
  const rdx::Options o64 = any_device<double>(rdx::Type::F64);
  rdx::Options one64 = o64;
  one64.tuning.set("groups", 1);
  std::vector<float> x;
  for (std::size_t first : {std::size_t{5024}, std::size_t{5000}}) {
    INFO("first nonzero element " << first);
    x.assign(n, -0.0f);
    for (std::size_t k = first; k < n; ++k)
      x[k] = static_cast<float>((k % 13) + 1) * std::ldexp(1.0f, static_cast<int>(k / 4096)) *
             (k % 3 ? 1.0f : -1.0f);
    const rdx::Scalar want = sequential<float>(x);
    CHECK(bits(rdx::reduce(ctx(), rdx::Type::F32, x.data(), n, rdx::Op::Sum, o32).value) ==
          bits(want));
    CHECK(bits(rdx::reduce(ctx(), rdx::Type::F32, x.data(), n, rdx::Op::Sum, one32).value) ==
          bits(want));
    if (fp64()) {
      std::vector<double> d(x.begin(), x.end());
      // Doubles reach ENDURANCE in 2048 vectors of 8 a set: the values repeated 4 times.
      for (int copy = 0; copy < 2; ++copy)
        d.insert(d.end(), d.begin(), d.end());
      const rdx::Scalar want64 = sequential<double>(d);
      CHECK(bits(rdx::reduce(ctx(), rdx::Type::F64, d.data(), d.size(), rdx::Op::Sum, o64).value) ==
            bits(want64));
      CHECK(
          bits(rdx::reduce(ctx(), rdx::Type::F64, d.data(), d.size(), rdx::Op::Sum, one64).value) ==
          bits(want64));
    }
  }
  // Past leading zeros, every element the largest magnitude of its bins (just below 0.25 =
  // 2^(255 - 13 * 10 - 127) for f32, index 10; just below 2^24 for f64, index 25): each deposit
  // adds nearly the most that a primary takes, so a renorm missed or late at ENDURANCE deposits
  // changes the bits. One work-item (groups 1); the first nonzero element in the second block of
  // a pair (pairs of 128 f32 or 64 f64 elements), at its first vector (f32 5056, f64 5088: the
  // second set of lanes a block ahead of the first) or its third (f32 5088, f64 5104: the
  // deposits counted from there are not a multiple of the block's 4).
  for (const auto& first : {std::pair<std::size_t, std::size_t>{5056, 5088}, {5088, 5104}}) {
    const std::size_t first32 = first.first, first64 = first.second;  // INFO captures them
    INFO("first nonzero element: f32 " << first32 << ", f64 " << first64);
    std::vector<float> top(n, std::nextafter(0.25f, 0.0f));
    std::fill(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(first32), 0.0f);
    CHECK(bits(rdx::reduce(ctx(), rdx::Type::F32, top.data(), n, rdx::Op::Sum, one32).value) ==
          bits(sequential<float>(top)));
    if (fp64()) {
      std::vector<double> top64(4 * n, std::nextafter(0x1p24, 0.0));
      std::fill(top64.begin(), top64.begin() + static_cast<std::ptrdiff_t>(first64), 0.0);
      CHECK(bits(rdx::reduce(ctx(), rdx::Type::F64, top64.data(), top64.size(), rdx::Op::Sum, one64)
                     .value) == bits(sequential<double>(top64)));
    }
  }
  const auto sum = [&](const std::vector<float>& v) {
    return rdx::reduce(ctx(), rdx::Type::F32, v.data(), v.size(), rdx::Op::Sum, o32)
        .value.as<float>();
  };
  std::vector<float> zeros(n, -0.0f);
  CHECK(std::signbit(sum(zeros)));
  zeros[77777] = 0.0f;
  const float plus = sum(zeros);
  CHECK((plus == 0 && !std::signbit(plus)));
  std::vector<float> special = x;
  special[40000] = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(sum(special)));
  special = x;
  special[64001] = std::numeric_limits<float>::infinity();
  CHECK(sum(special) == std::numeric_limits<float>::infinity());
}

TEST_CASE("binned sums: streams, partials, byte forms and the enqueued form agree") {
  std::mt19937_64 g(21);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<float> x(300007);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(std::ldexp(u(g), static_cast<int>(i / 997 % 50) - 25));
  const rdx::Scalar want = sequential<float>(x);
  const rdx::Options o = any_device<float>(rdx::Type::F32);
  for (std::uint64_t slot : {1000, 65536}) {
    INFO("stream slot " << slot);
    rdx::Stream s(ctx(), rdx::Type::F32, rdx::Op::Sum, o, slot * 4);
    rdx_test::push_in_pieces(s, x);
    const rdx::Result r = s.finish();
    CHECK(r.plan.strategy == "binned_sum");
    CHECK(bits(r.value) == bits(want));
  }
  // Partials of uneven splits, combined in order, through their bytes.
  for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, x.size() / 3}) {
    INFO("cut " << cut);
    const rdx::Partial a =
        rdx::reduce_partial(ctx(), rdx::Type::F32, x.data(), cut, rdx::Op::Sum, o);
    const rdx::Partial b =
        rdx::reduce_partial(ctx(), rdx::Type::F32, x.data() + cut, x.size() - cut, rdx::Op::Sum, o);
    CHECK(b.binned());
    CHECK_FALSE(b.exact());
    const rdx::Partial ab = rdx::combine(rdx::Partial::from_bytes(a.to_bytes()),
                                         rdx::Partial::from_bytes(b.to_bytes()));
    const rdx::Result whole = rdx::finish(ab);
    CHECK(bits(whole.value) == bits(want));
    CHECK(whole.plan.depth == rdx::detail::binned_depth(rdx::Type::F32, x.size()));
    CHECK(rdx::Partial::from_bytes(ab.to_bytes()).to_bytes() == ab.to_bytes());
  }
  // Malformed bytes: a primary outside its bin, carries beyond the count, another form's state.
  const rdx::Partial p = rdx::reduce_partial(ctx(), rdx::Type::F32, x.data(), 100, rdx::Op::Sum, o);
  std::vector<unsigned char> bytes = p.to_bytes();
  std::vector<unsigned char> bad = bytes;
  bad[48 + 2] ^= 0x80;  // primary 0's exponent
  CHECK_THROWS_AS(rdx::Partial::from_bytes(bad), rdx::ArgumentError);
  bad = bytes;
  bad[48 + 3 * 8 + 7] = 0x10;  // carry 0, far beyond 100 elements
  CHECK_THROWS_AS(rdx::Partial::from_bytes(bad), rdx::ArgumentError);
  rdx::Options exact = o;
  exact.determinism = rdx::Determinism::Exact;
  const rdx::Partial e =
      rdx::reduce_partial(ctx(), rdx::Type::F32, x.data(), 100, rdx::Op::Sum, exact);
  CHECK_THROWS_AS(rdx::combine(p, e), rdx::ArgumentError);
  // enqueue_reduce rounds the same state on the device.
  const cl::Buffer in = rdx_test::buffer(ctx(), x.size() * 4, x.data());
  const cl::Buffer out = rdx_test::buffer(ctx(), 8);
  rdx::enqueue_reduce(ctx(), rdx::Type::F32, in, x.size(), rdx::Op::Sum, out, 4, {}, o).wait();
  float got = 0;
  REQUIRE(ctx().queue().enqueueReadBuffer(out, CL_TRUE, 4, 4, &got) == CL_SUCCESS);
  CHECK(rdx::Scalar::of(got).bits == bits(want));
  if (fp64()) {
    const rdx::Options wide = any_device<float>(rdx::Type::F64);
    rdx::enqueue_reduce(ctx(), rdx::Type::F32, in, x.size(), rdx::Op::Sum, out, 0, {}, wide).wait();
    double got64 = 0;
    REQUIRE(ctx().queue().enqueueReadBuffer(out, CL_TRUE, 0, 8, &got64) == CL_SUCCESS);
    CHECK(rdx::Scalar::of(got64).bits == bits(sequential<double>(x)));
  }
}
