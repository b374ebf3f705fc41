// Partial states (rdx/partial.hpp): runs of an input reduced apart and combined in order give what
// one reduction gives (integers, extremes, argmin/argmax's first index counted from the first run,
// float sums under AnyDevice and Exact bit for bit), through their byte form too; and what is
// refused. The reference is the host's own loop; the exact sums' is the one-call reduction,
// whose bits test_exact_sum.cpp checks against GMP.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "rdx/rdx.hpp"
#include "test_support.hpp"

namespace {

rdx::Context& ctx() {
  static rdx::Context c(rdx_test::device());
  return c;
}

// The input cut at `cuts` (ascending, empty runs allowed), each run reduced apart, the states
// sent through their byte form and combined left to right.
template <class T>
rdx::Result in_runs(const std::vector<T>& x, const std::vector<std::size_t>& cuts, rdx::Op op,
                    const rdx::Options& o = {}) {
  std::vector<std::size_t> ends = cuts;
  ends.push_back(x.size());
  std::size_t first = 0;
  rdx::Partial all = rdx::reduce_partial(ctx(), rdx::type_of<T>(), nullptr, 0, op, o);
  for (std::size_t end : ends) {
    const rdx::Partial p =
        rdx::reduce_partial(ctx(), rdx::type_of<T>(), x.data() + first, end - first, op, o);
    const std::vector<unsigned char> bytes = p.to_bytes();
    CHECK(bytes.size() == all.to_bytes().size());  // one size for one request
    all = rdx::combine(all, rdx::Partial::from_bytes(bytes));
    first = end;
  }
  CHECK(all.count() == x.size());
  return rdx::finish(all);
}

const std::vector<std::vector<std::size_t>> kCuts = {
    {}, {0}, {1}, {5000, 5000}, {99, 50001, 50001, 99990}, {100003}};

// Hex digits as bytes; spaces only separate the fields for the reader.
std::vector<unsigned char> bytes_of(std::string_view hex) {
  std::vector<unsigned char> out;
  std::string pair;
  for (char c : hex) {
    if (c == ' ') continue;
    pair += c;
    if (pair.size() == 2) {
      out.push_back(static_cast<unsigned char>(std::stoi(pair, nullptr, 16)));
      pair.clear();
    }
  }
  REQUIRE(pair.empty());
  return out;
}

// Bytes as hex, so that a failed comparison shows where the bytes differ.
std::string hex_of(const std::vector<unsigned char>& b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : b) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

// p's bytes are `golden`, and `golden` read back is p's state: the same request, count and
// result, and the same bytes again.
rdx::Partial golden_both_ways(const rdx::Partial& p, std::string_view golden) {
  const std::vector<unsigned char> want = bytes_of(golden);
  CHECK(hex_of(p.to_bytes()) == hex_of(want));
  const rdx::Partial q = rdx::Partial::from_bytes(want);
  CHECK(q.type() == p.type());
  CHECK(q.acc() == p.acc());
  CHECK(q.op() == p.op());
  CHECK(q.exact() == p.exact());
  CHECK(q.count() == p.count());
  CHECK(hex_of(q.to_bytes()) == hex_of(want));
  if (p.count() > 0) {
    const rdx::Result a = rdx::finish(p), b = rdx::finish(q);
    CHECK(b.value.type == a.value.type);
    CHECK(b.value.bits == a.value.bits);
    CHECK(b.index == a.index);
  }
  return q;
}

}  // namespace

TEST_CASE("partial: runs combined in order give one reduction's integers and first indexes") {
  std::mt19937 gen(11);
  std::vector<std::int32_t> x(100003);
  for (auto& v : x)
    v = static_cast<std::int32_t>(gen() % 2001) - 1000;
  // Extremes repeated on both sides of the cuts: the first occurrence must win.
  x[10] = x[99995] = x[50001] = -5000;
  x[7] = x[5000] = x[99990] = 5000;
  std::int64_t sum = 0;
  std::int32_t mn = x[0], mx = x[0], xr = 0;
  for (std::int32_t v : x) {
    sum += v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    xr ^= v;
  }
  rdx::Options wide;
  wide.acc = rdx::Type::I64;
  for (const auto& cuts : kCuts) {
    INFO("cuts " << cuts.size());
    CHECK(in_runs(x, cuts, rdx::Op::Sum, wide).value.as<std::int64_t>() == sum);
    CHECK(in_runs(x, cuts, rdx::Op::Min).value.as<std::int32_t>() == mn);
    CHECK(in_runs(x, cuts, rdx::Op::Max).value.as<std::int32_t>() == mx);
    CHECK(in_runs(x, cuts, rdx::Op::Xor).value.as<std::int32_t>() == xr);
    const rdx::Result amin = in_runs(x, cuts, rdx::Op::ArgMin);
    CHECK(amin.value.as<std::int32_t>() == -5000);
    CHECK(amin.index == 10);
    const rdx::Result amax = in_runs(x, cuts, rdx::Op::ArgMax);
    CHECK(amax.value.as<std::int32_t>() == 5000);
    CHECK(amax.index == 7);
  }
}

