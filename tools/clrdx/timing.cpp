#include "timing.hpp"

namespace clrdx {

cl::Buffer bench_input(rdx::Context& ctx, const std::vector<unsigned char>& host) {
  return rdx::detail::device_copy(ctx, host, "bench input");
}

Timed time_reduce(rdx::Context& ctx, rdx::Type type, const cl::Buffer& buf, std::uint64_t n,
                  rdx::Op op, const rdx::Options& opts, int repeat) {
  return time_call([&] { return rdx::reduce(ctx, type, buf, n, op, opts); }, repeat);
}

Timed time_call(const std::function<rdx::Result()>& call, int repeat) {
  Timed t;
  // PoCL 5 on a 16-core Xeon ran the first configuration of a process 1.3-2.2x slower than the
  // same one measured right after it when only one call was discarded (docs/performance.md,
  // "The first configuration a process measures").
  t.seconds = rdx::detail::time_calls([&] { t.result = call(); }, repeat,
                                      {kWarmUpSeconds, kMostWarmUpCalls});
  return t;
}

}  // namespace clrdx
