// The public API on a real device (PoCL by default): typed entry points, accumulators, the
// documented semantics, errors, and that a failure leaves the context usable.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include <unistd.h>

#include "core/format.hpp"
#include "coverage.hpp"
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

TEST_CASE("an accumulator widens; min and max in it return an element's value") {
  Context ctx(device());
  const std::vector<std::int32_t> i32 = {-5, 3};
  const std::vector<std::uint8_t> u8 = {200, 100};
  const std::vector<std::uint64_t> u64 = {1, (std::uint64_t{1} << 63) + 5};
  CHECK(reduce<std::int64_t>(ctx, std::span<const std::int32_t>(i32), Op::Min) == -5);
  CHECK(reduce<double>(ctx, std::span<const std::int32_t>(i32), Op::Max) == 3.0);
  CHECK(reduce<std::int16_t>(ctx, std::span<const std::uint8_t>(u8), Op::Max) == 200);
  CHECK(reduce<float>(ctx, std::span<const std::uint8_t>(u8), Op::Min) == 100.0f);
  // What would not return an element's value is refused: signed into unsigned, the same width,
  // a 64-bit integer into f64.
  CHECK_THROWS_AS(reduce<std::uint32_t>(ctx, std::span<const std::int32_t>(i32), Op::Min),
                  ArgumentError);
  CHECK_THROWS_AS(reduce<std::uint64_t>(ctx, std::span<const std::int32_t>(i32), Op::Max),
                  ArgumentError);
  CHECK_THROWS_AS(reduce<std::int8_t>(ctx, std::span<const std::uint8_t>(u8), Op::Max),
                  ArgumentError);
  CHECK_THROWS_AS(reduce<std::int64_t>(ctx, std::span<const std::uint64_t>(u64), Op::Max),
                  ArgumentError);
  CHECK_THROWS_AS(reduce<double>(ctx, std::span<const std::uint64_t>(u64), Op::Max), ArgumentError);
  CHECK_THROWS_AS(reduce<std::uint32_t>(ctx, std::span<const std::int32_t>(i32), Op::Sum),
                  ArgumentError);
  // A sum into a wider unsigned accumulator converts each element as C++ does, then wraps.
  CHECK(reduce<std::uint64_t>(ctx, std::span<const std::int32_t>(i32), Op::Sum) ==
        static_cast<std::uint64_t>(std::int64_t{-2}));
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
  CHECK(reduce_buffer<std::uint64_t, std::uint16_t>(ctx, buf, v.size(), Op::Sum) ==
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
  // Every strategy runs the f32 checks (the quick tier's strategy matrix builds the same
  // programs) and four groups of checks of other types and accumulators; in the quick tier one
  // group per strategy, rotated by its position, so each group still runs on six strategies.
  const bool quick = rdx::test::quick_tier();
  std::size_t position = 0, ran = 0;  // ran: strategies with a part checked
  for (auto& s : strategies()) {
    Options o;
    o.strategy = std::string(s.name);
    CAPTURE(s.name);
    const auto group = [&, p = position++](std::size_t g) { return !quick || p % 4 == g; };
    // Each part runs its checks or is refused (UnsupportedError: reported, never counted).
    std::size_t checked = 0;
    std::map<std::string, int> skipped;
    const auto part = [&](const auto& checks) {
      try {
        checks();
        ++checked;
      } catch (const UnsupportedError& e) {
        ++skipped[e.what()];
      }
    };
    part([&] {
      std::vector<float> f(300, 1.0f);
      f[17] = nan;
      CHECK(std::isnan(reduce(ctx, std::span<const float>(f), Op::Sum, o)));
      CHECK(std::isnan(reduce(ctx, std::span<const float>(f), Op::Prod, o)));
      f[40] = -5.0f;
      f[41] = -5.0f;
      f[50] = 7.0f;
      f[51] = 7.0f;
      // NumPy's rules: min and argmin propagate NaN (the first NaN's index); nanargmax ignores it
      // and gives the first occurrence of the maximum.
      CHECK(std::isnan(reduce(ctx, std::span<const float>(f), Op::Min, o)));
      CHECK(reduce_index(ctx, std::span<const float>(f), Op::ArgMin, o).index == 17);
      const auto nam = reduce_index(ctx, std::span<const float>(f), Op::NanArgMax, o);
      CHECK(nam.index == 50);
      CHECK(nam.value == 7.0f);
      std::vector<float> last(300, 1.0f);  // a NaN in the last lane of any vector width
      last[299] = nan;
      CHECK(std::isnan(reduce(ctx, std::span<const float>(last), Op::Max, o)));
      CHECK(reduce_index(ctx, std::span<const float>(last), Op::ArgMax, o).index == 299);
      std::vector<float> nans(77, nan);
      CHECK(std::isnan(reduce(ctx, std::span<const float>(nans), Op::Max, o)));
      CHECK(reduce_index(ctx, std::span<const float>(nans), Op::ArgMax, o).index == 0);
      // nanargmax of NaN alone has no index: NumPy raises, so does librdx (whole and per segment).
      CHECK_THROWS_AS(reduce_index(ctx, std::span<const float>(nans), Op::NanArgMax, o),
                      ArgumentError);
      const std::vector<float> seg = {nan, nan, 3.0f, nan, 1.0f};
      const std::vector<std::uint64_t> cut = {0, 2, 5}, ok = {0, 3, 5};
      CHECK_THROWS_AS(reduce_segments(ctx, Type::F32, seg.data(), seg.size(), cut, Op::NanArgMin),
                      ArgumentError);
      const auto sr = reduce_segments(ctx, Type::F32, seg.data(), seg.size(), ok, Op::NanArgMin);
      CHECK(sr.indices == std::vector<std::uint64_t>{2, 1});
      std::vector<float> infs = {inf, 1.0f, -inf};
      CHECK(std::isnan(reduce(ctx, std::span<const float>(infs), Op::Sum, o)));
      CHECK(reduce(ctx, std::span<const float>(infs), Op::Max, o) == inf);
      // Float products: a zero factor gives 0 (even where partial products overflow) unless
      // the input holds NaN or an infinity; an input infinity is an infinity.
      std::vector<float> zero_big(1000, 1e30f);
      zero_big[0] = 0.0f;
      CHECK(reduce(ctx, std::span<const float>(zero_big), Op::Prod, o) == 0.0f);
      zero_big[0] = 1e30f;
      zero_big[999] = -0.0f;
      CHECK(reduce(ctx, std::span<const float>(zero_big), Op::Prod, o) == 0.0f);
      zero_big[500] = inf;
      CHECK(std::isnan(reduce(ctx, std::span<const float>(zero_big), Op::Prod, o)));
      std::vector<float> with_inf(1000, 1.5f);
      with_inf[700] = -inf;
      CHECK(reduce(ctx, std::span<const float>(with_inf), Op::Prod, o) == -inf);
      with_inf[3] = 0.5f;
      with_inf[4] = -2.0f;
      CHECK(reduce(ctx, std::span<const float>(with_inf), Op::Prod, o) == inf);
    });
    std::size_t parts = 1;
    if (group(0)) {
      ++parts;
      part([&] {
        std::vector<std::uint8_t> bytes(1000, 255);
        CHECK(reduce(ctx, std::span<const std::uint8_t>(bytes), Op::Sum, o) ==
              static_cast<std::uint8_t>(1000 * 255 % 256));
      });
    }
    if (group(1)) {
      ++parts;
      part([&] {
        std::vector<std::int8_t> small(5, -128);
        CHECK(reduce(ctx, std::span<const std::int8_t>(small), Op::Sum, o) == -128 * 5 % 256 + 0);
      });
    }
    if (group(2)) {  // widened accumulators
      ++parts;
      part([&] {
        std::vector<std::int32_t> iota(1000);
        std::iota(iota.begin(), iota.end(), 0);
        CHECK(reduce<double>(ctx, std::span<const std::int32_t>(iota), Op::Prod, o) == 0.0);
        std::vector<std::uint8_t> u8(1000, 200);
        u8[999] = 0;
        CHECK(reduce<float>(ctx, std::span<const std::uint8_t>(u8), Op::Prod, o) == 0.0f);
      });
    }
    if (group(3)) {
      ++parts;
      part([&] {
        std::vector<double> none;
        CHECK(reduce(ctx, std::span<const double>(none), Op::Prod, o) == 1.0);
        CHECK_THROWS_AS(reduce_index(ctx, std::span<const double>(none), Op::ArgMin, o),
                        ArgumentError);
      });
    }
    MESSAGE(rdx::detail::format("{}: {} of {} parts checked", s.name, checked, parts));
    for (const auto& [why, count] : skipped)
      MESSAGE(rdx::detail::format("{}: {} SKIPPED: {}", s.name, count, why));
    // As tests/test_strategies.cpp: a strategy of the registry that ran no check fails.
    CHECK_MESSAGE(checked > 0, s.name, ": no part ran");
    ran += checked > 0;
  }
  CHECK(ran == strategies().size());
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
  k.replace("seeds/localtree.cl", "halving_tree(sh, lid);", "halving_tree(sh, lid) +;");
  Context ctx(device());
  std::vector<int> v(1000, 1);
  Options o;
  o.strategy = "localtree";
  try {
    reduce(ctx, std::span<const int>(v), Op::Sum, o);
    FAIL("the broken kernel built");
  } catch (const BuildError& e) {
    CHECK(e.file == "seeds/localtree.cl");
    CHECK(e.options.find("-DWG=") != std::string::npos);
    CHECK(!e.log.empty());
    CHECK(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos);
  }
  o.strategy = "bottomup";  // another kernel file still builds and runs in the same context
  CHECK(reduce(ctx, std::span<const int>(v), Op::Sum, o) == 1000);
}

TEST_CASE("the checks can fail: a miscombining kernel is caught") {
  KernelDirCopy k;
  // Drop the right operand of every step of localtree's tree (cl/group_tree.h's halving_tree):
  // results must no longer match.
  k.replace("group_tree.h", "sh[lid] = st_combine(sh[lid], sh[lid + (h)]);", "sh[lid] = sh[lid];");
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

// Sets an environment variable for a scope, then restores its earlier value (or its absence).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_old_ = true;
      old_ = old;
    }
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { had_old_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  bool had_old_ = false;
  std::string old_;
};

// The program cache's entries under the folder RDX_CACHE_DIR names, with their write times.
std::vector<std::pair<std::filesystem::path, std::filesystem::file_time_type>> cache_entries(
    const std::filesystem::path& dir) {
  std::vector<std::pair<std::filesystem::path, std::filesystem::file_time_type>> out;
  std::error_code ec;
  for (auto& e : std::filesystem::directory_iterator(dir / "programs-v2", ec))
    if (e.path().extension() == ".bin") out.emplace_back(e.path(), e.last_write_time());
  return out;
}

// Zeroes the second half of a file, keeping its size (and so the entry's length fields).
void zero_tail(const std::filesystem::path& p) {
  const auto size = std::filesystem::file_size(p);
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(size / 2));
  const std::string zeros(size - size / 2, '\0');
  f.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
}