TEST_CASE("partial: exact float sums keep one reduction's bits whatever the runs") {
  std::mt19937_64 gen(5);
  std::vector<float> f(70001);
  std::vector<double> d(70001);
  for (std::size_t k = 0; k < f.size(); ++k) {
    const double e = std::ldexp(1.0, static_cast<int>(gen() % 120) - 60);
    const double v = (static_cast<double>(gen() % 1000000) - 500000.0) * e;
    f[k] = static_cast<float>(v);
    d[k] = v;
  }
  for (rdx::Determinism level : {rdx::Determinism::AnyDevice, rdx::Determinism::Exact}) {
    rdx::Options o;
    o.determinism = level;
    const rdx::Scalar want_f =
        rdx::reduce(ctx(), rdx::Type::F32, f.data(), f.size(), rdx::Op::Sum, o).value;
    for (const auto& cuts : std::vector<std::vector<std::size_t>>{{}, {0, 3}, {35000, 35001}}) {
      const rdx::Result r = in_runs(f, cuts, rdx::Op::Sum, o);
      CHECK(r.value.bits == want_f.bits);
      const rdx::Partial back = rdx::Partial::from_bytes(
          rdx::reduce_partial(ctx(), rdx::Type::F32, f.data(), 9, rdx::Op::Sum, o).to_bytes());
      CHECK(back.exact() == (level == rdx::Determinism::Exact));
      CHECK(back.binned() == (level == rdx::Determinism::AnyDevice));
    }
    if (ctx().device_info().fp64) {
      const rdx::Scalar want_d =
          rdx::reduce(ctx(), rdx::Type::F64, d.data(), d.size(), rdx::Op::Sum, o).value;
      CHECK(in_runs(d, {1, 69999}, rdx::Op::Sum, o).value.bits == want_d.bits);
    }
  }
  // -0 only stays -0 through an empty run.
  const std::vector<float> zeros(3, -0.0f);
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  CHECK(std::signbit(in_runs(zeros, {0, 2}, rdx::Op::Sum, exact).value.as<float>()));
}

TEST_CASE("partial: a stream's state combines with a buffer's and a host run's") {
  std::vector<std::uint32_t> x(30000);
  for (std::size_t k = 0; k < x.size(); ++k)
    x[k] = static_cast<std::uint32_t>(k * 2654435761u);
  std::uint32_t want = 0;
  for (std::uint32_t v : x)
    want = std::max(want, v);
  const std::uint64_t at =
      static_cast<std::uint64_t>(std::find(x.begin(), x.end(), want) - x.begin());
  rdx::Stream s(ctx(), rdx::Type::U32, rdx::Op::ArgMax, {}, 4096);
  s.push(x.data(), 10000);
  cl::Buffer buf(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                 10000 * sizeof(std::uint32_t), x.data() + 10000);
  const rdx::Partial a = s.finish_partial();
  const rdx::Partial b = rdx::reduce_partial(ctx(), rdx::Type::U32, buf, 10000, rdx::Op::ArgMax);
  const rdx::Partial c =
      rdx::reduce_partial(ctx(), rdx::Type::U32, x.data() + 20000, 10000, rdx::Op::ArgMax);
  const rdx::Result r = rdx::finish(rdx::combine(rdx::combine(a, b), c));
  CHECK(r.value.as<std::uint32_t>() == want);
  CHECK(r.index == at);
  CHECK(r.plan.n == x.size());
}

