// The entry points: validate, plan, move host data to the device, run the strategy, read back.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/host_input.hpp"
#include "dispatch/host_loop.hpp"
#include "dispatch/run_plan.hpp"
#include "exec/exec.hpp"
#include "exec/wait_gate.hpp"
#include "plan/fast_tuning.hpp"
#include "rdx/stream.hpp"

namespace rdx {

namespace {

using detail::byte_size;
using detail::empty_result;
using detail::planned;

// run_whole's outcome for the caller: a value finished (dispatch/run_plan.hpp), a reproducible
// sum's state rounded once into plan.acc.
Result finished(const Plan& plan, std::uint64_t n, detail::WholeRun ran) {
  if (Result* r = std::get_if<Result>(&ran)) return detail::finished_result(std::move(*r));
  const detail::SumRan& s = std::get<detail::SumRan>(ran);
  return detail::sum_result(s.state, plan, n, s.seconds);
}

}  // namespace

std::string_view version() {
  return RDX_VERSION;
}

double measure_roundtrip(Context& ctx, int repeats) {
  auto& impl = detail::impl_of(ctx);
  cl::Program prog = impl.programs.get(impl.context, impl.device, "empty.cl", "", "");
  cl_int err = CL_SUCCESS;
  cl::Kernel k(prog, "rdx_empty", &err);
  RDX_CHECK_OUT(err, "clCreateKernel(rdx_empty)");
  cl::Buffer b(impl.context, CL_MEM_READ_WRITE, sizeof(cl_uint), nullptr, &err);
  RDX_CHECK_OUT(err, "clCreateBuffer(roundtrip)");
  RDX_CHECK(k.setArg(0, b));
  // The scalar is read into pinned memory, as auto reads its result.
  const detail::PinnedBytes pinned(impl.context, impl.queue);
  std::vector<double> t;
  for (int i = 0; i < repeats + 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    RDX_CHECK(impl.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(1), cl::NDRange(1)));
    RDX_CHECK(impl.queue.enqueueReadBuffer(b, CL_TRUE, 0, sizeof(cl_uint), pinned.data()));
    if (i >= 5)
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

Result reduce(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
              const Options& opts) {
  const std::shared_ptr<const Plan> kept = planned(ctx, type, op, n, opts);
  const Plan& plan = *kept;
  if (n == 0) return empty_result(plan);
  if (!data) throw ArgumentError("reduce: data is null but n > 0");
  byte_size(type, n);  // ArgumentError where n elements overflow a 64-bit byte count
  if (detail::runs_on_host(plan, n) && !opts.profile)
    if (std::optional<Result> r = detail::run_host_loop(plan, data, n))
      return detail::finished_result(std::move(*r));
  if (!detail::fits_one_call(ctx.device_info(), plan, n)) {
    // Beyond one allocation: the streaming reducer's chunks, transfers overlapping reductions
    // (its worker thread waits for them: a device group's other parts need not wait for this one).
    detail::WaitGate::leave();
    Stream s(ctx, type, op, opts);
    s.push(data, n);
    return s.finish();  // finished there
  }
  return finished(plan, n, detail::run_whole(ctx, plan, data, nullptr, n, opts.profile));
}

Result reduce(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
              const Options& opts) {
  const std::shared_ptr<const Plan> kept = planned(ctx, type, op, n, opts);
  const Plan& plan = *kept;
  detail::check_device_input(ctx, data, type, n, "reduce");
  if (n == 0) return empty_result(plan);
  return finished(plan, n, detail::run_whole(ctx, plan, nullptr, &data, n, opts.profile));
}

}  // namespace rdx
