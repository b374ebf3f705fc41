// Faults and concurrency: one Context shared by 8 host threads, contexts on several devices in one
// process, and a reduce that fails half-way leaving its context usable.
// doctest's assertions are not thread-safe: worker threads collect failures as text, and the
// main thread checks them.
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

using namespace rdx;

namespace {

using rdx_test::device;

// One reduction checked against the host reference; "" when it is right.
std::string reduce_and_check(Context& ctx, const std::string& strategy, Type t, Op op,
                             std::uint64_t n, std::uint64_t seed) {
  const auto data = make_case_data(t, op, Pattern::Random, n, seed);
  const auto before = data;
  Options o;
  o.strategy = strategy;
  const std::string what =
      rdx::detail::format("{} {} {} n={} seed={}", strategy, name(op), name(t), n, seed);
  try {
    const Result r = reduce(ctx, t, data.data(), n, op, o);
    const auto ref = reference_reduce(t, t, op, data.data(), n);
    if (auto bad = check_result(r.plan, r.value, r.index, ref); !bad.empty())
      return what + ": " + bad;
    if (data != before) return what + ": input modified";
  } catch (const std::exception& e) {
    return what + ": threw " + e.what();
  }
  return {};
}

// Each of `threads` threads runs `rounds` reductions on ctx, cycling through strategies, types
// and operators (different programs, cached kernels, scratch and the shared queue at once).
std::vector<std::string> hammer(Context& ctx, int threads, int rounds,
                                const std::string& except = "") {
  std::vector<std::string> strategies;
  for (const char* s : {"auto", "localtree", "multiseq", "atomic_local", "fast_strided",
                        "pow2_partials", "amp_cascade", "bottomup"})
    if (s != except) strategies.push_back(s);
  const Type types[] = {Type::F32, Type::I32, Type::U8, Type::F64, Type::I64};
  const Op ops[] = {Op::Sum, Op::ArgMax, Op::Min, Op::Max, Op::ArgMin};
  std::mutex m;
  std::vector<std::string> failures;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r) {
        const std::size_t k = static_cast<std::size_t>(t * rounds + r);
        const std::uint64_t n = 1 + (k * 7919 + 12345) % 300000;
        auto bad = reduce_and_check(ctx, strategies[k % strategies.size()], types[k % 5],
                                    ops[(k / 5) % 5], n, k);
        if (!bad.empty()) {
          std::lock_guard<std::mutex> lock(m);
          failures.push_back(std::move(bad));
        }
      }
    });
  for (auto& th : pool)
    th.join();
  return failures;
}

}  // namespace

TEST_CASE("concurrency: one Context shared by 8 host threads, every result correct") {
  Context ctx(device());
  const auto failures = hammer(ctx, 8, 12);
  for (auto& f : failures)
    FAIL_CHECK(f);
  CHECK(failures.empty());
  // Every thread on the same strategy and plan: the one cached kernel and scratch of auto.
  std::vector<std::string> bad(8);
  std::vector<std::thread> pool;
  const auto data = make_case_data(Type::F32, Op::Sum, Pattern::Random, 1 << 20, 5);
  const auto ref = reference_reduce(Type::F32, Type::F32, Op::Sum, data.data(), 1 << 20);
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      for (int r = 0; r < 10 && bad[t].empty(); ++r) {
        const Result res = reduce(ctx, Type::F32, data.data(), 1 << 20, Op::Sum);
        bad[t] = check_result(res.plan, res.value, res.index, ref);
      }
    });
  for (auto& th : pool)
    th.join();
  for (auto& b : bad)
    CHECK(b == "");
}

