// probe_host_write: can a kernel hand its result to the host through host memory that the host
// watches, instead of a read command whose completion the host polls? Apart from librdx. Every
// row is the median time of one call, in microseconds.
//   read      : the kernel stores into a device buffer; a 4-byte read into pinned memory is
//               enqueued at once, flushed, and its event polled (librdx's path on GPUs)
//   kpoll     : the kernel alone, its event polled (no result reaches the host)
//   watch     : the kernel stores {value, call number} with one 8-byte store into a buffer made
//               with CL_MEM_ALLOC_HOST_PTR and mapped once; the host spins on the mapped words
//               until the call number appears, then releases the kernel's event unwaited
//   watch_uhp : the same through CL_MEM_USE_HOST_PTR over the host's own page-aligned memory
// Kernels: `spin` (one group of 256, work-item 0 runs STEPS dependent fmas, then stores), and
// `ticket` (G groups of 256 each load one float and reduce it; the last group to take an atomic
// ticket stores the sum: fast.cl's finish). `parts` has each group store {partial, call number}
// to the watched buffer; the host waits for all G and adds them.
// A watch that sees nothing within 2 s after the kernel's event completed prints "unseen": the
// driver does not write host memory from the kernel there.
// Usage: probe_host_write [STEPS,...] [G,...]   (the first GPU; without one, the first device)
// Build: g++ -O2 -std=c++17 bench/probe_host_write.cpp -lOpenCL -o probe_host_write
#include <cstdint>
#include <cstring>

#include "ocl_probe.hpp"

static const char* kSource = R"(  // after kProbePrelude (ocl_probe.hpp)
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
/* One 8-byte store: the value's bits and the call number arrive together. */
inline void post(global uint2* box, uint k, float v, uint seq) { box[k] = (uint2)(as_uint(v), seq); }
kernel void spin_dev(global float* out, global const float* in, uint iters) {
  float x = in[0];
  for (uint i = 0; i < iters; ++i) x = fma(x, 0.999f, 0.5f);
  if (get_global_id(0) == 0) out[0] = x;
}
kernel void spin_box(global uint2* box, global const float* in, uint iters, uint seq) {
  float x = in[0];
  for (uint i = 0; i < iters; ++i) x = fma(x, 0.999f, 0.5f);
  if (get_global_id(0) == 0) post(box, 0, x, seq);
}
/* dst: with box == 0, a float buffer (part[groups] is the result); else the watched words. */
kernel void ticket(global const float* in, global float* part, volatile global uint* ctr,
                   global uint2* box, uint to_box, uint seq) {
  local float sh[WG];
  local uint t;
  const uint groups = get_num_groups(0);
  const float s = group_sum(sh, in[get_global_id(0)]);
  if (get_local_id(0) == 0) {
    part[get_group_id(0)] = s;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    t = atomic_inc(ctr);
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (t != groups - 1) return;
  float a = 0;
  for (uint k = get_local_id(0); k < groups; k += WG) a += ((volatile global float*)part)[k];
  const float r = group_sum(sh, a);
  if (get_local_id(0) == 0) {
    *ctr = 0;
    if (to_box) post(box, 0, r, seq); else part[groups] = r;
  }
}
kernel void parts(global const float* in, global uint2* box, uint seq) {
  local float sh[WG];
  const float s = group_sum(sh, in[get_global_id(0)]);
  if (get_local_id(0) == 0) post(box, get_group_id(0), s, seq);
}
kernel void parts_dev(global const float* in, global float* part) {
  local float sh[WG];
  const float s = group_sum(sh, in[get_global_id(0)]);
  if (get_local_id(0) == 0) part[get_group_id(0)] = s;
}
)";

