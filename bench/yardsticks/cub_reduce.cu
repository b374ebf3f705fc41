// Yardstick: NVIDIA CUB's DeviceReduce on one NVIDIA GPU.
//
// Contract, identical to the one clrdx bench uses: one "call" reduces a device-resident array
// of n elements and brings the scalar back to host memory. Reported per call: the median of
// `reps` calls after warm-up ("call_us"), and the mean device time of back-to-back reductions
// without the read-back ("dev_us"). Data: element i holds i % 7.
//
// Build (CUDA 12+; CUB ships with the toolkit, under include/cccl on CUDA 13):
//   nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_reduce.cu -o cub_reduce
// Run:   ./cub_reduce [max_log2_n=30]        prints one JSON object per line
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <string>
#include <vector>

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t e_ = (x);                                                                \
    if (e_ != cudaSuccess) {                                                             \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, \
                   __LINE__);                                                            \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

struct Sum {
  template <class T>
  static cudaError_t run(void* t, size_t& b, const T* in, T* out, long long n) {
    return cub::DeviceReduce::Sum(t, b, in, out, n);
  }
  static const char* name() { return "sum"; }
};
struct Max {
  template <class T>
  static cudaError_t run(void* t, size_t& b, const T* in, T* out, long long n) {
    return cub::DeviceReduce::Max(t, b, in, out, n);
  }
  static const char* name() { return "max"; }
};

template <class Op, class T>
void bench(const char* type, size_t n) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  std::vector<T> blk(std::min<size_t>(n, 1 << 20));  // element i holds i % 7
  for (size_t off = 0; off < n; off += blk.size()) {
    size_t m = std::min(blk.size(), n - off);
    for (size_t i = 0; i < m; ++i)
      blk[i] = T((off + i) % 7);
    CHECK(cudaMemcpy(d + off, blk.data(), m * sizeof(T), cudaMemcpyHostToDevice));
  }
  T* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(T)));
  void* tmp = nullptr;
  size_t tmp_bytes = 0;
  CHECK(Op::run(tmp, tmp_bytes, d, out, (long long)n));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  T r{};
  auto call = [&] {
    CHECK(Op::run(tmp, tmp_bytes, d, out, (long long)n));
    CHECK(cudaMemcpy(&r, out, sizeof(T), cudaMemcpyDeviceToHost));
  };
  for (int i = 0; i < 5; ++i)
    call();
  int reps = n < (1u << 24) ? 200 : (n < (1u << 28) ? 50 : 10);
  std::vector<double> t(reps);
  for (auto& x : t) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    x = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  double call_s = t[reps / 2];
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  for (int i = 0; i < reps; ++i)
    CHECK(Op::run(tmp, tmp_bytes, d, out, (long long)n));
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  double dev_s = ms / 1e3 / reps;
  std::printf(
      "{\"impl\":\"cub\",\"op\":\"%s\",\"type\":\"%s\",\"n\":%zu,\"call_us\":%.2f,\"call_GBps\":%."
      "1f,"
      "\"dev_us\":%.2f,\"dev_GBps\":%.1f,\"result\":%.17g}\n",
      Op::name(), type, n, call_s * 1e6, n * sizeof(T) / call_s / 1e9, dev_s * 1e6,
      n * sizeof(T) / dev_s / 1e9, (double)r);
  std::fflush(stdout);
  CHECK(cudaFree(d));
  CHECK(cudaFree(out));
  CHECK(cudaFree(tmp));
}

int main(int argc, char** argv) {
  int max_log2 = argc > 1 ? std::atoi(argv[1]) : 30;
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("{\"device\":\"%s\",\"sms\":%d}\n", p.name, p.multiProcessorCount);
  for (int lg = 10; lg <= max_log2; lg += 2) {
    size_t n = size_t(1) << lg;
    bench<Sum, float>("f32", n);
    bench<Sum, int>("i32", n);
    bench<Sum, double>("f64", n);
    bench<Max, float>("f32", n);
  }
}