TEST_CASE("concurrency: segmented calls by device offsets from 4 threads, bad offsets among them") {
  // The scratch a context keeps for segmented calls (the offsets' flag, the parts' states) serves
  // one call at a time: each thread gets its own results, and each bad call reports its fault.
  Context ctx(device());
  const std::uint64_t n = 5000;
  std::vector<float> x(n);
  for (std::uint64_t i = 0; i < n; ++i)
    x[i] = static_cast<float>((i * 37) % 101) - 50.0f;  // small integers: exact f32 sums
  cl_int err = CL_SUCCESS;
  const cl::Buffer data(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, x.data(),
                        &err);
  REQUIRE(err == CL_SUCCESS);
  std::vector<std::string> bad(4);
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t)
    pool.emplace_back([&, t] {
      cl::CommandQueue q(ctx.cl_context(), ctx.cl_device());
      for (int r = 0; r < 6 && bad[t].empty(); ++r) {
        const std::uint64_t segs = 3 + t + r;
        std::vector<std::uint64_t> off(segs + 1);
        for (std::uint64_t k = 0; k <= segs; ++k)
          off[k] = k * n / segs;
        const bool wrong = (t + r) % 3 == 2;
        if (wrong) std::swap(off[1], off[2]);
        const Op op = r % 2 ? Op::ArgMax : Op::Sum;
        Options o;
        o.tuning.set("parts", 2 + r % 3);
        cl_int made[3] = {CL_SUCCESS, CL_SUCCESS, CL_SUCCESS};
        cl::Buffer offsets(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           off.size() * 8, off.data(), &made[0]);
        cl::Buffer values(ctx.cl_context(), CL_MEM_READ_WRITE, segs * 4, nullptr, &made[1]);
        cl::Buffer indices(ctx.cl_context(), CL_MEM_READ_WRITE, segs * 8, nullptr, &made[2]);
        if (made[0] != CL_SUCCESS || made[1] != CL_SUCCESS || made[2] != CL_SUCCESS) {
          bad[t] = rdx::detail::format("thread {} round {}: clCreateBuffer failed", t, r);
          break;
        }
        std::string said;
        try {
          reduce_segments_into(ctx, Type::F32, data, n, offsets, segs, op, values, &indices, o);
        } catch (const ArgumentError& e) {
          said = e.what();
        }
        if (said != (wrong ? "offsets: the offsets decrease" : "")) {
          bad[t] = rdx::detail::format("thread {} round {}: '{}'", t, r, said);
          break;
        }
        if (wrong) continue;
        std::vector<float> v(segs);
        std::vector<std::uint64_t> idx(segs);
        q.enqueueReadBuffer(values, CL_TRUE, 0, segs * 4, v.data());
        q.enqueueReadBuffer(indices, CL_TRUE, 0, segs * 8, idx.data());
        for (std::uint64_t k = 0; k < segs && bad[t].empty(); ++k) {
          float sum = 0, best = x[off[k]];
          std::uint64_t at = 0;
          for (std::uint64_t i = off[k]; i < off[k + 1]; ++i) {
            sum += x[i];
            if (x[i] > best) best = x[i], at = i - off[k];
          }
          const bool ok = op == Op::Sum ? v[k] == sum : v[k] == best && idx[k] == at;
          if (!ok)
            bad[t] =
                rdx::detail::format("thread {} round {} segment {}: {} {}", t, r, k, v[k], idx[k]);
        }
      }
    });
  for (auto& th : pool)
    th.join();
  for (auto& b : bad)
    CHECK(b == "");
}

TEST_CASE("concurrency: contexts on several devices in one process, at once") {
  // The ctest entry exposes two PoCL devices (POCL_DEVICES="pthread pthread"); without a second
  // device this case cannot prove anything, so it fails rather than pass vacuously.
  const auto devices = list_devices();
  std::vector<DeviceInfo> cpus;
  for (auto& d : devices)
    if (d.kind == DeviceKind::CPU) cpus.push_back(d);
  REQUIRE_MESSAGE(cpus.size() >= 2, "needs two CPU devices, e.g. POCL_DEVICES=\"pthread pthread\"");
  std::vector<Context> contexts;
  for (std::size_t i = 0; i < 2; ++i)
    contexts.emplace_back(
        rdx::detail::format("{}:{}", cpus[i].platform_index, cpus[i].device_index));
  CHECK(contexts[0].cl_device()() != contexts[1].cl_device()());
  std::vector<std::vector<std::string>> failures(contexts.size());
  std::vector<std::thread> pool;
  for (std::size_t i = 0; i < contexts.size(); ++i)
    pool.emplace_back([&, i] { failures[i] = hammer(contexts[i], 3, 6); });
  for (auto& th : pool)
    th.join();
  for (auto& per_device : failures)
    for (auto& f : per_device)
      FAIL_CHECK(f);
  // A buffer of one context is refused by the other, with an argument error.
  std::vector<float> v(100, 1.0f);
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(contexts[0].cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                 v.size() * sizeof(float), v.data(), &err);
  REQUIRE(err == CL_SUCCESS);
  CHECK(reduce_buffer<float>(contexts[0], buf, v.size(), Op::Sum) == 100.0f);
  CHECK_THROWS_AS(reduce_buffer<float>(contexts[1], buf, v.size(), Op::Sum), ArgumentError);
}

