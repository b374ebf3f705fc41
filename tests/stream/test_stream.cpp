// rdx::Stream on a real device (PoCL by default) against the host reference: many uneven chunks
// through tiny slots, every operator, argmin/argmax across chunks, float sums within the bound,
// empty streams, the caller's memory, and failures that leave the context usable.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "rdx/rdx.hpp"
#include "rdx/stream.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

using namespace rdx;

namespace {

using rdx_test::device;
using rdx_test::KernelDirCopy;

// Push sizes that cycle through 0, 1, slot - 1, slot, slot + 1, several slots and small odd ones.
std::vector<std::uint64_t> uneven_pushes(std::uint64_t n, std::uint64_t slot) {
  const std::uint64_t pattern[] = {0, 1, slot - 1, 7, slot, 0, slot + 1, 3 * slot + 5, 2, 33};
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t done = 0, i = 0; done < n; ++i) {
    const std::uint64_t m = std::min(pattern[i % std::size(pattern)], n - done);
    sizes.push_back(m);
    done += m;
  }
  return sizes;
}

// Streams `data` (n elements of type) in uneven pushes through slots of `slot` elements.
Result stream_reduce(Context& ctx, Type type, Op op, const void* data, std::uint64_t n,
                     std::uint64_t slot, const Options& opts = {}) {
  Stream s(ctx, type, op, opts, slot * size_of(type));
  REQUIRE(s.slot_elements() == slot);
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::uint64_t m : uneven_pushes(n, slot)) {
    s.push(m ? p : nullptr, m);
    p += m * size_of(type);
  }
  CHECK(s.count() == n);
  return s.finish();
}

void check_against_reference(Context& ctx, Type type, Op op, Pattern pattern, std::uint64_t n,
                             std::uint64_t slot, const Options& opts = {}) {
  const auto data = make_case_data(type, op, pattern, n, n + static_cast<unsigned>(op));
  const auto copy = data;
  const Result r = stream_reduce(ctx, type, op, data.data(), n, slot, opts);
  const Type acc = opts.acc.value_or(type);
  const Reference ref = reference_reduce(type, acc, op, data.data(), n);
  CAPTURE(r.plan.describe());
  CAPTURE(name(pattern));
  CHECK(check_result(r.plan, r.value, r.index, ref) == "");
  CHECK(r.plan.n == n);
  CHECK(data == copy);  // the caller's memory is never modified
}

}  // namespace

TEST_CASE("stream: every type and operator, uneven pushes through tiny slots") {
  Context ctx(device());
  const bool fp64 = ctx.device_info().fp64;
  for (Type type : {Type::I8, Type::U8, Type::I32, Type::U64, Type::F32, Type::F64}) {
    if (type == Type::F64 && !fp64) continue;
    for (Op op : kAllOps) {
      if (!op_allows(op, type)) continue;
      for (Pattern pattern : {Pattern::Random, Pattern::Small})
        check_against_reference(ctx, type, op, pattern, 4099, 97);
    }
  }
}

TEST_CASE("stream: wider accumulators and explicit strategies") {
  Context ctx(device());
  Options wide;
  wide.acc = Type::I64;
  check_against_reference(ctx, Type::I32, Op::Sum, Pattern::Random, 5003, 128, wide);
  wide.acc = Type::U32;
  check_against_reference(ctx, Type::U8, Op::Sum, Pattern::Random, 5003, 61, wide);
  if (ctx.device_info().fp64) {
    wide.acc = Type::F64;
    check_against_reference(ctx, Type::F32, Op::Sum, Pattern::Random, 5003, 128, wide);
  }
  for (const char* strategy : {"localtree", "bottomup", "fast_strided"}) {
    Options o;
    o.strategy = strategy;
    check_against_reference(ctx, Type::I32, Op::ArgMax, Pattern::Small, 3001, 200, o);
    check_against_reference(ctx, Type::F32, Op::Sum, Pattern::Random, 3001, 200, o);
  }
}

TEST_CASE("stream: float sums over many chunks stay within (depth + 1) * eps * sum|x|") {
  Context ctx(device());
  const std::uint64_t n = 300007;
  for (Type type : {Type::F32, Type::F64}) {
    if (type == Type::F64 && !ctx.device_info().fp64) continue;
    // Mixed signs and magnitudes: cancellation makes the bound bite.
    std::vector<unsigned char> data(n * size_of(type));
    for (std::uint64_t i = 0; i < n; ++i) {
      const double v = std::ldexp((i % 2 ? -1.0 : 1.0) * (1.0 + (i * 7919 % 1000) / 997.0),
                                  static_cast<int>(i % 23) - 11);
      if (type == Type::F32) {
        const float f = static_cast<float>(v);
        std::memcpy(data.data() + i * 4, &f, 4);
      } else {
        std::memcpy(data.data() + i * 8, &v, 8);
      }
    }
    for (std::uint64_t slot : {std::uint64_t{1000}, std::uint64_t{4096}, n}) {
      const Result r = stream_reduce(ctx, type, Op::Sum, data.data(), n, slot);
      const Reference ref = reference_reduce(type, type, Op::Sum, data.data(), n);
      CAPTURE(r.plan.describe());
      CAPTURE(slot);
      CHECK(check_result(r.plan, r.value, r.index, ref) == "");
      // Compensation keeps the combine from growing the bound with the number of chunks.
      const Plan one = make_plan(ctx.device_info(), type, Op::Sum, slot, {});
      CHECK(r.plan.depth <= one.depth + 1);
    }
    check_against_reference(ctx, type, Op::Prod, Pattern::Random, 3001, 100);
  }
  // inf and NaN in separate chunks: +inf + -inf is NaN, NaN propagates, inf stays inf.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v(1000, 1.0f);
  v[10] = inf;
  CHECK(
      std::isinf(stream_reduce(ctx, Type::F32, Op::Sum, v.data(), v.size(), 64).value.as<float>()));
  v[900] = -inf;
  CHECK(
      std::isnan(stream_reduce(ctx, Type::F32, Op::Sum, v.data(), v.size(), 64).value.as<float>()));
}