TEST_CASE(
    "the on-disk program cache: reused across contexts, cleared, and a corrupt entry is rebuilt") {
  // Per process: the api entries of both PoCL methods run this at the same time.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rdx_cache_test_" + std::to_string(static_cast<long>(::getpid())));
  std::filesystem::remove_all(dir);
  ScopedEnv env("RDX_CACHE_DIR", dir.string());
  // More elements than auto's host loop takes (fast_blocked's host_items), so a kernel is built.
  std::vector<std::int32_t> v(make_plan(Context(device()).device_info(), Type::I32, Op::Sum, 1, {})
                                  .params.get("host_items")
                                  .value_or(2999) +
                              1);
  std::iota(v.begin(), v.end(), -1000);
  const std::int64_t want = std::accumulate(v.begin(), v.end(), std::int64_t{0});
  auto sum_in_new_context = [&] {
    Context ctx(device());
    return reduce<std::int64_t>(ctx, std::span<const std::int32_t>(v), Op::Sum);
  };
  CHECK(sum_in_new_context() == want);
  const auto stored = cache_entries(dir);
  REQUIRE(stored.size() >= 1);
  CHECK(read_file(dir / "programs-v2" / "CACHEDIR.TAG")
            .starts_with("Signature: 8a477f597d28d172789f06886806bc55"));

  for (auto& [path, time] : stored)
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "garbage";
  CHECK(sum_in_new_context() == want);  // the corrupt entry is ignored and rebuilt from source
  for (auto& [path, time] : stored)
    CHECK(read_file(path).starts_with("RDXBIN2\n"));

  // The tail of the binary zeroed, the lengths intact: only the checksum can tell.
  std::vector<std::string> damaged;
  for (auto& [path, time] : stored) {
    zero_tail(path);
    damaged.push_back(read_file(path));
  }
  CHECK(sum_in_new_context() == want);  // rebuilt, never handed to the driver
  const auto rewritten = cache_entries(dir);
  REQUIRE(rewritten.size() == stored.size());
  for (std::size_t i = 0; i < stored.size(); ++i)
    CHECK(read_file(stored[i].first) != damaged[i]);
  CHECK(sum_in_new_context() == want);
  for (auto& [path, time] : rewritten)  // the rewritten entries load: nothing is stored again
    CHECK(std::filesystem::last_write_time(path) == time);

  // Clearing removes the cache's entries, its marker and its folder, and no user file.
  const std::vector<std::string> user_files = {"firmware.bin", "notes.tmp", "keep.txt",
                                               "0123456789abcdef0123456789abcdef.bin"};
  for (auto& name : user_files)
    std::ofstream(dir / name) << "user data";
  CHECK(program_cache_dir() == dir.string());
  CHECK(clear_program_cache() >= 1);
  CHECK(clear_program_cache() == 0);
  CHECK(!std::filesystem::exists(dir / "programs-v2"));
  for (auto& name : user_files)
    CHECK(read_file(dir / name) == "user data");
  std::filesystem::remove_all(dir);
}

