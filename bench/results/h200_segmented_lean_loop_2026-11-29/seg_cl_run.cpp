// seg_cl_run.cpp: runs seg_reduce (a program source as librdx builds it for an f32 sum by
// offsets) through OpenCL alone, timed by the queue's profiling events, so that its kernel time
// in OpenCL can be set beside seg_ptx_run's (the same PTX through the CUDA driver API).
// Usage: seg_cl_run SOURCE.cl "OPTIONS" LOG2_N SEGMENT_LENGTH WG REPS
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x)                                                              \
  do {                                                                     \
    cl_int e_ = (x);                                                       \
    if (e_ != CL_SUCCESS) {                                                \
      std::fprintf(stderr, "%s: error %d (line %d)\n", #x, e_, __LINE__); \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)
int main(int argc, char** argv) {
  if (argc < 7) return std::fprintf(stderr, "usage: SOURCE.cl OPTIONS LOG2_N L WG REPS\n"), 2;
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  const std::string opts = std::string(argv[2]) + " -w";
  const std::uint64_t n = 1ull << std::atoi(argv[3]), L = std::atoll(argv[4]);
  const size_t wg = std::atoi(argv[5]);
  const int reps = std::atoi(argv[6]);
  const std::uint64_t segs = n / L;
  cl_platform_id plats[8];
  cl_uint np = 0;
  CK(clGetPlatformIDs(8, plats, &np));
  cl_device_id dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  for (cl_uint i = 0; i < np && !dev; ++i)  // no GPU: any device (a local check on PoCL)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr) != CL_SUCCESS) dev = nullptr;
  if (!dev) return std::fprintf(stderr, "no device\n"), 1;
  cl_int err;
  cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
  CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CK(err);
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  CK(err);
  if (clBuildProgram(prog, 1, &dev, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    std::vector<char> log(1 << 20);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log.data());
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "seg_reduce", &err);
  CK(err);
  size_t kwg = 0;
  cl_ulong lmem = 0, pmem = 0;
  CK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof kwg, &kwg, nullptr));
  CK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, nullptr));
  CK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pmem, &pmem, nullptr));
  std::vector<float> h(n);
  for (std::uint64_t i = 0; i < n; ++i) h[i] = float(i % 7);
  std::vector<std::uint64_t> off(segs + 1);
  for (std::uint64_t i = 0; i <= segs; ++i) off[i] = i * L;
  cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, h.data(), &err);
  CK(err);
  cl_mem doff = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (segs + 1) * 8, off.data(), &err);
  CK(err);
  cl_mem dv = clCreateBuffer(ctx, CL_MEM_READ_WRITE, segs * 4, nullptr, &err);
  CK(err);
  cl_mem di = clCreateBuffer(ctx, CL_MEM_READ_WRITE, segs * 8, nullptr, &err);
  CK(err);
  const cl_uint zero = 0;
  cl_mem dbad = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4, (void*)&zero, &err);
  CK(err);
  cl_ulong segments = segs;
  float empty = 0;
  CK(clSetKernelArg(k, 0, sizeof din, &din));
  CK(clSetKernelArg(k, 1, sizeof doff, &doff));
  CK(clSetKernelArg(k, 2, sizeof segments, &segments));
  CK(clSetKernelArg(k, 3, sizeof empty, &empty));
  CK(clSetKernelArg(k, 4, sizeof dv, &dv));
  CK(clSetKernelArg(k, 5, sizeof di, &di));
  CK(clSetKernelArg(k, 6, sizeof dbad, &dbad));
  const size_t global = segs * wg, local = wg;
  std::vector<double> t, w;
  for (int r = 0; r < reps; ++r) {
    cl_event ev;
    const auto t0 = std::chrono::steady_clock::now();
    CK(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, &ev));
    CK(clWaitForEvents(1, &ev));
    const auto t1 = std::chrono::steady_clock::now();
    cl_ulong a = 0, b = 0;
    CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, nullptr));
    CK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, nullptr));
    clReleaseEvent(ev);
    t.push_back((b - a) * 1e-9);
    w.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  std::vector<float> got(segs);
  CK(clEnqueueReadBuffer(q, dv, CL_TRUE, 0, segs * 4, got.data(), 0, nullptr, nullptr));
  std::uint64_t bad = 0;
  for (std::uint64_t i = 0; i < segs; ++i) {
    double want = 0;
    for (std::uint64_t j = i * L; j < (i + 1) * L; ++j) want += h[j];
    if (got[i] != (float)want) ++bad;
  }
  std::sort(t.begin(), t.end());
  std::sort(w.begin(), w.end());
  std::printf("{\"impl\":\"seg_reduce_cl\",\"kernel_wg\":%zu,\"local_bytes\":%llu,\"private_bytes\":%llu,\"L\":%llu,\"segments\":%llu,\"median_us\":%.2f,\"min_us\":%.2f,\"wall_median_us\":%.2f,\"GBps\":%.1f,\"wrong\":%llu}\n",
              kwg, (unsigned long long)lmem, (unsigned long long)pmem, (unsigned long long)L,
              (unsigned long long)segs, t[t.size() / 2] * 1e6, t[0] * 1e6, w[w.size() / 2] * 1e6,
              n * 4 / t[t.size() / 2] / 1e9, (unsigned long long)bad);
  return bad != 0;
}