TEST_CASE(
    "stream: argmin/argmax find the extreme in a later chunk; ties across chunks keep the first") {
  Context ctx(device());
  std::vector<std::int32_t> v(10000, 5);
  v[7001] = -7;  // the minimum, twice, in different chunks of 100
  v[9502] = -7;
  v[2500] = 9;  // the maximum, twice in one chunk and once in a later one
  v[2501] = 9;
  v[8000] = 9;
  v[0] = 6;
  Result mn = stream_reduce(ctx, Type::I32, Op::ArgMin, v.data(), v.size(), 100);
  CHECK(mn.value.as<std::int32_t>() == -7);
  CHECK(mn.index == 7001u);
  Result mx = stream_reduce(ctx, Type::I32, Op::ArgMax, v.data(), v.size(), 100);
  CHECK(mx.value.as<std::int32_t>() == 9);
  CHECK(mx.index == 2500u);
  // A tie split exactly at a slot boundary: elements 99 and 100 are in different chunks.
  std::vector<std::uint8_t> t(300, 1);
  t[99] = t[100] = 0;
  CHECK(stream_reduce(ctx, Type::U8, Op::ArgMin, t.data(), t.size(), 100).index == 99u);

  // Floats, nanargmin/nanargmax: NaN is ignored (everything NaN: no index, an ArgumentError as
  // NumPy raises, though the first chunks alone were all NaN); argmin/argmax: the first NaN.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> f(1000, 2.0f);
  for (std::size_t i = 0; i < 300; ++i)
    f[i] = nan;  // the first chunks hold only NaN
  f[640] = -1.0f;
  f[720] = -1.0f;
  mn = stream_reduce(ctx, Type::F32, Op::NanArgMin, f.data(), f.size(), 64);
  CHECK(mn.value.as<float>() == -1.0f);
  CHECK(mn.index == 640u);
  f[0] = 5.0f;  // the first NaN is now in the first chunk's second element
  mn = stream_reduce(ctx, Type::F32, Op::ArgMin, f.data(), f.size(), 64);
  CHECK(std::isnan(mn.value.as<float>()));
  CHECK(mn.index == 1u);
  std::vector<float> all_nan(500, nan);
  CHECK_THROWS_AS(stream_reduce(ctx, Type::F32, Op::NanArgMax, all_nan.data(), all_nan.size(), 64),
                  ArgumentError);
}

TEST_CASE("stream: float products across chunks: a zero absorbs an overflow, not an input inf") {
  Context ctx(device());
  const float inf = std::numeric_limits<float>::infinity();
  // One chunk holds the zero, later ones overflow (or hold an input infinity) by themselves.
  auto product = [&](const std::vector<float>& v) {
    Stream s(ctx, Type::F32, Op::Prod, {}, 4 * 64);
    s.push(std::span<const float>(v));
    return s.finish().value.as<float>();
  };
  std::vector<float> v(1000, 1e30f);
  v[3] = 0.0f;
  CHECK(product(v) == 0.0f);
  v[900] = -inf;
  CHECK(std::isnan(product(v)));
  v[3] = 2.0f;
  CHECK(product(v) == -inf);
}

TEST_CASE("stream: empty streams, n = 0 pushes, misuse") {
  Context ctx(device());
  {
    Stream s(ctx, Type::I32, Op::Sum);
    s.push(nullptr, 0);
    CHECK(s.count() == 0);
    const Result r = s.finish();
    CHECK(r.value.as<std::int32_t>() == 0);
    CHECK(!r.index);
    CHECK_THROWS_AS(s.finish(), ArgumentError);  // only once
    CHECK_THROWS_AS(s.push(nullptr, 0), ArgumentError);
  }
  {
    Stream s(ctx, Type::F32, Op::Min);
    CHECK(std::isinf(s.finish().value.as<float>()));
  }
  {
    Stream s(ctx, Type::U16, Op::And);
    CHECK(s.finish().value.as<std::uint16_t>() == 0xffff);
  }
  {
    Stream s(ctx, Type::I32, Op::ArgMin);
    s.push(nullptr, 0);
    CHECK_THROWS_AS(s.finish(), ArgumentError);
  }
  Stream s(ctx, Type::I32, Op::Sum, {}, 64);
  CHECK_THROWS_AS(s.push(nullptr, 3), ArgumentError);
  std::vector<float> f(4, 1.0f);
  CHECK_THROWS_AS(s.push(std::span<const float>(f)), ArgumentError);  // wrong element type
  CHECK_THROWS_AS(Stream(ctx, Type::F32, Op::Xor), ArgumentError);
  Options bad;
  bad.strategy = "no-such-strategy";
  CHECK_THROWS_AS(Stream(ctx, Type::I32, Op::Sum, bad), ArgumentError);
}

