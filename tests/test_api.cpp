// The public API on a real device (PoCL by default): typed entry points, accumulators, the
// documented semantics, errors, and that a failure leaves the context usable.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>

#include <unistd.h>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

using namespace rdx;

namespace {

using rdx_test::device;
using rdx_test::KernelDirCopy;
using rdx_test::read_file;

}  // namespace

TEST_CASE("typed API: the README's examples") {
  Context ctx(device());
  std::vector<float> v(1000);
  std::iota(v.begin(), v.end(), 0.0f);
  const float s = reduce(ctx, std::span<const float>(v), Op::Sum);
  CHECK(s == 499500.0f);
  std::vector<int> w = {5, -2, 9, 9, 3};
  const auto m = reduce_index(ctx, std::span<const int>(w), Op::ArgMax);
  CHECK(m.value == 9);
  CHECK(m.index == 2);
  const double d = reduce<double>(ctx, std::span<const float>(v), Op::Sum);
  CHECK(d == 499500.0);
  std::vector<std::int32_t> big(1000, 2000000000);
  CHECK(reduce<std::int64_t>(ctx, std::span<const std::int32_t>(big), Op::Sum) == 2000000000000ll);
  CHECK(reduce(ctx, std::span<const std::int32_t>(big), Op::Sum) ==
        static_cast<std::int32_t>(static_cast<std::uint32_t>(2000000000000ll & 0xffffffff)));
}

TEST_CASE("device-resident input through reduce_buffer") {
  Context ctx(device());
  std::vector<std::uint16_t> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<std::uint16_t>(i * 7919 % 4099);
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * 2, v.data(),
                 &err);
  REQUIRE(err == CL_SUCCESS);
  const auto mx = reduce_index_buffer<std::uint16_t>(ctx, buf, v.size(), Op::ArgMax);
  const auto it = std::max_element(v.begin(), v.end());
  CHECK(mx.value == *it);
  CHECK(mx.index == static_cast<std::uint64_t>(it - v.begin()));
  CHECK(reduce_buffer<std::uint16_t, std::uint64_t>(ctx, buf, v.size(), Op::Sum) ==
        std::accumulate(v.begin(), v.end(), std::uint64_t{0}));
  // A count beyond the buffer is an argument error, not a read past its end.
  CHECK_THROWS_AS(reduce_buffer<std::uint16_t>(ctx, buf, v.size() + 1, Op::Sum), ArgumentError);
  Context other(device());
  CHECK_THROWS_AS(reduce_buffer<std::uint16_t>(other, buf, v.size(), Op::Sum), ArgumentError);
}

TEST_CASE("documented semantics hold for all strategies") {
  Context ctx(device());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (auto& s : strategies()) {
    Options o;
    o.strategy = std::string(s.name);
    CAPTURE(s.name);
    try {
      std::vector<float> f(300, 1.0f);
      f[17] = nan;
      CHECK(std::isnan(reduce(ctx, std::span<const float>(f), Op::Sum, o)));
      CHECK(std::isnan(reduce(ctx, std::span<const float>(f), Op::Prod, o)));
      f[40] = -5.0f;
      f[41] = -5.0f;
      CHECK(reduce(ctx, std::span<const float>(f), Op::Min, o) == -5.0f);
      const auto am = reduce_index(ctx, std::span<const float>(f), Op::ArgMin, o);
      CHECK(am.index == 40);  // first occurrence, NaN ignored
      std::vector<float> nans(77, nan);
      CHECK(std::isnan(reduce(ctx, std::span<const float>(nans), Op::Max, o)));
      CHECK(reduce_index(ctx, std::span<const float>(nans), Op::ArgMax, o).index == 0);
      std::vector<float> infs = {inf, 1.0f, -inf};
      CHECK(std::isnan(reduce(ctx, std::span<const float>(infs), Op::Sum, o)));
      CHECK(reduce(ctx, std::span<const float>(infs), Op::Max, o) == inf);
      std::vector<std::uint8_t> bytes(1000, 255);
      CHECK(reduce(ctx, std::span<const std::uint8_t>(bytes), Op::Sum, o) ==
            static_cast<std::uint8_t>(1000 * 255 % 256));
      std::vector<std::int8_t> small(5, -128);
      CHECK(reduce(ctx, std::span<const std::int8_t>(small), Op::Sum, o) == -128 * 5 % 256 + 0);
      std::vector<double> none;
      CHECK(reduce(ctx, std::span<const double>(none), Op::Prod, o) == 1.0);
      CHECK_THROWS_AS(reduce_index(ctx, std::span<const double>(none), Op::ArgMin, o),
                      ArgumentError);
    } catch (const UnsupportedError& e) {
      const std::string msg = std::string(s.name) + " SKIPPED part of the semantics: " + e.what();
      MESSAGE(msg);
    }
  }
}