TEST_CASE("RDX_CACHE_DIR naming a file is an ArgumentError when a context is made") {
  const auto file = std::filesystem::temp_directory_path() /
                    ("rdx_cache_file_" + std::to_string(static_cast<long>(::getpid())));
  std::ofstream(file) << "not a folder";
  for (const auto& target : {file, file / "sub"}) {
    ScopedEnv env("RDX_CACHE_DIR", target.string());
    CAPTURE(target);
    try {
      Context ctx(device());
      FAIL("a context was made with RDX_CACHE_DIR naming a file");
    } catch (const ArgumentError& e) {
      CHECK(std::string(e.what()).find("RDX_CACHE_DIR=" + target.string() +
                                       " is not a directory") != std::string::npos);
    }
    CHECK_THROWS_AS(clear_program_cache(), ArgumentError);
  }
  CHECK(read_file(file) == "not a folder");
  std::filesystem::remove(file);
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
            o.tuning.set("unroll", unroll)
                .set("vector_bytes", vw * sizeof(std::int32_t))
                .set("groups_per_cu", gpc);
            const auto data = make_case_data(Type::I32, Op::Sum, Pattern::Random, n, n);
            const Result r = reduce(ctx, Type::I32, data.data(), n, Op::Sum, o);
            const auto ref = reference_reduce(Type::I32, Type::I32, Op::Sum, data.data(), n);
            CAPTURE(r.plan.describe());
            CHECK(check_result(r.plan, r.value, r.index, ref) == "");
          }
  Options bad;
  bad.strategy = "fast_strided";
  bad.tuning.set("unroll", 3);
  std::vector<int> v(10, 1);
  CHECK_THROWS_AS(reduce(ctx, std::span<const int>(v), Op::Sum, bad), ArgumentError);
}

