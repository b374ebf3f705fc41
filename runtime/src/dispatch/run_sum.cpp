// The reproducible sums by form (run_sum.hpp).
#include "dispatch/run_sum.hpp"

#include <algorithm>

#include "core/host_input.hpp"
#include "exec/chunks.hpp"
#include "plan/request.hpp"
#include "strategies/run_binned.hpp"
#include "strategies/run_exact.hpp"

namespace rdx::detail {

SumState run_sum(Context::Impl& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n,
                 bool profile, double* device_seconds) {
  Exec ex(ctx, plan, profile);
  ex.in_offset = in.offset;
  SumState s = is_binned(plan) ? SumState(run_binned(ex, in.buffer, n))
                               : SumState(run_exact(ex, in.buffer, n, plan.type));
  if (device_seconds) *device_seconds = profile ? ex.device_seconds() : 0.0;
  return s;
}

SumState sum_total(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                   std::uint64_t n, bool profile, double* device_seconds) {
  auto& impl = impl_of(ctx);
  double seconds = 0;
  SumState total = sum_zero(plan);
  if (device) {
    total = run_sum(impl, plan, *device, n, profile, &seconds);
  } else if (n > 0) {
    const std::uint64_t chunk = std::min({n, max_alloc_elements(ctx.device_info(), plan.type),
                                          plan.params.get("chunk").value_or(n)});
    for_each_chunk(n, chunk, [&](std::uint64_t base, std::uint64_t len) {
      const cl::Buffer buf =
          host_input(impl, static_cast<const unsigned char*>(host) + byte_size(plan.type, base),
                     byte_size(plan.type, len), size_of(plan.type));
      double s = 0;  // run_sum waits for its kernels before the chunk's buffer goes
      add_sum(total, run_sum(impl, plan, buf, len, profile, &s));
      seconds += s;
    });
  }
  if (device_seconds) *device_seconds = seconds;
  return total;
}

std::function<SumState()> sum_later(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  if (is_binned(ex.plan)) {
    auto f = binned_later(ex, in, n);
    return [f] { return SumState(f()); };
  }
  auto f = exact_later(ex, in, n);
  return [f] { return SumState(f()); };
}

void enqueue_sum_rounded(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type out_type,
                         const cl::Buffer& out, std::size_t offset,
                         const std::vector<cl::Event>* wait, cl::Event* done) {
  if (is_binned(ex.plan)) return enqueue_binned(ex, in, n, out_type, out, offset, wait, done);
  enqueue_exact(ex, in, n, ex.plan.type, "", out_type, out, offset, wait, done);
}

}  // namespace rdx::detail
