#include "timing.hpp"

#include <algorithm>
#include <chrono>

#include "rdx/verify.hpp"

namespace clrdx {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

cl::Buffer bench_input(rdx::Context& ctx, const std::vector<unsigned char>& host) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY, std::max<std::size_t>(host.size(), 1), nullptr,
                 &err);
  if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateBuffer(bench input)");
  if (!host.empty()) {
    err = ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, host.size(), host.data());
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clEnqueueWriteBuffer(bench input)");
  }
  return buf;
}

Timed time_reduce(rdx::Context& ctx, rdx::Type type, const cl::Buffer& buf, std::uint64_t n,
                  rdx::Op op, const rdx::Options& opts, int repeat) {
  return time_call([&] { return rdx::reduce(ctx, type, buf, n, op, opts); }, repeat);
}

Timed time_call(const std::function<rdx::Result()>& call, int repeat) {
  Timed t;
  auto t0 = Clock::now();
  t.result = call();
  const int reps = seconds_since(t0) > 2.0 ? std::min(repeat, 3) : repeat;
  // Warm-up: calls until kWarmUpSeconds have passed (at most kMostWarmUpCalls, at least one).
  // PoCL 5 on a 16-core Xeon ran the first configuration of a process 1.3-2.2x slower than the
  // same one measured right after it when only one call was discarded (docs/performance.md,
  // "The first configuration a process measures").
  t0 = Clock::now();
  for (int i = 0; i < kMostWarmUpCalls && (i == 0 || seconds_since(t0) < kWarmUpSeconds); ++i)
    t.result = call();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    t0 = Clock::now();
    t.result = call();
    times.push_back(seconds_since(t0));
  }
  t.seconds = median(times);
  return t;
}

}  // namespace clrdx