TEST_CASE("fast_strided: the grid of large inputs (groups of 512, 32 a CU) stays exact") {
  Context ctx(device());
  // A device whose groups cannot hold 512 work-items keeps the default grid.
  const bool fits = ctx.device_info().max_work_group >= 512;
  for (const auto& [type, op] : {std::pair{Type::F32, Op::Sum}, std::pair{Type::I32, Op::Sum},
                                 std::pair{Type::F32, Op::Max}})
    for (std::uint64_t n : {1ull, 4099ull, 262147ull}) {
      Options o;
      o.strategy = "fast_strided";
      o.tuning.set("large_bytes", 1);  // every input counts as large
      const auto data = make_case_data(type, op, Pattern::Random, n, n + 3);
      const Result r = reduce(ctx, type, data.data(), n, op, o);
      const auto ref = reference_reduce(type, type, op, data.data(), n);
      CAPTURE(r.plan.describe());
      if (fits) {
        CHECK(r.plan.work_group_size == 512);
        // One round of two 4-element loads a work-item (4-byte elements), at most 32 groups a CU.
        CHECK(r.plan.params.get("groups") ==
              std::min<std::uint64_t>(32ull * ctx.device_info().compute_units,
                                      (n + 512 * 8 - 1) / (512 * 8)));
      } else {
        CHECK(r.plan.work_group_size < 512);
      }
      CHECK(check_result(r.plan, r.value, r.index, ref) == "");
    }
}

TEST_CASE("fast_*: the host's finish and the last group's agree with the reference") {
  Context ctx(device());
  std::set<bool> finishes;  // both kinds ran
  for (const char* strategy : {"fast_strided", "fast_blocked"})
    for (std::size_t wg : {std::size_t{0}, std::size_t{2}})  // 2: more groups than work-items
      for (const auto& [type, op] :
           {std::pair{Type::F32, Op::Sum}, std::pair{Type::F32, Op::Prod},
            std::pair{Type::F64, Op::Min}, std::pair{Type::I32, Op::ArgMax},
            std::pair{Type::F32, Op::ArgMin}, std::pair{Type::U8, Op::Xor}})
        // 60 with fast_strided in groups of 2: a grid of more than 2 groups capped at 2, each
        // work-item reading up to 16 elements (host_finish_items).
        for (std::uint64_t n : {1ull, 60ull, 4099ull, 262147ull}) {
          if (type == Type::F64 && !ctx.device_info().fp64) continue;
          Options o;
          o.strategy = strategy;
          o.work_group_size = wg;
          const auto data = make_case_data(type, op, Pattern::Random, n, n + 7);
          const Result r = reduce(ctx, type, data.data(), n, op, o);
          const auto ref = reference_reduce(type, type, op, data.data(), n);
          CAPTURE(r.plan.describe());
          CHECK(check_result(r.plan, r.value, r.index, ref) == "");
          finishes.insert(r.plan.params.get("host_finish").value_or(0) != 0);
          // The cap needs vector loads (at most 4 rounds of them: f32 and f64 here, not the
          // operators loaded one element at a time); u8's 16-element vectors fill one group of 2,
          // whose 60 end in a 12-element tail that the 2 work-items loop over.
          const auto vw = r.plan.params.get("vector_width").value_or(0);
          if (n == 60 && wg == 2 && std::string(strategy) == "fast_strided" &&
              (vw == 2 || vw == 4)) {
            CHECK(r.plan.params.get("groups") == 2u);
            CHECK(r.plan.params.get("host_finish") == 1u);
          }
        }
  CHECK(finishes.size() == 2);
}

