// Probe: how low can one OpenCL "launch a tiny kernel and get 4 bytes back on the host" go?
// (a) kernel + clFinish; (b) kernel + blocking read into pageable; (c) into pinned (mapped
// ALLOC_HOST_PTR) memory; (d) kernel writes straight into a mapped ALLOC_HOST_PTR buffer + finish;
// (e) kernel writes a flag into a host-resident buffer, host clFlush then spins on the flag.
// Any argument: the queue is created with CL_QUEUE_PROFILING_ENABLE.
// Build: g++ -O2 -std=c++17 ocl_floor_probe.cpp -lOpenCL -o ocl_floor_probe
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
static const char* src = R"(
__kernel void k(__global const float* in, __global volatile uint* out, uint tag) {
  if (get_global_id(0) == 0) { out[1] = as_uint(in[0] + 1.0f); mem_fence(CLK_GLOBAL_MEM_FENCE); out[0] = tag; }
})";
using clk = std::chrono::steady_clock;
template <class F>
double med(F f, int reps = 400) {
  for (int i = 0; i < 50; ++i)
    f(i);
  std::vector<double> t(reps);
  for (int i = 0; i < reps; ++i) {
    auto a = clk::now();
    f(i + 100);
    t[i] = std::chrono::duration<double, std::micro>(clk::now() - a).count();
  }
  std::sort(t.begin(), t.end());
  return t[reps / 2];
}
int main(int argc, char**) {
  cl_uint np;
  clGetPlatformIDs(0, nullptr, &np);
  std::vector<cl_platform_id> ps(np);
  clGetPlatformIDs(np, ps.data(), nullptr);
  cl_device_id dev = nullptr;
  for (auto p : ps)
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) == CL_SUCCESS) break;
  if (!dev) {
    std::puts("no GPU");
    return 1;
  }
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
  cl_int e;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, argc > 1 ? CL_QUEUE_PROFILING_ENABLE : 0, &e);
  cl_program pr = clCreateProgramWithSource(ctx, 1, &src, nullptr, &e);
  clBuildProgram(pr, 1, &dev, "", nullptr, nullptr);
  cl_kernel k = clCreateKernel(pr, "k", &e);
  float one = 1;
  cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 4, &one, &e);
  cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, nullptr, &e);
  cl_mem hout = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 8, nullptr, &e);
  cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, 8, nullptr, &e);
  auto* pinp = (cl_uint*)clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 8, 0,
                                            nullptr, nullptr, &e);
  auto* hp = (volatile cl_uint*)clEnqueueMapBuffer(q, hout, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                   8, 0, nullptr, nullptr, &e);
  size_t g = 1;
  auto launch = [&](cl_mem out, cl_uint tag) {
    clSetKernelArg(k, 0, sizeof in, &in);
    clSetKernelArg(k, 1, sizeof out, &out);
    clSetKernelArg(k, 2, 4, &tag);
    clEnqueueNDRangeKernel(q, k, 1, nullptr, &g, &g, 0, nullptr, nullptr);
  };
  cl_uint pageable[2];
  double a = med([&](int i) {
    launch(dout, i);
    clFinish(q);
  });
  double b = med([&](int i) {
    launch(dout, i);
    clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 8, pageable, 0, nullptr, nullptr);
  });
  double c = med([&](int i) {
    launch(dout, i);
    clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 8, pinp, 0, nullptr, nullptr);
  });
  double d = med([&](int i) {
    launch(hout, i);
    clFinish(q);
  });
  long spins_max = 0;
  int timeouts = 0;
  double f = med([&](int i) {
    launch(hout, 1000000 + i);
    clFlush(q);
    long s = 0;
    while (hp[0] != cl_uint(1000000 + i)) {
      if (++s > 2000000) {
        ++timeouts;
        break;
      }
    }
    spins_max = std::max(spins_max, s);
  });
  clFinish(q);
  std::printf(
      "{\"device\":\"%s\",\"profiling\":%d,\"finish_us\":%.2f,\"read_pageable_us\":%.2f,\"read_"
      "pinned_us\":%.2f,\"mapped_write_finish_us\":%.2f,\"mapped_flag_spin_us\":%.2f,\"spin_"
      "timeouts\":%d,\"value\":%g}\n",
      name, argc > 1, a, b, c, d, f, timeouts, (double)*(const float*)&hp[1]);
}