TEST_CASE("stream: slot sizes, the typed push, and the caller's buffer reused at once") {
  Context ctx(device());
  const auto& dev = ctx.device_info();
  CHECK(Stream(ctx, Type::I32, Op::Sum, {}, 1).slot_elements() == 1);
  CHECK(Stream(ctx, Type::F64, Op::Max, {}, 20).slot_elements() == 2);
  CHECK(Stream(ctx, Type::U8, Op::Sum, {}, ~std::uint64_t{0}).slot_elements() == dev.max_alloc);
  CHECK(Stream(ctx, Type::U8, Op::Sum).slot_elements() ==
        std::min(Stream::kDefaultSlotBytes, dev.max_alloc));

  // One host buffer refilled after every push: push() must have copied it before returning.
  Stream s(ctx, Type::I64, Op::Sum, {}, 8 * 50);
  std::vector<std::int64_t> buf(37);
  std::int64_t want = 0;
  for (std::int64_t round = 0; round < 40; ++round) {
    for (std::size_t i = 0; i < buf.size(); ++i)
      want += buf[i] = round * 1000 + static_cast<std::int64_t>(i);
    s.push(std::span<const std::int64_t>(buf));
    std::fill(buf.begin(), buf.end(), -999999);
  }
  CHECK(s.count() == 40 * 37);
  CHECK(s.finish().value.as<std::int64_t>() == want);

  // Single-element slots: every element is its own chunk.
  std::vector<std::uint32_t> u(300);
  for (std::size_t i = 0; i < u.size(); ++i)
    u[i] = static_cast<std::uint32_t>(i * 2654435761u);
  Stream one(ctx, Type::U32, Op::Xor, {}, 4);
  one.push(std::span<const std::uint32_t>(u));
  std::uint32_t x = 0;
  for (auto e : u)
    x ^= e;
  CHECK(one.finish().value.as<std::uint32_t>() == x);

  // Options::profile sums the chunks' device time.
  Options prof;
  prof.profile = true;
  std::vector<std::int32_t> w(5000, 3);
  const Result r = stream_reduce(ctx, Type::I32, Op::Sum, w.data(), w.size(), 1000, prof);
  CHECK(r.value.as<std::int32_t>() == 15000);
  CHECK(r.device_seconds > 0);
}

TEST_CASE(
    "stream: a failure inside the stream reaches push() or finish(); the context stays usable") {
  Context ctx(device());
  std::vector<std::int32_t> v(20000, 1);
  Options o;
  o.strategy = "localtree";
  {
    KernelDirCopy k;
    k.replace("seeds/localtree.cl", "halving_tree(sh, lid);", "halving_tree(sh, lid) +;");
    Stream s(ctx, Type::I32, Op::Sum, o, 4 * 500);
    bool thrown = false;
    try {
      // The worker's first chunk fails to build: a later push (or finish) reports it.
      for (std::size_t i = 0; i < v.size(); i += 700)
        s.push(v.data() + i, std::min<std::size_t>(700, v.size() - i));
      s.finish();
    } catch (const BuildError& e) {
      thrown = true;
      CHECK(e.file == "seeds/localtree.cl");
    }
    CHECK(thrown);
    CHECK_THROWS_AS(s.push(v.data(), 10), BuildError);  // the stream stays failed
    CHECK_THROWS_AS(s.finish(), BuildError);
  }
  // The same context, the same strategy, now from the embedded sources: both paths work.
  CHECK(reduce(ctx, std::span<const std::int32_t>(v), Op::Sum, o) == 20000);
  CHECK(stream_reduce(ctx, Type::I32, Op::Sum, v.data(), v.size(), 999, o).value.as<int>() ==
        20000);

  // A stream dropped with chunks queued and in flight, without finish(): the destructor waits.
  {
    Stream s(ctx, Type::I32, Op::Sum, {}, 4 * 1000);
    for (int i = 0; i < 10; ++i)
      s.push(v.data(), v.size());
  }
  // A failed request fails in the constructor, before any device work.
  Options wg;
  wg.work_group_size = 3;
  CHECK_THROWS_AS(Stream(ctx, Type::I32, Op::Sum, wg), ArgumentError);
  CHECK(reduce(ctx, std::span<const std::int32_t>(v), Op::Max) == 1);
}