// How many elements of a host array auto reduces on the calling thread (fast_blocked's
// host_items), checked to be more than a few; 0, saying so, on a device that is not a CPU.
static std::uint64_t host_items(Context& ctx) {
  if (ctx.device_info().kind != DeviceKind::CPU) {
    MESSAGE("not a CPU device: auto launches for every input here");
    return 0;
  }
  const Plan small = make_plan(ctx.device_info(), Type::F32, Op::Sum, 10, {}, ctx.tuning());
  const std::uint64_t most = small.params.get("host_items").value_or(0);
  REQUIRE(most > 16);
  return most;
}

TEST_CASE("auto on a CPU: small host inputs run on the calling thread, as the kernel would") {
  // host_items (fast_blocked's tunable) or fewer elements of a host array: no launch
  // (dispatch/host_loop.cpp). Every type and operator, with ties, NaN and the sizes around the
  // lanes, against the reference and against the kernel (fast_blocked asked for by name). The
  // kernel's side builds a program per pair: the quick tier compares every operator on f32,
  // bf16 and i8 and every type on sum and argmin (api.loopvec.whole: every pair).
  Context ctx(device());
  const bool quick = rdx::test::quick_tier();
  const std::uint64_t most = host_items(ctx);
  if (!most) return;
  int ran = 0, against_kernel = 0;
  for (Type type : kAllTypes)
    for (Op op : kAllOps) {
      if (!op_allows(op, type)) continue;
      if (type == Type::F64 && !ctx.device_info().fp64) continue;
      const bool kernel_too = !quick || type == Type::F32 || type == Type::BF16 ||
                              type == Type::I8 || op == Op::Sum || op == Op::ArgMin;
      for (std::uint64_t n :
           {std::uint64_t{1}, std::uint64_t{15}, std::uint64_t{16}, std::uint64_t{33}, most}) {
        for (Pattern pat : {Pattern::Random, Pattern::Small}) {
          CAPTURE(name(type));
          CAPTURE(name(op));
          CAPTURE(n);
          CAPTURE(name(pat));
          auto data = make_case_data(type, op, pat, n, n + 3);
          if (type == Type::F32 && n > 2)  // a NaN in the middle: NumPy's rules
            reinterpret_cast<float*>(data.data())[n / 2] = std::numeric_limits<float>::quiet_NaN();
          const Result r = reduce(ctx, type, data.data(), n, op);
          REQUIRE(r.plan.params.get("host_loop") == 1u);
          if (type != Type::F32 || n <= 2)
            CHECK(check_result(r.plan, r.value, r.index,
                               reference_reduce(type, r.plan.acc, op, data.data(), n)) == "");
          ++ran;
          if (!kernel_too) continue;
          Options kernel;
          kernel.strategy = "fast_blocked";
          const Result k = reduce(ctx, type, data.data(), n, op, kernel);
          CHECK(!k.plan.params.get("host_loop"));
          CHECK(r.index == k.index);
          if (is_float(type) && (op == Op::Sum || op == Op::Prod)) {
            // Another order of roundings: sums within 1e-5 of each other; products, whose
            // terms underflow in either order, agree on NaN (and meet the reference above).
            const double a = r.value.as<double>(), b = k.value.as<double>();
            CHECK(std::isnan(a) == std::isnan(b));
            if (op == Op::Sum && !std::isnan(a)) CHECK(std::fabs(a - b) <= 1e-5 * std::fabs(b));
          } else {
            CHECK(r.value.type == k.value.type);
            CHECK((r.value.bits == k.value.bits ||
                   (is_float(type) && std::isnan(r.value.as<double>()) &&
                    std::isnan(k.value.as<double>()))));
          }
          ++against_kernel;
        }
      }
    }
  CHECK(ran > 1000);
  CHECK(against_kernel > (quick ? 400 : 1000));
  // Integers summed into a float accumulator (an integer mean's f64 sum), against the kernel and
  // the reference: within the accumulator's rounding of each other.
  int widened = 0;
  for (Type type : {Type::I8, Type::U16, Type::I32, Type::I64, Type::U64})
    for (Type acc : {Type::F32, Type::F64}) {
      if (acc == Type::F64 && !ctx.device_info().fp64) continue;
      const bool wide = type == Type::I64 || type == Type::U64;
      if (acc == Type::F32 && wide) continue;  // an accumulator never narrows
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{33}, most}) {
        CAPTURE(name(type));
        CAPTURE(name(acc));
        CAPTURE(n);
        const auto data = make_case_data(type, Op::Sum, Pattern::Random, n, n + 5);
        Options o;
        o.acc = acc;
        const Result r = reduce(ctx, type, data.data(), n, Op::Sum, o);
        REQUIRE(r.plan.params.get("host_loop") == 1u);
        CHECK(r.plan.acc == acc);
        CHECK(check_result(r.plan, r.value, r.index,
                           reference_reduce(type, acc, Op::Sum, data.data(), n)) == "");
        o.strategy = "fast_blocked";
        const Result k = reduce(ctx, type, data.data(), n, Op::Sum, o);
        CHECK(!k.plan.params.get("host_loop"));
        const double a = r.value.as<double>(), b = k.value.as<double>();
        CHECK(std::fabs(a - b) <= (acc == Type::F32 ? 1e-6 : 1e-15) * n * std::fabs(b));
        ++widened;
      }
    }
  CHECK(widened == 3 * (3 + (ctx.device_info().fp64 ? 5 : 0)));
  // mean (run_to_run) is the built-in sum in its accumulator, so it takes the same loop.
  const float four[] = {1.0f, 2.0f, 3.0f, 4.5f};
  const Array four_in[] = {{Type::F32, four}};
  const StatResult mean = reduce(ctx, Stat::Mean, four_in, 4);
  CHECK(mean.value.as<double>() == 2.625);
  CHECK(mean.plan.params.get("host_loop") == 1u);
  const std::int32_t ints[] = {1, 2, 3, 5};  // in f64 (f32 without fp64)
  const Array ints_in[] = {{Type::I32, ints}};
  const StatResult int_mean = reduce(ctx, Stat::Mean, ints_in, 4);
  CHECK(int_mean.value.as<double>() == 2.75);
  CHECK(int_mean.plan.params.get("host_loop") == 1u);
  // Past host_items, and with a profile asked for, the kernel runs.
  std::vector<float> big(most + 1, 1.0f);
  CHECK(!reduce(ctx, Type::F32, big.data(), big.size(), Op::Sum).plan.params.get("host_loop"));
  Options profiled;
  profiled.profile = true;
  CHECK(!reduce(ctx, Type::F32, big.data(), 10, Op::Sum, profiled).plan.params.get("host_loop"));
}