TEST_CASE(
    "faults: a reduce that fails half-way (after launches and scratch) leaves the context "
    "usable") {
  // A copy of cl/ whose localtree partials kernel demands work-groups of 3: the first pass is
  // enqueued, with its scratch, and the second launch fails with CL_INVALID_WORK_GROUP_SIZE.
  const auto dir = std::filesystem::temp_directory_path() /
                   rdx::detail::format("rdx_fault_kernels_{}", static_cast<long>(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::copy(RDX_CL_DIR, dir, std::filesystem::copy_options::recursive);
  {
    std::ifstream in(dir / "seeds/localtree.cl");
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    const auto pos = text.find("kernel void");
    REQUIRE(pos != std::string::npos);
    text.insert(pos,
                "#ifdef FROM_PARTIALS\n__attribute__((reqd_work_group_size(3, 1, 1)))\n#endif\n");
    std::ofstream(dir / "seeds/localtree.cl") << text;
  }
  Context ctx(device());
  std::vector<std::int32_t> v(100000, 2);
  Options o;
  o.strategy = "localtree";
  setenv("RDX_KERNEL_DIR", dir.c_str(), 1);
  try {
    reduce(ctx, std::span<const std::int32_t>(v), Op::Sum, o);
    FAIL("the launch with the wrong work-group size succeeded");
  } catch (const ClError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("clEnqueueNDRangeKernel") != std::string::npos);
    CHECK(what.find("CL_INVALID_WORK_GROUP_SIZE") != std::string::npos);
  }
  unsetenv("RDX_KERNEL_DIR");
  std::filesystem::remove_all(dir);
  // The same context: other strategies, and many calls, still give exact results.
  for (const char* s : {"auto", "multiseq", "bottomup"}) {
    o.strategy = s;
    CHECK(reduce(ctx, std::span<const std::int32_t>(v), Op::Sum, o) == 200000);
  }
  // (localtree's broken program stays in this context's program cache, which is keyed by file and
  // options: RDX_KERNEL_DIR is read when a context first builds a program.)
  const auto failures = hammer(ctx, 2, 4, "localtree");
  for (auto& f : failures)
    FAIL_CHECK(f);
}

TEST_CASE("oom: a device out of memory is a ClError naming the call; the context survives") {
  // Run with tests/faults/oom_shim preloaded (the ctest entry `oom`): buffers above
  // RDX_FAKE_OOM_ABOVE bytes fail as on a device without memory left.
  Context ctx(device());
  std::vector<float> v(1 << 20, 0.5f);
  setenv("RDX_FAKE_OOM_ABOVE", "65536", 1);
  for (const char* s : {"auto", "localtree"}) {
    Options o;
    o.strategy = s;
    try {
      reduce(ctx, std::span<const float>(v), Op::Sum, o);
      FAIL("a 4 MiB input buffer was created: is the shim preloaded?");
    } catch (const ClError& e) {
      const std::string what = e.what();
      CAPTURE(what);
      CHECK(e.code == CL_MEM_OBJECT_ALLOCATION_FAILURE);
      CHECK(what.find("clCreateBuffer") != std::string::npos);
      CHECK(what.find("out of memory") != std::string::npos);
    }
  }
  unsetenv("RDX_FAKE_OOM_ABOVE");
  for (const char* s : {"auto", "localtree"}) {
    Options o;
    o.strategy = s;
    CHECK(reduce(ctx, std::span<const float>(v), Op::Sum, o) == 524288.0f);
  }
}