// The byte form's specification, worked out by hand from its description in
// runtime/src/api/partial.cpp. Each literal is written field by field, little-endian:
//   "RDXP" (52445850), version 01, then type, accumulator and operator (one byte each: the rows'
//   wire codes, i8 00, u8 01, i16 02, u16 03, i32 04, u32 05, i64 06, u64 07, f32 08, f64 09;
//   sum 00, prod 01, nanmin 02, nanmax 03, and 04, or 05, xor 06, nanargmin 07, nanargmax 08,
//   min 09, max 0a, argmin 0b, argmax 0c: codes 02, 03, 07 and 08 were min ... argmax when those
//   ignored NaN, and keep that meaning);
//   exact, has an index (one byte each), 0000 reserved, flags (u32);
//   count, value bits, index (u64 each);
//   the digits' count (u32), 00000000 reserved, then the digits (i64 each).
// Bytes that another librdx reads: a failure here is a change of the format, to be undone.
TEST_CASE("partial: the byte form of fixed states, byte for byte") {
  // An i32 sum of {-7, 2, -1}: 3 elements, value -6 as an i32 (its 4 bytes only, not widened).
  const std::vector<std::int32_t> i = {-7, 2, -1};
  const rdx::Partial sum_i =
      rdx::reduce_partial(ctx(), rdx::Type::I32, i.data(), i.size(), rdx::Op::Sum);
  const rdx::Partial sum_i_read = golden_both_ways(sum_i,
                                                   "52445850 01 040400 00 00 0000 00000000"
                                                   " 0300000000000000 faffffff00000000"
                                                   " 0000000000000000 00000000 00000000");
  CHECK(rdx::finish(sum_i_read).value.as<std::int32_t>() == -6);

  // An f64 nanargmax and argmax of {1.5, -2, 7.25, 7.25, 0}: 5 elements, 7.25 = 1.8125 * 2^2
  // (exponent field 1023 + 2 = 0x401, fraction 0.8125 = 0xd / 16: bits 0x401d000000000000),
  // first at index 2; operator codes 08 and 0c.
  if (ctx().device_info().fp64) {
    const std::vector<double> d = {1.5, -2.0, 7.25, 7.25, 0.0};
    for (const auto& [op, code] : {std::pair{rdx::Op::NanArgMax, "08"}, {rdx::Op::ArgMax, "0c"}}) {
      const rdx::Partial arg_d = rdx::reduce_partial(ctx(), rdx::Type::F64, d.data(), d.size(), op);
      const rdx::Partial arg_d_read =
          golden_both_ways(arg_d, std::string("52445850 01 0909") + code +
                                      " 00 01 0000 00000000"
                                      " 0500000000000000 0000000000001d40"
                                      " 0200000000000000 00000000 00000000");
      CHECK(rdx::finish(arg_d_read).value.as<double>() == 7.25);
      CHECK(rdx::finish(arg_d_read).index == 2);
    }
  } else {
    MESSAGE("no fp64 on this device: the f64 argmax's bytes are not checked");
  }

  // An exact f32 sum of {1, 0.5, 2^32}: flags 8 (an element other than -0), no value, 11 digits,
  // digit k worth 2^(32k - 149). 2^e is bit e + 149: 1 is digit 4's bit 21 (0x200000), 0.5 its
  // bit 20 (0x100000), 2^32 digit 5's bit 21; digit 4 is 0x300000, digit 5 0x200000.
  const std::vector<float> f = {1.0f, 0.5f, 4294967296.0f};
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  const rdx::Partial sum_fx =
      rdx::reduce_partial(ctx(), rdx::Type::F32, f.data(), f.size(), rdx::Op::Sum, exact);
  const rdx::Partial sum_fx_read = golden_both_ways(sum_fx,
                                                    "52445850 01 080800 01 00 0000 08000000"
                                                    " 0300000000000000 0000000000000000"
                                                    " 0000000000000000 0b000000 00000000"
                                                    " 0000000000000000 0000000000000000"
                                                    " 0000000000000000 0000000000000000"
                                                    " 0000300000000000 0000200000000000"
                                                    " 0000000000000000 0000000000000000"
                                                    " 0000000000000000 0000000000000000"
                                                    " 0000000000000000");
  // 2^32 + 1.5 rounded to f32 (24 bits) is 2^32.
  CHECK(rdx::finish(sum_fx_read).value.as<float>() == 4294967296.0f);

  // An empty u8 argmin: no elements, so no index and no value.
  const rdx::Partial none = rdx::reduce_partial(ctx(), rdx::Type::U8, nullptr, 0, rdx::Op::ArgMin);
  golden_both_ways(none,
                   "52445850 01 01010b 00 00 0000 00000000"
                   " 0000000000000000 0000000000000000"
                   " 0000000000000000 00000000 00000000");
}