TEST_CASE("auto on a CPU: small host inputs of the composites run on the calling thread") {
  // var, std, nanvar, nanstd, nansum, nanmean, count, any, all and dot of host_items or
  // fewer host elements, under run_to_run: no launch (dispatch/host_stats.cpp); each against the
  // long double reference (check_stat: NaN at every fifth element for the nan* forms). Minmax,
  // norm2 and nanprod launch; mean is the built-in sum's loop (above).
  Context ctx(device());
  const std::uint64_t most = host_items(ctx);
  if (!most) return;
  int ran = 0;
  for (Stat s : kAllStats)
    for (Type type : {Type::F32, Type::F64, Type::F16, Type::I32, Type::U8}) {
      if (type == Type::F64 && !ctx.device_info().fp64) continue;
      const bool host = s == Stat::Var || s == Stat::Std || s == Stat::NanVar ||
                        s == Stat::NanStd || s == Stat::NanSum || s == Stat::NanMean ||
                        s == Stat::Count || s == Stat::Any || s == Stat::All || s == Stat::Dot ||
                        s == Stat::Mean;
      for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{33}, most}) {
        CAPTURE(name(s));
        CAPTURE(name(type));
        CAPTURE(n);
        CHECK(check_stat(ctx, s, type, n, n + 11) == "");
        const auto x = make_case_data(type, Op::Sum, Pattern::Random, n, n + 11);
        const Array in[] = {{type, x.data()}, {type, x.data()}};
        const StatResult r = reduce(ctx, s, std::span<const Array>(in, input_count(s)), n);
        CHECK((r.plan.params.get("host_loop") == 1u) == host);
        ++ran;
      }
    }
  CHECK(ran == static_cast<int>(std::size(kAllStats)) * 3 * (ctx.device_info().fp64 ? 5 : 4));
  // Another level, a map, a strategy by name or a profile: the kernels.
  std::vector<float> v(100, 2.0f);
  const Array one[] = {{Type::F32, v.data()}};
  Options exact;
  exact.determinism = Determinism::Exact;
  CHECK(!reduce(ctx, Stat::NanSum, one, 100, exact).plan.params.get("host_loop"));
  CHECK(!reduce(ctx, Stat::Count, one, 100, {}, "x > 1").plan.params.get("host_loop"));
  Options named;
  named.strategy = "fast_blocked";
  CHECK(!reduce(ctx, Stat::Var, one, 100, named).plan.params.get("host_loop"));
  Options profiled;
  profiled.profile = true;
  CHECK(!reduce(ctx, Stat::Var, one, 100, profiled).plan.params.get("host_loop"));
  CHECK(reduce(ctx, Stat::Var, one, 100).value.as<double>() == 0.0);
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
  // A user's reduction in chunks: each chunk's state combined on the device, indexes global.
  const auto mm = minmax(ctx, std::span<const std::uint8_t>(v));
  CHECK(mm.min == 0);
  CHECK(mm.min_index == n - 2);
  CHECK(mm.max == 9);
  CHECK(mm.max_index == 7);
  // Segments in passes of one allocation each: the long one crosses every pass boundary.
  const std::vector<std::uint64_t> off = {0, 5, n - 9, n};
  const auto seg = reduce_segments(ctx, Type::U8, v.data(), n, off, Op::Sum, [] {
    Options o;
    o.acc = Type::U64;
    return o;
  }());
  if (ctx.device_info().max_alloc < n) CHECK(seg.plan.in_passes());
  CHECK(seg.as<std::uint64_t>() == std::vector<std::uint64_t>{5, n - 14 - 1 + 9, 8});
  const auto at = reduce_segments(ctx, Type::U8, v.data(), n, off, Op::ArgMin);
  CHECK(at.indices == std::vector<std::uint64_t>{0, 0, 7});
  CHECK(at.as<std::uint8_t>() == std::vector<std::uint8_t>{1, 1, 0});
}

