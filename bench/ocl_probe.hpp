// ocl_probe.hpp: what the hand-built OpenCL probes of bench/ (probe_group_cost, probe_host_write)
// share, apart from librdx: their kernels' prelude, a checked call, the median time of a call, a
// comma list of sizes, and the first GPU (else the first device) with a context, a plain queue
// and a program built from the prelude and one source.
#pragma once
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

// OpenCL C that every probe's source is built after (built_program): groups of WG = 256
// work-items, and a group's sum of one float a work-item through local memory (sequential
// addressing).
static const char* kProbePrelude = R"(
#define WG 256
inline float group_sum(local float* sh, float s) {
  const uint lid = get_local_id(0);
  sh[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = WG / 2; w > 0; w >>= 1) {
    if (lid < w) sh[lid] += sh[lid + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return sh[0];
}
)";

static void check(cl_int e, const char* what) {
  if (e != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %d\n", what, e);
    std::exit(1);
  }
}

using Clock = std::chrono::steady_clock;
// The median of `reps` timed calls of f, in microseconds, after 50 untimed ones.
template <class F>
static double median_us(F f, int reps = 400) {
  for (int i = 0; i < 50; ++i)
    f();
  std::vector<double> t(reps);
  for (auto& x : t) {
    const auto a = Clock::now();
    f();
    x = std::chrono::duration<double, std::micro>(Clock::now() - a).count();
  }
  std::sort(t.begin(), t.end());
  return t[reps / 2];
}

static std::vector<size_t> comma_list(const char* s) {
  std::vector<size_t> v;
  std::stringstream ss(s);
  for (std::string tok; std::getline(ss, tok, ',');)
    v.push_back(std::stoul(tok));
  return v;
}

// The first GPU, else the first device of the first platform; nullptr when there is none.
static cl_device_id first_gpu() {
  cl_uint np = 0;
  check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
  std::vector<cl_platform_id> ps(np);
  check(clGetPlatformIDs(np, ps.data(), nullptr), "clGetPlatformIDs");
  cl_device_id dev = nullptr;
  for (auto p : ps)
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) == CL_SUCCESS) break;
  if (!dev && np > 0) clGetDeviceIDs(ps[0], CL_DEVICE_TYPE_ALL, 1, &dev, nullptr);
  return dev;
}

// kProbePrelude and `source` built for dev in ctx; a failed build prints its log and exits.
static cl_program built_program(cl_context ctx, cl_device_id dev, const char* source) {
  cl_int e;
  const char* parts[] = {kProbePrelude, source};
  cl_program pr = clCreateProgramWithSource(ctx, 2, parts, nullptr, &e);
  check(e, "clCreateProgramWithSource");
  if (clBuildProgram(pr, 1, &dev, "", nullptr, nullptr) != CL_SUCCESS) {
    std::vector<char> log(1 << 16, '\0');
    clGetProgramBuildInfo(pr, dev, CL_PROGRAM_BUILD_LOG, log.size() - 1, log.data(), nullptr);
    std::fprintf(stderr, "clBuildProgram failed:\n%s\n", log.data());
    std::exit(1);
  }
  return pr;
}

// The first GPU (else the first device), its name, a context and a plain queue on it, and
// `source` built there; exits with a message where there is no device.
struct Probe {
  cl_device_id dev = nullptr;
  char name[256] = {};
  cl_context ctx = nullptr;
  cl_command_queue q = nullptr;
  cl_program pr = nullptr;

  explicit Probe(const char* source) {
    dev = first_gpu();
    if (!dev) {
      std::puts("no OpenCL device");
      std::exit(1);
    }
    check(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr), "clGetDeviceInfo");
    cl_int e;
    ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &e);
    check(e, "clCreateContext");
    q = clCreateCommandQueue(ctx, dev, 0, &e);
    check(e, "clCreateCommandQueue");
    pr = built_program(ctx, dev, source);
  }
  cl_kernel kernel(const char* n) const {
    cl_int e;
    cl_kernel k = clCreateKernel(pr, n, &e);
    check(e, n);
    return k;
  }
};