TEST_CASE("argument errors are their own type; the context survives them") {
  Context ctx(device());
  std::vector<float> f(10, 1.0f);
  CHECK_THROWS_AS(reduce(ctx, std::span<const float>(f), Op::Xor), ArgumentError);
  Options bad;
  bad.strategy = "no-such-strategy";
  CHECK_THROWS_AS(reduce(ctx, std::span<const float>(f), Op::Sum, bad), ArgumentError);
  bad = {};
  bad.work_group_size = 3;
  CHECK_THROWS_AS(reduce(ctx, std::span<const float>(f), Op::Sum, bad), ArgumentError);
  CHECK_THROWS_AS(reduce(ctx, Type::F32, static_cast<const void*>(nullptr), 5, Op::Sum),
                  ArgumentError);
  CHECK_THROWS_AS(Context("no-such-device-name"), DeviceError);
  CHECK(reduce(ctx, std::span<const float>(f), Op::Sum) == 10.0f);
}

TEST_CASE("a kernel that fails to build reports the log; the context stays usable") {
  KernelDirCopy k;
  k.replace("localtree.cl", "barrier(CLK_LOCAL_MEM_FENCE);", "barrier(CLK_LOCAL_MEM_FENCE) +;");
  Context ctx(device());
  std::vector<int> v(1000, 1);
  Options o;
  o.strategy = "localtree";
  try {
    reduce(ctx, std::span<const int>(v), Op::Sum, o);
    FAIL("the broken kernel built");
  } catch (const BuildError& e) {
    CHECK(e.file == "localtree.cl");
    CHECK(e.options.find("-DOP=") != std::string::npos);
    CHECK(!e.log.empty());
    CHECK(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
  }
  o.strategy = "bottomup";  // another kernel file still builds and runs in the same context
  CHECK(reduce(ctx, std::span<const int>(v), Op::Sum, o) == 1000);
}

TEST_CASE("the checks can fail: a miscombining kernel is caught") {
  KernelDirCopy k;
  // Drop the right operand of every local-tree step: results must no longer match.
  k.replace("localtree.cl", "sh[lid] = st_combine(sh[lid], sh[lid + s]);", "sh[lid] = sh[lid];");
  Context ctx(device());
  Options o;
  o.strategy = "localtree";
  const auto data = make_case_data(Type::I32, Op::Sum, Pattern::Random, 10007, 3);
  const Result r = reduce(ctx, Type::I32, data.data(), 10007, Op::Sum, o);
  const auto ref = reference_reduce(Type::I32, Type::I32, Op::Sum, data.data(), 10007);
  CHECK(check_result(r.plan, r.value, r.index, ref) != "");
}

TEST_CASE("f64 on a device without fp64 is UnsupportedError naming the device") {
  DeviceInfo d;
  d.name = "no-double-device";
  d.fp64 = false;
  d.max_work_group = 256;
  try {
    make_plan(d, Type::F64, Op::Sum, 10, {});
    FAIL("planned f64 without fp64");
  } catch (const UnsupportedError& e) {
    CHECK(std::string(e.what()).find("no-double-device") != std::string::npos);
  }
}

TEST_CASE(
    "the on-disk program cache: reused across contexts, cleared, and a corrupt entry is rebuilt") {
  // Per process: the api entries of both PoCL methods run this at the same time.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rdx_cache_test_" + std::to_string(static_cast<long>(::getpid())));
  std::filesystem::remove_all(dir);
  setenv("RDX_CACHE_DIR", dir.c_str(), 1);
  std::vector<std::int32_t> v(3000);
  std::iota(v.begin(), v.end(), -1000);
  const std::int64_t want = std::accumulate(v.begin(), v.end(), std::int64_t{0});
  {
    Context ctx(device());
    CHECK(reduce<std::int64_t>(ctx, std::span<const std::int32_t>(v), Op::Sum) == want);
  }
  std::size_t entries = 0;
  for (auto& e : std::filesystem::directory_iterator(dir))
    entries += e.path().extension() == ".bin";
  CHECK(entries >= 1);
  for (auto& e : std::filesystem::directory_iterator(dir))
    std::ofstream(e.path()) << "garbage";
  {
    Context ctx(device());  // the corrupt binary is ignored and rebuilt from source
    CHECK(reduce<std::int64_t>(ctx, std::span<const std::int32_t>(v), Op::Sum) == want);
  }
  {
    Context ctx(device());  // and the rebuilt entry loads
    CHECK(reduce<std::int64_t>(ctx, std::span<const std::int32_t>(v), Op::Sum) == want);
  }
  CHECK(program_cache_dir() == dir.string());
  CHECK(clear_program_cache() >= 1);
  CHECK(clear_program_cache() == 0);
  unsetenv("RDX_CACHE_DIR");
  std::filesystem::remove_all(dir);
}

TEST_CASE("fast_* tuning overrides: every unroll, vector width and grid stays exact") {
  Context ctx(device());
  for (const char* strategy : {"fast_strided", "fast_blocked"})
    for (unsigned unroll : {1u, 2u, 4u})
      for (unsigned vw : {1u, 4u, 16u})
        for (unsigned gpc : {1u, 3u})
          for (std::uint64_t n : {1ull, 37ull, 4099ull, 262147ull}) {
            Options o;
            o.strategy = strategy;
            o.unroll = unroll;
            o.vector_width = vw;
            o.groups_per_cu = gpc;
            const auto data = make_case_data(Type::I32, Op::Sum, Pattern::Random, n, n);
            const Result r = reduce(ctx, Type::I32, data.data(), n, Op::Sum, o);
            const auto ref = reference_reduce(Type::I32, Type::I32, Op::Sum, data.data(), n);
            CAPTURE(r.plan.describe());
            CHECK(check_result(r.plan, r.value, r.index, ref) == "");
          }
  Options bad;
  bad.strategy = "fast_strided";
  bad.unroll = 3;
  std::vector<int> v(10, 1);
  CHECK_THROWS_AS(reduce(ctx, std::span<const int>(v), Op::Sum, bad), ArgumentError);
}

TEST_CASE("big: 2^32 + 3 u8 elements, beyond one allocation, are reduced in chunks") {
  Context ctx(device());
  const std::uint64_t n = (std::uint64_t{1} << 32) + 3;
  std::vector<std::uint8_t> v(n, 1);
  v[n - 2] = 0;  // the minimum sits past 2^32: its index must survive the chunking
  v[7] = 9;
  const auto s = reduce<std::uint64_t>(ctx, std::span<const std::uint8_t>(v), Op::Sum);
  CHECK(s == n - 1 + 8);
  const auto m = reduce_index(ctx, std::span<const std::uint8_t>(v), Op::ArgMin);
  CHECK(m.value == 0);
  CHECK(m.index == n - 2);
  CHECK(reduce_index(ctx, std::span<const std::uint8_t>(v), Op::ArgMax).index == 7);
}

TEST_CASE("auto and the fast_* strategies are deterministic: bit-identical results run after run") {
  Context ctx(device());
  const auto data = make_case_data(Type::F32, Op::Sum, Pattern::Random, 3000017, 11);
  for (const char* strategy : {"auto", "fast_strided", "fast_blocked"}) {
    Options o;
    o.strategy = strategy;
    const Result first = reduce(ctx, Type::F32, data.data(), 3000017, Op::Sum, o);
    for (int i = 0; i < 5; ++i) {
      const Result again = reduce(ctx, Type::F32, data.data(), 3000017, Op::Sum, o);
      CHECK(again.value.bits == first.value.bits);
    }
  }
}