TEST_CASE("api: host input of 32 MiB and more is staged through pinned memory, in slices") {
  // Copied input from 32 MiB on goes through 2 MiB pinned blocks, here on eight threads
  // (core/host_input.cpp). On a CPU device aligned input is read in place, so the elements start
  // one byte into the bytes: every device copies them. Marks sit at both ends, at a seam between
  // blocks and across the threads' slices.
  Context ctx(device());
  const std::uint64_t n = (std::uint64_t{1} << 24) + 5;  // 64 MiB + 20 bytes of i32
  std::vector<unsigned char> bytes(n * 4 + 1);
  std::mt19937 gen(9);
  std::int64_t want = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::int32_t v = static_cast<std::int32_t>(gen() % 2000001) - 1000000;
    if (i == (std::uint64_t{8} << 20) - 1 || i == n - 1) v = 5000000;  // a seam, the last
    if (i == (std::uint64_t{8} << 20)) v = -5000000;                   // after the seam
    std::memcpy(bytes.data() + 1 + 4 * i, &v, 4);
    want += v;
  }
  const void* x = bytes.data() + 1;
  Options acc;
  acc.acc = Type::I64;
  CHECK(reduce(ctx, Type::I32, x, n, Op::Sum, acc).value.as<std::int64_t>() == want);
  CHECK(reduce(ctx, Type::I32, x, n, Op::ArgMax).index == (std::uint64_t{8} << 20) - 1);
  CHECK(reduce(ctx, Type::I32, x, n, Op::ArgMin).index == (std::uint64_t{8} << 20));
  // The exact sum's host path stages its chunks the same way.
  Options exact;
  exact.determinism = Determinism::Exact;
  std::vector<float> f(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::int32_t v = 0;
    std::memcpy(&v, bytes.data() + 1 + 4 * i, 4);
    f[i] = static_cast<float>(v);  // integers below 2^24: exact, and so is their sum in a double
  }
  std::vector<unsigned char> fb(n * 4 + 1);
  std::memcpy(fb.data() + 1, f.data(), n * 4);
  CHECK(reduce(ctx, Type::F32, fb.data() + 1, n, Op::Sum, exact).value.as<float>() ==
        static_cast<float>(static_cast<double>(want)));
}

