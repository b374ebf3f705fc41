// Where the time of one small `auto` call goes: medians over many calls of each step of the
// default path (rdx::reduce on a device buffer), against the plain-queue floor of one launch and
// one pinned read. Links librdx's internals (built by CMake as the probe_call_cost target).
// Usage: probe_call_cost [n=1024] [device selector, e.g. gpu]; prints one JSON line.
//        probe_call_cost grid DEVICE ROUNDS N[,N...] WG:GPC:UNROLL:MIN_PER_ITEM ...
//          auto's call time per grid configuration (f32 sum, input filled on the device),
//          configurations alternating in every round; one JSON line per (n, config, round).
#include "core/format.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "exec/exec.hpp"
#include "plan/fast_tuning.hpp"
#include "rdx/rdx.hpp"
#include "strategies/fast_scratch.hpp"
#include "strategies/registry.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median_us(int rounds, const std::function<void()>& f) {
  std::vector<double> t;
  for (int i = 0; i < rounds + 20; ++i) {
    const auto t0 = Clock::now();
    f();
    if (i >= 20) t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int grid(int argc, char** argv) {
  rdx::Context ctx(argv[2]);
  auto& impl = rdx::detail::impl_of(ctx);
  const int rounds = std::atoi(argv[3]);
  std::vector<std::uint64_t> sizes;
  for (char* p = argv[4]; *p;) {
    sizes.push_back(std::strtoull(p, &p, 0));
    if (*p == ',') ++p;
  }
  for (const std::uint64_t n : sizes) {
    cl::Buffer buf(impl.context, CL_MEM_READ_ONLY, n * sizeof(float));
    RDX_CHECK(impl.queue.enqueueFillBuffer(buf, 1.0f, 0, n * sizeof(float)));
    for (int r = 0; r < rounds; ++r)
      for (int c = 5; c < argc; ++c) {
        rdx::Options o;
        unsigned wg = 0, gpc = 0, unroll = 0;
        unsigned long long mpi = 0;
        std::sscanf(argv[c], "%u:%u:%u:%llu", &wg, &gpc, &unroll, &mpi);
        o.work_group_size = wg;
        if (gpc) o.tuning.set("groups_per_cu", gpc);
        if (unroll) o.tuning.set("unroll", unroll);
        if (mpi) o.tuning.set("min_per_item", mpi);
        rdx::Result res;
        const int reps = n >= (1u << 28) ? 30 : 200;
        std::vector<double> t;
        for (int i = 0; i < reps + 5; ++i) {
          const auto t0 = Clock::now();
          res = rdx::reduce(ctx, rdx::Type::F32, buf, n, rdx::Op::Sum, o);
          if (i >= 5)
            t.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
        }
        std::sort(t.begin(), t.end());
        rdx::detail::print(
            "{{\"n\":{},\"config\":\"{}\",\"round\":{},\"call_us\":{:.2f},\"plan\":\"{}\","
            "\"ok\":{}}}\n",
            n, argv[c], r, t[t.size() / 2], res.plan.describe(),
            res.value.as<float>() == float(std::min<std::uint64_t>(n, 1u << 24)) || n > (1u << 24));
        std::fflush(stdout);
      }
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 4 && std::string(argv[1]) == "grid") return grid(argc, argv);
  const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 1024;
  rdx::Context ctx(argc > 2 ? argv[2] : "");
  auto& impl = rdx::detail::impl_of(ctx);
  const int rounds = 2000;
  std::vector<float> host(n, 1.0f);
  cl::Buffer buf(impl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                 host.data());
  const rdx::Options opts;
  const rdx::Plan plan =
      rdx::make_plan(ctx.device_info(), rdx::Type::F32, rdx::Op::Sum, n, opts, ctx.tuning());

  // The whole call, as a user makes it.
  const double call = median_us(
      rounds, [&] { (void)rdx::reduce(ctx, rdx::Type::F32, buf, n, rdx::Op::Sum, opts); });
  // Planning alone.
  const double planning = median_us(rounds, [&] {
    (void)rdx::make_plan(ctx.device_info(), rdx::Type::F32, rdx::Op::Sum, n, opts, ctx.tuning());
  });
  // The buffer checks of reduce(cl::Buffer): its size and context.
  const rdx::detail::FastGrid grid = rdx::detail::fast_grid(plan);
  const double checks = median_us(rounds, [&] {
    std::size_t size = 0;
    RDX_CHECK(buf.getInfo(CL_MEM_SIZE, &size));
    cl::Context owner;
    RDX_CHECK(buf.getInfo(CL_MEM_CONTEXT, &owner));
  });
  // A kept plan's lookup (core/plan_memo.hpp): what a call with a request seen before pays
  // instead of planning.
  const double kept = median_us(rounds, [&] {
    (void)impl.plans.get(rdx::Type::F32, rdx::Op::Sum, n, opts, [&] { return plan; });
  });
  // The same kernel with the raw OpenCL calls: arguments, launch, pinned read (of the partials
  // with the plan's host finish, else of the result).
  rdx::detail::Exec ex(impl, plan);
  rdx::detail::Kernel k =
      ex.kernel("fast.cl", "fast_reduce", rdx::detail::fast_build_options(plan, n));
  cl::Buffer part(impl.context, CL_MEM_READ_WRITE, (grid.groups + 1) * 4);  // f32 states
  const cl_uint zero = 0;
  cl::Buffer counter(impl.context, cl_mem_flags{CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR},
                     std::size_t{4}, const_cast<cl_uint*>(&zero));
  const std::uint64_t read_first = grid.host_finish ? 0 : grid.groups;
  const std::uint64_t read_count = grid.host_finish ? grid.groups : 1;
  rdx::detail::PinnedBytes pinned(impl.context, impl.queue, read_count * 4);
  const std::size_t items = grid.groups * k.wg;
  std::uint64_t chunk = (n + items - 1) / items;
  chunk = (chunk + grid.vector_width - 1) / grid.vector_width * grid.vector_width;
  auto set_args = [&] {
    RDX_CHECK(k.kernel.setArg(0, buf));
    RDX_CHECK(k.kernel.setArg(1, cl_ulong(n)));
    RDX_CHECK(k.kernel.setArg(2, cl_ulong(chunk)));
    RDX_CHECK(k.kernel.setArg(3, part));
    RDX_CHECK(k.kernel.setArg(4, part));
    RDX_CHECK(k.kernel.setArg(5, counter));
  };
  set_args();
  const double args = median_us(rounds, set_args);
  auto launch_read = [&] {
    RDX_CHECK(impl.queue.enqueueNDRangeKernel(k.kernel, cl::NullRange, cl::NDRange(items),
                                              cl::NDRange(k.wg)));
    RDX_CHECK(
        impl.queue.enqueueReadBuffer(part, CL_TRUE, read_first * 4, read_count * 4, pinned.data()));
  };
  const double raw = median_us(rounds, launch_read);
  // The same with the read's event polled, as a call on a GPU waits (Plan::poll_result).
  auto launch_poll = [&] {
    RDX_CHECK(impl.queue.enqueueNDRangeKernel(k.kernel, cl::NullRange, cl::NDRange(items),
                                              cl::NDRange(k.wg)));
    cl::Event ev;
    RDX_CHECK(impl.queue.enqueueReadBuffer(part, CL_FALSE, read_first * 4, read_count * 4,
                                           pinned.data(), nullptr, &ev));
    RDX_CHECK(impl.queue.flush());
    for (cl_int status = CL_QUEUED; status != CL_COMPLETE;) {
      RDX_CHECK(ev.getInfo(CL_EVENT_COMMAND_EXECUTION_STATUS, &status));
      if (status < 0) throw rdx::ClError(status, "clEnqueueReadBuffer");
    }
  };
  const double raw_poll = median_us(rounds, launch_poll);
  // The same with the arguments set again before each launch, as every call sets them.
  const double raw_args_poll = median_us(rounds, [&] {
    set_args();
    launch_poll();
  });
  const double enqueue = median_us(rounds, [&] {
    RDX_CHECK(impl.queue.enqueueNDRangeKernel(k.kernel, cl::NullRange, cl::NDRange(items),
                                              cl::NDRange(k.wg)));
    RDX_CHECK(impl.queue.finish());
  });
  const double floor = rdx::measure_roundtrip(ctx, rounds) * 1e6;
  // The whole call again, last: the first measurement may run while the device's clocks rise.
  const double call_last = median_us(
      rounds, [&] { (void)rdx::reduce(ctx, rdx::Type::F32, buf, n, rdx::Op::Sum, opts); });
  float check = 0;
  for (std::uint64_t g = 0; g < read_count; ++g) {
    float x = 0;
    std::memcpy(&x, pinned.data() + 4 * g, 4);
    check += x;
  }
  rdx::detail::print(
      "{{\"device\":\"{}\",\"n\":{},\"plan\":\"{}\",\"call_us\":{:.2f},\"call_last_us\":{:.2f},"
      "\"plan_us\":{:.2f},"
      "\"buffer_checks_us\":{:.2f},\"kept_plan_us\":{:.2f},\"set_args_us\":{:.2f},"
      "\"raw_launch_read_us\":{:.2f},\"raw_launch_poll_us\":{:.2f},\"raw_args_poll_us\":{:.2f},"
      "\"launch_finish_us\":{:.2f},"
      "\"empty_floor_us\":{:.2f},"
      "\"raw_result\":{}}}\n",
      ctx.device_info().name, n, plan.describe(), call, call_last, planning, checks, kept, args,
      raw, raw_poll, raw_args_poll, enqueue, floor, check);
}