TEST_CASE("partial: what is refused") {
  const std::vector<float> f(10, 1.0f);
  const std::vector<std::int32_t> i(10, 1);
  // Float products, on every path.
  CHECK_THROWS_AS(rdx::reduce_partial(ctx(), rdx::Type::F32, f.data(), f.size(), rdx::Op::Prod),
                  rdx::UnsupportedError);
  rdx::Stream s(ctx(), rdx::Type::F32, rdx::Op::Prod);
  CHECK_THROWS_AS(s.finish_partial(), rdx::UnsupportedError);
  // States of different requests.
  const rdx::Partial sum_i = rdx::reduce_partial(ctx(), rdx::Type::I32, i.data(), 10, rdx::Op::Sum);
  const rdx::Partial max_i = rdx::reduce_partial(ctx(), rdx::Type::I32, i.data(), 10, rdx::Op::Max);
  const rdx::Partial sum_f = rdx::reduce_partial(ctx(), rdx::Type::F32, f.data(), 10, rdx::Op::Sum);
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  const rdx::Partial sum_fx =
      rdx::reduce_partial(ctx(), rdx::Type::F32, f.data(), 10, rdx::Op::Sum, exact);
  CHECK_THROWS_AS(rdx::combine(sum_i, max_i), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::combine(sum_i, sum_f), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::combine(sum_f, sum_fx), rdx::ArgumentError);
  CHECK(rdx::finish(rdx::combine(sum_fx, sum_fx)).value.as<float>() == 20.0f);
  // Counts that overflow.
  std::vector<unsigned char> big = sum_i.to_bytes();
  for (int k = 0; k < 8; ++k)
    big[16 + static_cast<std::size_t>(k)] = 0xff;
  CHECK_THROWS_AS(rdx::combine(sum_i, rdx::Partial::from_bytes(big)), rdx::ArgumentError);
  // Bytes that are not a state.
  std::vector<unsigned char> bytes = sum_fx.to_bytes();
  CHECK(rdx::Partial::from_bytes(bytes).count() == 10);
  CHECK_THROWS_AS(rdx::Partial::from_bytes(std::span(bytes).first(bytes.size() - 1)),
                  rdx::ArgumentError);
  std::vector<unsigned char> bad = bytes;
  bad[0] = 'X';
  CHECK_THROWS_AS(rdx::Partial::from_bytes(bad), rdx::ArgumentError);
  bad = bytes;
  bad[4] = 2;  // version
  CHECK_THROWS_AS(rdx::Partial::from_bytes(bad), rdx::ArgumentError);
  bad = bytes;
  bad[5] = 200;  // type
  CHECK_THROWS_AS(rdx::Partial::from_bytes(bad), rdx::ArgumentError);
  CHECK_THROWS_AS(rdx::Partial::from_bytes({}), rdx::ArgumentError);
  // Fields that no state of librdx has: each refused, none reaching finish().
  const auto refused = [](std::vector<unsigned char> b, std::size_t at, unsigned char v) {
    b[at] = v;
    CHECK_THROWS_AS(rdx::Partial::from_bytes(b), rdx::ArgumentError);
  };
  refused(sum_i.to_bytes(), 8, 1);   // an exact i32 sum
  refused(sum_fx.to_bytes(), 6, 0);  // an exact f32 sum into i8
  refused(sum_f.to_bytes(), 7, 1);   // a float product
  refused(sum_i.to_bytes(), 10, 1);  // a reserved byte
  refused(sum_i.to_bytes(), 12, 1);  // flags on an inexact state
  refused(sum_i.to_bytes(), 28, 1);  // value bits beyond the i32 accumulator
  const rdx::Partial arg =
      rdx::reduce_partial(ctx(), rdx::Type::I32, i.data(), 10, rdx::Op::ArgMax);
  refused(arg.to_bytes(), 32, 10);   // an index past the state's 10 elements
  refused(sum_i.to_bytes(), 32, 1);  // an index on a sum
  // argmin of nothing has no result, as rdx::reduce.
  const rdx::Partial none = rdx::reduce_partial(ctx(), rdx::Type::I32, nullptr, 0, rdx::Op::ArgMin);
  CHECK(none.count() == 0);
  CHECK_THROWS_AS(rdx::finish(rdx::combine(none, none)), rdx::ArgumentError);
  CHECK(rdx::finish(rdx::reduce_partial(ctx(), rdx::Type::I32, nullptr, 0, rdx::Op::Sum))
            .value.as<std::int32_t>() == 0);
}