TEST_CASE(
    "api: each call's plan is make_plan's for its own request (the context keeps recent plans)") {
  Context ctx(device());
  std::vector<float> v(5000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = float(i % 13) - 6.0f;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data());
  Options wg64, blocked, strided;
  wg64.work_group_size = 64;
  blocked.strategy = "fast_blocked";
  strided.strategy = "fast_strided";
  // More distinct requests than the context keeps, each asked twice in a row and again later.
  for (int pass = 0; pass < 2; ++pass)
    for (std::uint64_t n : {1ull, 7ull, 64ull, 1000ull, 4096ull, 4999ull, 5000ull})
      for (const Options* o : {&wg64, &blocked, &strided})
        for (int twice = 0; twice < 2; ++twice) {
          CAPTURE(n);
          CAPTURE(o->strategy);
          const Result r = reduce(ctx, Type::F32, buf, n, Op::Sum, *o);
          CHECK(r.plan == make_plan(ctx.device_info(), Type::F32, Op::Sum, n, *o, ctx.tuning()));
          double want = 0;
          for (std::uint64_t i = 0; i < n; ++i)
            want += v[i];
          CHECK(r.value.as<float>() == float(want));  // small integers: exact in any order
          // A host input: auto's fast_blocked runs it on the calling thread up to host_items
          // elements, and the plan says so (host_loop 1).
          const Result h = reduce(ctx, Type::F32, v.data(), n, Op::Max, *o);
          Plan planned = make_plan(ctx.device_info(), Type::F32, Op::Max, n, *o, ctx.tuning());
          if (n <= planned.params.get("host_items").value_or(0)) planned.params.set("host_loop", 1);
          CHECK(h.plan == planned);
          CHECK(h.value.as<float>() == *std::max_element(v.begin(), v.begin() + n));
        }
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

TEST_CASE("api: enqueue_reduce's offset is a multiple of the size of what it writes there") {
  Context ctx(device());
  std::vector<float> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i % 37) - 11.0f;  // every partial sum an exact integer
  const double want = std::accumulate(v.begin(), v.end(), 0.0);
  cl_int err = CL_SUCCESS;
  cl::Buffer data(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data(),
                  &err);
  REQUIRE(err == CL_SUCCESS);
  cl::Buffer out(ctx.cl_context(), CL_MEM_READ_WRITE, 64, nullptr, &err);
  REQUIRE(err == CL_SUCCESS);
  const auto read = [&](std::size_t offset, auto zero) {
    decltype(zero) got = zero;
    REQUIRE(ctx.queue().enqueueReadBuffer(out, CL_TRUE, offset, sizeof got, &got) == CL_SUCCESS);
    return got;
  };
  Options exact, wide, exact_wide;
  exact.determinism = Determinism::Exact;
  wide.acc = Type::F64;
  exact_wide = exact;
  exact_wide.acc = Type::F64;
  const DeviceArray in[] = {{Type::F32, data}};
  // An f32 result at byte 4 and 12, an f64 one at byte 8 and 16: plain, exact and users' forms.
  enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, 4).wait();
  CHECK(read(4, 0.0f) == static_cast<float>(want));
  enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, 12, {}, exact).wait();
  CHECK(read(12, 0.0f) == static_cast<float>(want));
  enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, 8, {}, wide).wait();
  CHECK(read(8, 0.0) == want);
  enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, 16, {}, exact_wide).wait();
  CHECK(read(16, 0.0) == want);
  const auto sum32 = Reduction::transform(Op::Sum, Type::F32, "x");
  enqueue_reduce(ctx, sum32, in, v.size(), out, 20).wait();
  CHECK(read(20, 0.0f) == static_cast<float>(want));
  enqueue_reduce(ctx, sum32, in, v.size(), out, 28, {}, exact).wait();
  CHECK(read(28, 0.0f) == static_cast<float>(want));
  enqueue_reduce(ctx, Type::I8, data, 0, Op::Max, out, 33).wait();  // i8's identity at byte 33
  CHECK(read(33, std::int8_t{0}) == std::numeric_limits<std::int8_t>::min());
  // A state of an f64 and an f32 field is aligned as its f64.
  Reduction two;
  two.fields = {{"s", Type::F32, "0", "x", "a.s + b.s"},
                {"d", Type::F64, "0", "(double)x", "a.d + b.d"}};
  REQUIRE(state_bytes(two) == 16);
  enqueue_reduce(ctx, two, in, v.size(), out, 40).wait();
  CHECK(read(40 + field_offset(two, 0), 0.0f) == static_cast<float>(want));
  CHECK(read(40 + field_offset(two, 1), 0.0) == want);
  // Refused: an offset that is not a multiple of that size, whichever path writes.
  for (std::size_t bad : {2, 6}) {
    CHECK_THROWS_AS(enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, bad),
                    ArgumentError);
    CHECK_THROWS_AS(enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, bad, {}, exact),
                    ArgumentError);
    CHECK_THROWS_AS(enqueue_reduce(ctx, sum32, in, v.size(), out, bad), ArgumentError);
    CHECK_THROWS_AS(enqueue_reduce(ctx, sum32, in, v.size(), out, bad, {}, exact), ArgumentError);
  }
  for (std::size_t bad : {4, 12}) {
    CHECK_THROWS_AS(enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, bad, {}, wide),
                    ArgumentError);
    CHECK_THROWS_AS(
        enqueue_reduce(ctx, Type::F32, data, v.size(), Op::Sum, out, bad, {}, exact_wide),
        ArgumentError);
    CHECK_THROWS_AS(enqueue_reduce(ctx, two, in, v.size(), out, bad), ArgumentError);
  }
}

TEST_CASE("api: reduce_index refuses an operator without an index") {
  Context ctx(device());
  const std::vector<int> w = {5, -2, 9, 9, 3};
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, w.size() * 4,
                 const_cast<int*>(w.data()), &err);
  REQUIRE(err == CL_SUCCESS);
  for (Op op : kAllOps) {
    if (is_index_op(op)) continue;
    CHECK_THROWS_AS(reduce_index(ctx, std::span<const int>(w), op), ArgumentError);
    CHECK_THROWS_AS(reduce_index_buffer<int>(ctx, buf, w.size(), op), ArgumentError);
  }
  CHECK(reduce_index(ctx, std::span<const int>(w), Op::ArgMin).index == 1);
  CHECK(reduce_index_buffer<int>(ctx, buf, w.size(), Op::ArgMax).index == 2);
}

TEST_CASE(
    "api: reduce_buffer's template arguments are reduce's: the accumulator, then the element") {
  Context ctx(device());
  std::vector<float> v(3001);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = 16777216.0f + static_cast<float>(2 * (i % 5));  // f32 partial sums lose bits
  double want = 0;
  for (float x : v)
    want += x;  // exact in f64: integers below 2^53
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, v.size() * 4, v.data(),
                 &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(reduce_buffer<double, float>(ctx, buf, v.size(), Op::Sum) == want);
  CHECK(reduce<double>(ctx, std::span<const float>(v), Op::Sum) == want);
  CHECK(reduce_buffer<float>(ctx, buf, v.size(), Op::Max) == 16777224.0f);
}
