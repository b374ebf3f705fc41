#include "core/call_timing.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "rdx/errors.hpp"

namespace rdx::detail {
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

double time_calls(const std::function<void()>& call, int repeat, WarmUp warm_up) {
  auto t0 = Clock::now();
  call();
  const int reps = seconds_since(t0) > 2.0 ? std::min(repeat, 3) : repeat;
  t0 = Clock::now();
  for (int i = 0; i < warm_up.most_calls && (i == 0 || seconds_since(t0) < warm_up.seconds); ++i)
    call();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    t0 = Clock::now();
    call();
    times.push_back(seconds_since(t0));
  }
  return median(times);
}

cl::Buffer device_copy(Context& ctx, const std::vector<unsigned char>& host, const char* what) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY, std::max<std::size_t>(host.size(), 1), nullptr,
                 &err);
  if (err != CL_SUCCESS) throw ClError(err, std::string("clCreateBuffer(") + what + ")");
  if (!host.empty()) {
    err = ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, host.size(), host.data());
    if (err != CL_SUCCESS) throw ClError(err, std::string("clEnqueueWriteBuffer(") + what + ")");
  }
  return buf;
}

}  // namespace rdx::detail
