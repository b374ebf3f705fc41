// Yardstick: NVIDIA CUB's DeviceSegmentedReduce on one NVIDIA GPU.
//
// Contract (the segmented form of clrdx bench's): one "call" reduces every segment of a
// device-resident array of n elements into a device-resident array of results (one per
// segment) and waits for it to finish; results are NOT read back (that would time PCIe, not the
// reducer). Offsets are device-resident too (num_segments + 1 of them, 64-bit). Reported: the
// median of `reps` calls after warm-up ("call_us") and the achieved GB/s over the input bytes.
// Data: element i holds i % 7. One result row is checked against the host.
//
// Layouts, all with n = 2^log2_n elements in total:
//   uniform:L   every segment has L elements (n / L segments), L = 2^2, 2^4, ..., 2^20
//   powerlaw    segment s has 1 << (splitmix64(s) % 17) elements (1 .. 65536), segments follow
//               each other until n is reached (the last one is cut short); splitmix64 below
//
// Build (CUDA 12+; CUB ships with the toolkit, under include/cccl on CUDA 13):
//   nvcc -O3 -std=c++17 -arch=sm_90 -I/usr/local/cuda/include/cccl cub_segmented_reduce.cu \
//     -o cub_segmented_reduce
// Run:   ./cub_segmented_reduce [log2_n=28]      prints one JSON object per line
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_segmented_reduce.cuh>
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

static std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static std::vector<std::int64_t> offsets_for(const std::string& layout, std::int64_t n) {
  std::vector<std::int64_t> off{0};
  if (layout == "powerlaw") {
    for (std::uint64_t s = 0; off.back() < n; ++s)
      off.push_back(
          std::min<std::int64_t>(n, off.back() + (std::int64_t(1) << (splitmix64(s) % 17))));
  } else {
    std::int64_t L = std::atoll(layout.c_str() + 8);  // "uniform:L"
    for (std::int64_t b = L; b <= n; b += L)
      off.push_back(b);
  }
  return off;
}

struct Sum {
  template <class T>
  static cudaError_t run(void* t, size_t& b, const T* in, T* out, int segs, const std::int64_t* o) {
    return cub::DeviceSegmentedReduce::Sum(t, b, in, out, segs, o, o + 1);
  }
  template <class T>
  static T host(const T* x, std::int64_t a, std::int64_t b) {
    T s = 0;
    for (auto i = a; i < b; ++i)
      s += x[i];
    return s;
  }
  static const char* name() { return "sum"; }
};
struct Max {
  template <class T>
  static cudaError_t run(void* t, size_t& b, const T* in, T* out, int segs, const std::int64_t* o) {
    return cub::DeviceSegmentedReduce::Max(t, b, in, out, segs, o, o + 1);
  }
  template <class T>
  static T host(const T* x, std::int64_t a, std::int64_t b) {
    T s = x[a];
    for (auto i = a; i < b; ++i)
      s = std::max(s, x[i]);
    return s;
  }
  static const char* name() { return "max"; }
};

template <class Op, class T>
void bench(const char* type, std::int64_t n, const std::string& layout) {
  std::vector<T> h(n);
  for (std::int64_t i = 0; i < n; ++i)
    h[i] = T(i % 7);
  auto off = offsets_for(layout, n);
  int segs = int(off.size() - 1);
  T* d = nullptr;
  T* out = nullptr;
  std::int64_t* o = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMalloc(&out, segs * sizeof(T)));
  CHECK(cudaMalloc(&o, off.size() * sizeof(std::int64_t)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(o, off.data(), off.size() * sizeof(std::int64_t), cudaMemcpyHostToDevice));
  void* tmp = nullptr;
  size_t tmp_bytes = 0;
  CHECK(Op::run(tmp, tmp_bytes, d, out, segs, o));
  CHECK(cudaMalloc(&tmp, tmp_bytes));
  auto call = [&] {
    CHECK(Op::run(tmp, tmp_bytes, d, out, segs, o));
    CHECK(cudaDeviceSynchronize());
  };
  for (int i = 0; i < 3; ++i)
    call();
  int reps = n < (1 << 24) ? 100 : 20;
  std::vector<double> t(reps);
  for (auto& x : t) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    x = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  double s = t[reps / 2];
  int probe = segs / 2;  // check one segment against the host
  T got{};
  CHECK(cudaMemcpy(&got, out + probe, sizeof(T), cudaMemcpyDeviceToHost));
  T want = Op::template host<T>(h.data(), off[probe], off[probe + 1]);
  std::printf(
      "{\"impl\":\"cub_segmented\",\"op\":\"%s\",\"type\":\"%s\",\"layout\":\"%s\",\"n\":%lld,"
      "\"segments\":%d,\"call_us\":%.2f,\"GBps\":%.1f,\"checked\":%s}\n",
      Op::name(), type, layout.c_str(), (long long)n, segs, s * 1e6, n * sizeof(T) / s / 1e9,
      got == want ? "true" : "false");
  std::fflush(stdout);
  CHECK(cudaFree(d));
  CHECK(cudaFree(out));
  CHECK(cudaFree(o));
  CHECK(cudaFree(tmp));
}

int main(int argc, char** argv) {
  int lg = argc > 1 ? std::atoi(argv[1]) : 28;
  std::int64_t n = std::int64_t(1) << lg;
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("{\"device\":\"%s\",\"sms\":%d}\n", p.name, p.multiProcessorCount);
  std::vector<std::string> layouts;
  for (int k = 2; k <= 20; k += 2)
    layouts.push_back("uniform:" + std::to_string(1 << k));
  layouts.push_back("powerlaw");
  for (auto& l : layouts) {
    bench<Sum, float>("f32", n, l);
    bench<Sum, int>("i32", n, l);
    bench<Max, float>("f32", n, l);
  }
}
