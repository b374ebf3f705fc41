// seg_ptx_run.cu: runs seg_reduce (cl/segmented.cl as NVIDIA's OpenCL compiled it: the PTX from
// librdx's program cache) through the CUDA driver API, so that Nsight Compute, which sees no
// OpenCL launch, can profile it beside CUB's kernel. f32 sum by offsets, checked, one part a
// segment: the parameters (in, off, segments, empty_v, out_v, out_i, bad). Usage:
//   seg_ptx_run KERNEL.ptx LOG2_N SEGMENT_LENGTH WG REPS [MAX_REGISTERS: ptxas's cap, 0 none]
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#define CK(x)                                                                \
  do {                                                                       \
    CUresult r_ = (x);                                                       \
    if (r_ != CUDA_SUCCESS) {                                                \
      const char* s_ = nullptr;                                              \
      cuGetErrorString(r_, &s_);                                             \
      std::fprintf(stderr, "%s: %s (line %d)\n", #x, s_ ? s_ : "?", __LINE__); \
      std::exit(1);                                                          \
    }                                                                        \
  } while (0)
int main(int argc, char** argv) {
  if (argc < 6) return std::fprintf(stderr, "usage: KERNEL.ptx LOG2_N L WG REPS\n"), 2;
  std::ifstream f(argv[1]);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string ptx = ss.str();
  const std::uint64_t n = 1ull << std::atoi(argv[2]), L = std::atoll(argv[3]);
  const unsigned wg = std::atoi(argv[4]);
  const int reps = std::atoi(argv[5]);
  const std::uint64_t segs = n / L;
  cudaFree(nullptr);  // the primary context
  CUmodule mod;
  const unsigned max_regs = argc > 6 ? std::atoi(argv[6]) : 0;
  CUjit_option jo[1] = {CU_JIT_MAX_REGISTERS};
  void* jv[1] = {(void*)(std::uintptr_t)max_regs};
  CK(cuModuleLoadDataEx(&mod, ptx.c_str(), max_regs ? 1 : 0, jo, jv));
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, "seg_reduce"));
  // CARVEOUT (environment): the function's preferred shared-memory carveout, percent (-1: the
  // driver's default, unset here)
  int carve = -1;
  if (const char* c = std::getenv("CARVEOUT")) {
    carve = std::atoi(c);
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carve));
  }
  int occ = 0;
  CK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fn, wg, 0));
  int regs = 0, local_bytes = 0;
  CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
  CK(cuFuncGetAttribute(&local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
  std::vector<float> h(n);
  for (std::uint64_t i = 0; i < n; ++i) h[i] = float(i % 7);
  std::vector<std::uint64_t> off(segs + 1);
  for (std::uint64_t s = 0; s <= segs; ++s) off[s] = s * L;
  CUdeviceptr din, doff, dv, di, dbad;
  CK(cuMemAlloc(&din, n * 4));
  CK(cuMemAlloc(&doff, (segs + 1) * 8));
  CK(cuMemAlloc(&dv, segs * 4));
  CK(cuMemAlloc(&di, segs * 8));
  CK(cuMemAlloc(&dbad, 4));
  CK(cuMemcpyHtoD(din, h.data(), n * 4));
  CK(cuMemcpyHtoD(doff, off.data(), (segs + 1) * 8));
  CK(cuMemsetD32(dbad, 0, 1));
  std::uint64_t segments = segs;
  float empty = 0;
  void* args[] = {&din, &doff, &segments, &empty, &dv, &di, &dbad};
  std::vector<double> t;
  CUevent e0, e1;
  CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
  for (int r = 0; r < reps; ++r) {  // the kernel's time between two events
    CK(cuEventRecord(e0, nullptr));
    CK(cuLaunchKernel(fn, (unsigned)segs, 1, 1, wg, 1, 1, 0, nullptr, args, nullptr));
    CK(cuEventRecord(e1, nullptr));
    CK(cuEventSynchronize(e1));
    float ms = 0;
    CK(cuEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1e-3);
  }
  std::vector<float> got(segs);
  CK(cuMemcpyDtoH(got.data(), dv, segs * 4));
  std::uint64_t bad = 0;
  for (std::uint64_t s = 0; s < segs; ++s) {
    double want = 0;
    for (std::uint64_t i = s * L; i < (s + 1) * L; ++i) want += h[i];
    if (got[s] != (float)want) ++bad;
  }
  std::uint32_t badv = 0;
  CK(cuMemcpyDtoH(&badv, dbad, 4));
  std::fprintf(stderr, "bad flag %u, results %g %g %g, host %g\n", badv, got[0], got[1],
               got[segs - 1], double(h[0] + h[1]));
  std::sort(t.begin(), t.end());
  std::printf("{\"impl\":\"seg_reduce_ptx\",\"carveout\":%d,\"blocks_per_sm\":%d,\"max_regs\":%u,\"regs\":%d,\"local_bytes\":%d,\"L\":%llu,\"segments\":%llu,\"median_us\":%.2f,\"GBps\":%.1f,\"wrong\":%llu}\n",
              carve, occ, max_regs, regs, local_bytes, (unsigned long long)L, (unsigned long long)segs,
              t[t.size() / 2] * 1e6,
              n * 4 / t[t.size() / 2] / 1e9, (unsigned long long)bad);
  return bad != 0;
}
