// probe_group_cost: what a launch of G work-groups costs through one OpenCL driver, apart from
// librdx. Each row is the median time of one call: launch, then read 4 bytes into pinned host
// memory (a non-blocking read, a flush, then polling the read's event, as librdx does on GPUs).
//   empty   : G groups of 256 work-items; work-item 0 writes the result, nobody reads input
//   partial : each work-item loads one float, a local tree, each group stores its partial
//   counter : partial + the last group (atomic ticket) combines the partials (fast.cl's finish)
//   twokern : partial, then a second launch of one group combines the partials
//   flags   : partial, each group but the last then sets its flag to the call's number (a plain
//             store after a fence), and the last group waits for every flag, then combines the
//             partials: a finish without atomics, which needs every group resident at once
//             (OpenCL promises no such progress; an H200 holds 1056 of these groups)
//   *_kwait : the same kernel, but the host polls the kernel's event to completion before it
//             enqueues the read (is the read's wait on the kernel what costs?)
//   spin    : `probe_group_cost spin I,I,...`: one group spinning I dependent steps, then the read
//             enqueued at once (read), after polling the kernel's event (kwait), after clFinish;
//             and other ways to the result: a blocking read (read_blocking), the read's event
//             waited for with clWaitForEvents (read_waitevents), the read on a second queue after
//             the kernel's event (read_2q), the kernel writing an ALLOC_HOST_PTR buffer that is
//             then mapped without blocking, its event polled, and unmapped (map)
// Usage: probe_group_cost [G,G,...]   (the first GPU; without one, the first device)
// Build: g++ -O2 -std=c++17 bench/probe_group_cost.cpp -lOpenCL -o probe_group_cost
#include "ocl_probe.hpp"

static const char* kSource = R"(  // after kProbePrelude (ocl_probe.hpp)
kernel void empty(global const float* in, global float* out) {
  if (get_global_id(0) == 0) out[0] = in[0] + 1.0f;
}
kernel void partial(global const float* in, global float* part) {
  local float sh[WG];
  const float t = group_sum(sh, in[get_global_id(0)]);
  if (get_local_id(0) == 0) part[get_group_id(0)] = t;
}
kernel void counter(global const float* in, global float* part, volatile global uint* ctr) {
  local float sh[WG];
  local uint ticket;
  const uint groups = get_num_groups(0);
  const float t = group_sum(sh, in[get_global_id(0)]);
  if (get_local_id(0) == 0) {
    part[get_group_id(0)] = t;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    ticket = atomic_inc(ctr);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ticket != groups - 1) return;
  float s = 0;
  for (uint k = get_local_id(0); k < groups; k += WG) s += ((volatile global float*)part)[k];
  const float r = group_sum(sh, s);
  if (get_local_id(0) == 0) { part[groups] = r; *ctr = 0; }
}
kernel void flags(global const float* in, global float* part, volatile global uint* flag,
                  uint epoch) {
  local float sh[WG];
  const uint groups = get_num_groups(0), g = get_group_id(0), lid = get_local_id(0);
  const float t = group_sum(sh, in[get_global_id(0)]);
  if (g + 1 < groups) {
    if (lid == 0) {
      part[g] = t;
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      flag[g] = epoch;
    }
    return;
  }
  for (uint k = lid; k + 1 < groups; k += WG)
    while (flag[k] != epoch) {
    }
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  float s = lid == 0 ? t : 0.0f;
  for (uint k = lid; k + 1 < groups; k += WG) s += ((volatile global float*)part)[k];
  const float r = group_sum(sh, s);
  if (lid == 0) part[groups] = r;
}
kernel void spin(global float* out, uint iters) {
  float x = out[1];
  for (uint i = 0; i < iters; ++i) x = fma(x, 0.999f, 0.5f);
  if (get_global_id(0) == 0) out[0] = x;
}
kernel void finish(global float* part, uint groups) {
  local float sh[WG];
  float s = 0;
  for (uint k = get_local_id(0); k < groups; k += WG) s += part[k];
  const float r = group_sum(sh, s);
  if (get_local_id(0) == 0) part[groups] = r;
}
)";