TEST_CASE("partial: exact digits beyond what the count's elements can sum to are refused") {
  // A state's bytes with its count and digit k replaced (the byte form's fields, partial.cpp).
  const auto forged = [](std::vector<unsigned char> b, std::uint64_t count, std::size_t k,
                         std::int64_t digit) {
    for (std::size_t j = 0; j < 8; ++j) {
      b[16 + j] = static_cast<unsigned char>(count >> (8 * j));
      b[48 + 8 * k + j] = static_cast<unsigned char>(static_cast<std::uint64_t>(digit) >> (8 * j));
    }
    return b;
  };
  rdx::Options o;
  o.determinism = rdx::Determinism::Exact;
  o.acc = rdx::Type::F64;
  const float big = std::numeric_limits<float>::max();
  const std::vector<float> up(3, big), down(3, -big);
  for (const std::vector<float>* x : {&up, &down}) {
    // Three elements of FLT_MAX's magnitude: their sum is the most three elements can hold.
    const std::vector<unsigned char> bytes =
        rdx::reduce_partial(ctx(), rdx::Type::F32, x->data(), 3, rdx::Op::Sum, o).to_bytes();
    const rdx::Partial p = rdx::Partial::from_bytes(bytes);
    const double three = 3.0 * static_cast<double>((*x)[0]);
    CHECK(rdx::finish(p).value.as<double>() == three);
    CHECK(rdx::finish(rdx::combine(p, p)).value.as<double>() == 2 * three);
    // The same digits as a state of two elements: more than two can sum to.
    std::vector<unsigned char> two = bytes;
    two[16] = 2;
    CHECK_THROWS_AS(rdx::Partial::from_bytes(two), rdx::ArgumentError);
  }
  // Digit words near 2^63, in the top digit or below it (a carry that would overflow).
  const std::vector<float> ones(10, 1.0f);
  for (rdx::Type t : {rdx::Type::F32, rdx::Type::F64}) {
    const std::vector<double> ones64(10, 1.0);
    const void* data = t == rdx::Type::F32 ? static_cast<const void*>(ones.data()) : ones64.data();
    rdx::Options exact;
    exact.determinism = rdx::Determinism::Exact;
    const std::vector<unsigned char> bytes =
        rdx::reduce_partial(ctx(), t, data, 10, rdx::Op::Sum, exact).to_bytes();
    const std::size_t top = (bytes.size() - 48) / 8 - 1;
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max() - 5;
    CHECK_THROWS_AS(rdx::Partial::from_bytes(forged(bytes, 10, top, huge)), rdx::ArgumentError);
    CHECK_THROWS_AS(rdx::Partial::from_bytes(forged(bytes, 10, top, -huge)), rdx::ArgumentError);
    std::vector<unsigned char> carry = forged(bytes, 10, top - 1, huge);
    carry = forged(carry, 10, top - 2, huge);
    CHECK_THROWS_AS(rdx::Partial::from_bytes(carry), rdx::ArgumentError);
    // Even the most elements a state can count: their sum stays below 2^64 * 2^max_exponent.
    CHECK_THROWS_AS(rdx::Partial::from_bytes(forged(bytes, ~std::uint64_t{0}, top, huge)),
                    rdx::ArgumentError);
  }
  // The largest sums two states may hold, combined: no overflow, the sign kept. The top digit of
  // an f32 state is worth 2^(32 * 10 - 149) = 2^171.
  rdx::Options exact;
  exact.determinism = rdx::Determinism::Exact;
  exact.acc = rdx::Type::F64;
  const std::vector<unsigned char> zero =
      rdx::reduce_partial(ctx(), rdx::Type::F32, ones.data(), 0, rdx::Op::Sum, exact).to_bytes();
  REQUIRE(zero.size() == 48 + 8 * 11);
  const std::uint64_t half = std::uint64_t{1} << 63;
  for (std::int64_t sign : {1, -1}) {
    const rdx::Partial a =
        rdx::Partial::from_bytes(forged(zero, half, 10, sign * (std::int64_t{1} << 19)));
    const rdx::Partial b =
        rdx::Partial::from_bytes(forged(zero, half - 1, 10, sign * (std::int64_t{1} << 19)));
    const rdx::Result r = rdx::finish(rdx::combine(a, b));
    CHECK(r.value.as<double>() == static_cast<double>(sign) * std::ldexp(1.0, 191));
    CHECK_THROWS_AS(
        rdx::Partial::from_bytes(forged(zero, half, 10, sign * (std::int64_t{1} << 20))),
        rdx::ArgumentError);
  }
}