int main(int argc, char** argv) {
  std::vector<size_t> steps = {0, 1000, 10000, 100000};
  std::vector<size_t> groups = {1, 16, 256, 1056};
  if (argc > 1) steps = comma_list(argv[1]);
  if (argc > 2) groups = comma_list(argv[2]);
  const Probe probe(kSource);
  cl_device_id dev = probe.dev;
  cl_context ctx = probe.ctx;
  cl_command_queue q = probe.q;
  auto kernel = [&](const char* n) { return probe.kernel(n); };
  cl_int e;
  cl_bool unified = CL_FALSE;
  check(clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, nullptr),
        "clGetDeviceInfo");
  cl_kernel k_spin_dev = kernel("spin_dev"), k_spin_box = kernel("spin_box"),
            k_ticket = kernel("ticket"), k_parts = kernel("parts"),
            k_parts_dev = kernel("parts_dev");
  const size_t wg = 256, max_g = *std::max_element(groups.begin(), groups.end());
  std::vector<float> ones(max_g * wg, 1.0f);
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ones.size() * 4,
                             ones.data(), &e);
  check(e, "clCreateBuffer(in)");
  cl_mem part = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (max_g + 1) * 4, nullptr, &e);
  check(e, "clCreateBuffer(part)");
  cl_uint zero = 0;
  cl_mem ctr = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, &zero, &e);
  check(e, "clCreateBuffer(ctr)");
  const size_t box_bytes = max_g * 8;
  cl_mem pinned = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                 std::max<size_t>(box_bytes, (max_g + 1) * 4), nullptr, &e);
  check(e, "clCreateBuffer(pinned)");
  auto* host = static_cast<float*>(clEnqueueMapBuffer(q, pinned, CL_TRUE, CL_MAP_READ, 0,
                                                      4 * (max_g + 1), 0, nullptr, nullptr, &e));
  check(e, "clEnqueueMapBuffer(pinned)");
  // The watched buffers, each mapped once and kept mapped.
  cl_mem box_ahp =
      clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, box_bytes, nullptr, &e);
  check(e, "clCreateBuffer(box_ahp)");
  auto* w_ahp = static_cast<volatile uint64_t*>(clEnqueueMapBuffer(
      q, box_ahp, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, box_bytes, 0, nullptr, nullptr, &e));
  check(e, "clEnqueueMapBuffer(box_ahp)");
  void* own = std::aligned_alloc(4096, (box_bytes + 4095) / 4096 * 4096);
  std::fill_n(static_cast<char*>(own), box_bytes, 0);
  cl_mem box_uhp = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, box_bytes, own, &e);
  check(e, "clCreateBuffer(box_uhp)");
  auto* w_uhp = static_cast<volatile uint64_t*>(clEnqueueMapBuffer(
      q, box_uhp, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, box_bytes, 0, nullptr, nullptr, &e));
  check(e, "clEnqueueMapBuffer(box_uhp)");
  check(clFinish(q), "clFinish");

  auto status = [&](cl_event ev) {
    cl_int st = CL_QUEUED;
    check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr), "poll");
    check(st < 0 ? st : CL_SUCCESS, "the command");
    return st;
  };
  auto poll = [&](cl_event ev) {
    while (status(ev) > CL_COMPLETE) {
    }
    clReleaseEvent(ev);
  };
  auto launch = [&](cl_kernel k, size_t g, cl_event* ev) {
    size_t l = wg;
    check(clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &l, 0, nullptr, ev), "launch");
  };
  auto read_polled = [&](size_t at) {
    cl_event ev;
    check(clEnqueueReadBuffer(q, part, CL_FALSE, at * 4, 4, host, 0, nullptr, &ev), "read");
    check(clFlush(q), "clFlush");
    poll(ev);
  };
  cl_uint seq = 0;
  long early = 0, calls = 0;  // watches that saw the result before the kernel's event completed
  bool unseen = false;
  // Spins until all `count` words of `w` carry `seq`; returns the sum of their values.
  auto watch = [&](volatile uint64_t* w, size_t count, cl_event kev) {
    check(clFlush(q), "clFlush");
    Clock::time_point done{};
    float s = 0;
    for (size_t k = 0; k < count; ++k) {
      uint64_t x;
      while (((x = w[k]) >> 32) != seq) {
        if (done == Clock::time_point{} && status(kev) == CL_COMPLETE) done = Clock::now();
        if (done != Clock::time_point{} && Clock::now() - done > std::chrono::seconds(2)) {
          unseen = true;
          check(clFinish(q), "clFinish");
          clReleaseEvent(kev);
          return -1.0f;
        }
      }
      uint32_t bits = static_cast<uint32_t>(x);
      float v;
      std::memcpy(&v, &bits, 4);
      s += v;
    }
    if (status(kev) != CL_COMPLETE) ++early;
    ++calls;
    clReleaseEvent(kev);
    return s;
  };
  std::printf("{\"device\":\"%s\",\"host_unified_memory\":%s,\"rows\":[\n", probe.name,
              unified ? "true" : "false");
  bool first = true;
  auto row_end = [&] {
    std::printf("%s", first ? "" : ",\n");
    first = false;
  };
  for (size_t it : steps) {
    const cl_uint iters = static_cast<cl_uint>(it);
    check(clSetKernelArg(k_spin_dev, 0, sizeof part, &part), "arg");
    check(clSetKernelArg(k_spin_dev, 1, sizeof in, &in), "arg");
    check(clSetKernelArg(k_spin_dev, 2, sizeof iters, &iters), "arg");
    check(clSetKernelArg(k_spin_box, 1, sizeof in, &in), "arg");
    check(clSetKernelArg(k_spin_box, 2, sizeof iters, &iters), "arg");
    const double t_read = median_us([&] {
      launch(k_spin_dev, wg, nullptr);
      read_polled(0);
    });
    const float v_read = host[0];
    const double t_kpoll = median_us([&] {
      cl_event ev;
      launch(k_spin_dev, wg, &ev);
      check(clFlush(q), "clFlush");
      poll(ev);
    });
    double t_watch[2];
    float v_watch[2];
    long early_of[2];
    for (int b = 0; b < 2; ++b) {
      cl_mem box = b ? box_uhp : box_ahp;
      volatile uint64_t* w = b ? w_uhp : w_ahp;
      check(clSetKernelArg(k_spin_box, 0, sizeof box, &box), "arg");
      early = calls = 0;
      unseen = false;
      t_watch[b] = median_us([&] {
        if (unseen) return;
        ++seq;
        check(clSetKernelArg(k_spin_box, 3, sizeof seq, &seq), "arg");
        cl_event ev;
        launch(k_spin_box, wg, &ev);
        v_watch[b] = watch(w, 1, ev);
      });
      early_of[b] = unseen ? -1 : early;
      if (unseen) t_watch[b] = -1;
    }
    check(clFinish(q), "clFinish");
    row_end();
    std::printf(
        "{\"kernel\":\"spin\",\"steps\":%zu,\"read_us\":%.2f,\"kpoll_us\":%.2f,"
        "\"watch_us\":%.2f,\"watch_uhp_us\":%.2f,\"watch_early\":%ld,"
        "\"watch_uhp_early\":%ld,\"calls\":450,\"ok\":%s}",
        it, t_read, t_kpoll, t_watch[0], t_watch[1], early_of[0], early_of[1],
        (v_watch[0] == v_read || t_watch[0] < 0) && (v_watch[1] == v_read || t_watch[1] < 0)
            ? "true"
            : "false");
  }
  const cl_uint no = 0, yes = 1;
  for (size_t g : groups) {
    check(clSetKernelArg(k_ticket, 0, sizeof in, &in), "arg");
    check(clSetKernelArg(k_ticket, 1, sizeof part, &part), "arg");
    check(clSetKernelArg(k_ticket, 2, sizeof ctr, &ctr), "arg");
    check(clSetKernelArg(k_ticket, 3, sizeof box_ahp, &box_ahp), "arg");
    check(clSetKernelArg(k_ticket, 4, sizeof no, &no), "arg");
    check(clSetKernelArg(k_ticket, 5, sizeof seq, &seq), "arg");
    const double t_read = median_us([&] {
      launch(k_ticket, g * wg, nullptr);
      read_polled(g);
    });
    const bool ok_read = host[0] == float(g * wg);
    check(clSetKernelArg(k_ticket, 4, sizeof yes, &yes), "arg");
    unseen = false;
    float v_watch = 0;
    early = calls = 0;
    double t_watch = median_us([&] {
      if (unseen) return;
      ++seq;
      check(clSetKernelArg(k_ticket, 5, sizeof seq, &seq), "arg");
      cl_event ev;
      launch(k_ticket, g * wg, &ev);
      v_watch = watch(w_ahp, 1, ev);
    });
    const long early_ticket = unseen ? -1 : early;
    if (unseen) t_watch = -1;
    // Host finish: partials read back (librdx's host_finish), or posted to the watched words.
    check(clSetKernelArg(k_parts_dev, 0, sizeof in, &in), "arg");
    check(clSetKernelArg(k_parts_dev, 1, sizeof part, &part), "arg");
    std::vector<float> back(g);
    const double t_parts_read = median_us([&] {
      launch(k_parts_dev, g * wg, nullptr);
      cl_event ev;
      check(clEnqueueReadBuffer(q, part, CL_FALSE, 0, g * 4, host, 0, nullptr, &ev), "read");
      check(clFlush(q), "clFlush");
      poll(ev);
    });
    check(clSetKernelArg(k_parts, 0, sizeof in, &in), "arg");
    check(clSetKernelArg(k_parts, 1, sizeof box_ahp, &box_ahp), "arg");
    unseen = false;
    float v_parts = 0;
    early = calls = 0;
    double t_parts = median_us([&] {
      if (unseen) return;
      ++seq;
      check(clSetKernelArg(k_parts, 2, sizeof seq, &seq), "arg");
      cl_event ev;
      launch(k_parts, g * wg, &ev);
      v_parts = watch(w_ahp, g, ev);
    });
    const long early_parts = unseen ? -1 : early;
    if (unseen) t_parts = -1;
    check(clFinish(q), "clFinish");
    row_end();
    std::printf(
        "{\"kernel\":\"ticket\",\"groups\":%zu,\"read_us\":%.2f,\"watch_us\":%.2f,"
        "\"watch_early\":%ld,\"parts_read_us\":%.2f,\"parts_watch_us\":%.2f,"
        "\"parts_watch_early\":%ld,\"ok\":%s}",
        g, t_read, t_watch, early_ticket, t_parts_read, t_parts, early_parts,
        ok_read && (t_watch < 0 || v_watch == float(g * wg)) &&
                (t_parts < 0 || v_parts == float(g * wg))
            ? "true"
            : "false");
  }
  std::printf("\n]}\n");
  return 0;
}
