// Yardstick: the host CPU reducing in plain C++, no OpenCL: OpenMP over every core, SIMD inside.
//
// Contract, identical to the one clrdx bench uses: one "call" reduces an array of n elements that
// is already in memory and yields the scalar. Reported: the median of `reps` calls after warm-up.
// Data: element i holds i % 7. The f32 sum uses `omp simd` reassociation, as any fast CPU sum does.
//
// Build:  g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_reduce.cpp -o native_cpu_reduce
// Run:    ./native_cpu_reduce [max_log2_n=28]      prints one JSON object per line
#include <omp.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

template <class T>
T sum(const T* p, size_t n) {
  T acc = 0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
  for (size_t i = 0; i < n; ++i)
    acc += p[i];
  return acc;
}
template <class T>
T max(const T* p, size_t n) {
  T acc = std::numeric_limits<T>::lowest();
#pragma omp parallel for simd reduction(max : acc) schedule(static)
  for (size_t i = 0; i < n; ++i)
    acc = p[i] > acc ? p[i] : acc;
  return acc;
}

template <class T, class F>
void bench(const char* op, const char* type, size_t n, F f) {
  std::vector<T> h(n);
#pragma omp parallel for schedule(static)  // first touch by the threads that will read it
  for (size_t i = 0; i < n; ++i)
    h[i] = T(i % 7);
  T r{};
  for (int i = 0; i < 3; ++i)
    r = f(h.data(), n);
  int reps = n < (1u << 22) ? 200 : (n < (1u << 27) ? 30 : 8);
  std::vector<double> t(reps);
  for (auto& x : t) {
    auto t0 = std::chrono::steady_clock::now();
    r = f(h.data(), n);
    x = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  double s = t[reps / 2];
  std::printf(
      "{\"impl\":\"native-omp\",\"threads\":%d,\"op\":\"%s\",\"type\":\"%s\",\"n\":%zu,"
      "\"call_us\":%.2f,\"call_GBps\":%.1f,\"result\":%.17g}\n",
      omp_get_max_threads(), op, type, n, s * 1e6, n * sizeof(T) / s / 1e9, (double)r);
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  int max_log2 = argc > 1 ? std::atoi(argv[1]) : 28;
  for (int lg = 10; lg <= max_log2; lg += 2) {
    size_t n = size_t(1) << lg;
    bench<float>("sum", "f32", n, sum<float>);
    bench<int>("sum", "i32", n, sum<int>);
    bench<double>("sum", "f64", n, sum<double>);
    bench<float>("max", "f32", n, max<float>);
  }
}