int main(int argc, char** argv) {
  std::vector<size_t> groups = {1, 2, 4, 8, 16, 64, 256, 1056};
  const bool spin_mode = argc > 1 && std::string(argv[1]) == "spin";
  if (spin_mode && argc < 3) {
    std::fputs("usage: probe_group_cost spin STEPS[,STEPS...]\n", stderr);
    return 2;
  }
  if (spin_mode) {
    ++argv;
    --argc;
  }
  if (argc > 1) groups = comma_list(argv[1]);
  const Probe probe(kSource);
  cl_device_id dev = probe.dev;
  cl_context ctx = probe.ctx;
  cl_command_queue q = probe.q;
  auto kernel = [&](const char* n) { return probe.kernel(n); };
  cl_int e;
  cl_kernel k_empty = kernel("empty"), k_partial = kernel("partial"), k_counter = kernel("counter"),
            k_finish = kernel("finish"), k_spin = kernel("spin"), k_flags = kernel("flags");
  // The spin mode's list is of steps: its kernel is one group and writes part[0].
  const size_t wg = 256, max_g = spin_mode ? 1 : *std::max_element(groups.begin(), groups.end());
  std::vector<float> ones(max_g * wg, 1.0f);
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ones.size() * 4,
                             ones.data(), &e);
  check(e, "clCreateBuffer(in)");
  cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (max_g + 1) * 4, nullptr, &e);
  check(e, "clCreateBuffer(part)");
  cl_uint zero = 0;
  cl_mem ctr = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero, &e);
  check(e, "clCreateBuffer(ctr)");
  std::vector<cl_uint> zeros(max_g, 0);
  cl_mem flag =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, max_g * 4, zeros.data(), &e);
  check(e, "clCreateBuffer(flag)");
  cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 16, nullptr, &e);
  check(e, "clCreateBuffer(pin)");
  auto* host = static_cast<float*>(clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                      0, 16, 0, nullptr, nullptr, &e));
  check(e, "clEnqueueMapBuffer");

  // The spin mode's other ways to the result: a second queue, and a buffer in host memory.
  cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &e);
  check(e, "clCreateCommandQueue(2)");
  cl_mem hostbuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 16, nullptr, &e);
  check(e, "clCreateBuffer(hostbuf)");
  auto poll = [&](cl_event ev) {
    cl_int st = CL_QUEUED;
    do
      check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr), "poll");
    while (st > CL_COMPLETE);
    check(st, "the command");
    clReleaseEvent(ev);
  };
  auto read_polled = [&](size_t at) {
    cl_event ev;
    check(clEnqueueReadBuffer(q, part, CL_FALSE, at * 4, 4, host, 0, nullptr, &ev), "read");
    check(clFlush(q), "clFlush");
    cl_int st = CL_QUEUED;
    do
      check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr), "poll");
    while (st > CL_COMPLETE);
    clReleaseEvent(ev);
  };
  auto launch = [&](cl_kernel k, size_t g, size_t l) {
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr), "launch");
  };
  // Launch, flush, poll the kernel's event to completion: the read is enqueued after it.
  auto launch_wait = [&](cl_kernel k, size_t g, size_t l) {
    cl_event ev;
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, &ev), "launch");
    check(clFlush(q), "clFlush");
    cl_int st = CL_QUEUED;
    do
      check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr), "poll");
    while (st > CL_COMPLETE);
    clReleaseEvent(ev);
  };
  check(clSetKernelArg(k_empty, 0, sizeof in, &in), "arg");
  check(clSetKernelArg(k_empty, 1, sizeof part, &part), "arg");
  check(clSetKernelArg(k_partial, 0, sizeof in, &in), "arg");
  check(clSetKernelArg(k_partial, 1, sizeof part, &part), "arg");
  check(clSetKernelArg(k_counter, 0, sizeof in, &in), "arg");
  check(clSetKernelArg(k_counter, 1, sizeof part, &part), "arg");
  check(clSetKernelArg(k_counter, 2, sizeof ctr, &ctr), "arg");
  check(clSetKernelArg(k_finish, 0, sizeof part, &part), "arg");
  check(clSetKernelArg(k_flags, 0, sizeof in, &in), "arg");
  check(clSetKernelArg(k_flags, 1, sizeof part, &part), "arg");
  check(clSetKernelArg(k_flags, 2, sizeof flag, &flag), "arg");
  cl_uint epoch = 0;  // the flags kernel's call number: its flags never need zeroing

  // One kernel over `items` work-items, then the read of part[at]: enqueued at once, or after
  // polling the kernel's event (kwait). The median call.
  auto timed = [&](cl_kernel k, size_t items, bool kwait, size_t at) {
    return median_us([&] {
      if (kwait)
        launch_wait(k, items, wg);
      else
        launch(k, items, wg);
      read_polled(at);
    });
  };
  check(clSetKernelArg(k_spin, 0, sizeof part, &part), "arg");
  std::printf("{\"device\":\"%s\",\"rows\":[\n", probe.name);
  if (spin_mode) {
    for (size_t i = 0; i < groups.size(); ++i) {
      const cl_uint it = static_cast<cl_uint>(groups[i]);
      check(clSetKernelArg(k_spin, 1, sizeof it, &it), "arg");
      const double t_read = timed(k_spin, wg, false, 0);
      const double t_kwait = timed(k_spin, wg, true, 0);
      const double t_finish = median_us([&] {
        launch(k_spin, wg, wg);
        check(clFinish(q), "clFinish");
        read_polled(0);
      });
      const double t_only = median_us([&] { launch_wait(k_spin, wg, wg); });
      const double t_blocking = median_us([&] {
        launch(k_spin, wg, wg);
        check(clEnqueueReadBuffer(q, part, CL_TRUE, 0, 4, host, 0, nullptr, nullptr), "read");
      });
      const double t_waitev = median_us([&] {
        launch(k_spin, wg, wg);
        cl_event ev;
        check(clEnqueueReadBuffer(q, part, CL_FALSE, 0, 4, host, 0, nullptr, &ev), "read");
        check(clFlush(q), "clFlush");
        check(clWaitForEvents(1, &ev), "clWaitForEvents");
        clReleaseEvent(ev);
      });
      const double t_2q = median_us([&] {
        cl_event kev, ev;
        size_t g = wg, l = wg;
        check(clEnqueueNDRangeKernel(q, k_spin, 1, nullptr, &g, &l, 0, nullptr, &kev), "launch");
        check(clFlush(q), "clFlush");
        check(clEnqueueReadBuffer(q2, part, CL_FALSE, 0, 4, host, 1, &kev, &ev), "read");
        check(clFlush(q2), "clFlush");
        poll(ev);
        clReleaseEvent(kev);
      });
      check(clSetKernelArg(k_spin, 0, sizeof hostbuf, &hostbuf), "arg");
      float mapped_value = 0;
      const double t_map = median_us([&] {
        launch(k_spin, wg, wg);
        cl_event ev;
        void* p = clEnqueueMapBuffer(q, hostbuf, CL_FALSE, CL_MAP_READ, 0, 4, 0, nullptr, &ev, &e);
        check(e, "clEnqueueMapBuffer");
        check(clFlush(q), "clFlush");
        poll(ev);
        mapped_value = *static_cast<volatile float*>(p);
        check(clEnqueueUnmapMemObject(q, hostbuf, p, 0, nullptr, nullptr), "unmap");
      });
      check(clFinish(q), "clFinish");
      check(clSetKernelArg(k_spin, 0, sizeof part, &part), "arg");
      std::printf(
          "{\"iters\":%u,\"kernel_polled_us\":%.2f,\"read_us\":%.2f,\"kwait_read_us\":%.2f,"
          "\"finish_read_us\":%.2f,\"read_blocking_us\":%.2f,\"read_waitevents_us\":%.2f,"
          "\"read_2q_us\":%.2f,\"map_us\":%.2f,\"read_value\":%g,\"map_value\":%g}%s\n",
          it, t_only, t_read, t_kwait, t_finish, t_blocking, t_waitev, t_2q, t_map, host[0],
          mapped_value, i + 1 < groups.size() ? "," : "");
    }
    std::printf("]}\n");
    return 0;
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const size_t g = groups[i];
    const cl_uint gu = static_cast<cl_uint>(g);
    check(clSetKernelArg(k_finish, 1, sizeof gu, &gu), "arg");
    const double t_empty = timed(k_empty, g * wg, false, 0);
    const double t_partial = timed(k_partial, g * wg, false, 0);
    const double t_counter = timed(k_counter, g * wg, false, g);
    const float got_counter = host[0];
    const double t_two = median_us([&] {
      launch(k_partial, g * wg, wg);
      launch(k_finish, wg, wg);
      read_polled(g);
    });
    const float got_two = host[0];
    const double t_flags = median_us([&] {
      ++epoch;
      check(clSetKernelArg(k_flags, 3, sizeof epoch, &epoch), "arg");
      launch(k_flags, g * wg, wg);
      read_polled(g);
    });
    const float got_flags = host[0];
    const double t_partial_kw = timed(k_partial, g * wg, true, 0);
    const double t_counter_kw = timed(k_counter, g * wg, true, g);
    const float got_counter_kw = host[0];
    std::printf(
        "{\"groups\":%zu,\"empty_us\":%.2f,\"partial_us\":%.2f,\"counter_us\":%.2f,"
        "\"twokern_us\":%.2f,\"partial_kwait_us\":%.2f,\"counter_kwait_us\":%.2f,"
        "\"flags_us\":%.2f,\"counter_ok\":%s,\"twokern_ok\":%s,\"flags_ok\":%s}%s\n",
        g, t_empty, t_partial, t_counter, t_two, t_partial_kw, t_counter_kw, t_flags,
        got_counter == float(g * wg) && got_counter_kw == float(g * wg) ? "true" : "false",
        got_two == float(g * wg) ? "true" : "false", got_flags == float(g * wg) ? "true" : "false",
        i + 1 < groups.size() ? "," : "");
  }
  std::printf("]}\n");
  return 0;
}
