// Session 35: the yardstick of ../shared/bench with NATIVE_LAYOUTS (a subset of layouts) and a
// third operator, max_nan: NumPy's max (NaN propagates), as a plain max plus a NaN flag.
// Yardstick: segmented and axis reductions as a plain OpenMP + SIMD loop over every core (no
// OpenCL): what the CPU itself can do.
//
// Contract (the segmented form of clrdx bench's): one "call" reduces every segment of a host
// array of n elements into a host array of results; median of `reps` calls after warm-up.
// Data: element i holds i % 7.
//
// Layouts, all with n = 2^log2_n elements in total:
//   uniform:L   every segment has L elements (n / L segments) = the rows of an (n/L) x L
//               row-major matrix reduced along axis 1; L = 2^2, 2^4, ..., 2^20
//   powerlaw    segment s has 1 << (splitmix64(s) % 17) elements (1 .. 65536), segments follow
//               each other until n is reached (the last one is cut short)
//   columns:C   an (n/C) x C row-major matrix reduced along axis 0 (C results, one per column),
//               C = 2^2, 2^4, ..., 2^20
//
// Build: g++ -O3 -march=native -fopenmp -std=c++17 native_cpu_segmented.cpp -o native_cpu_segmented
// Run:   ./native_cpu_segmented [log2_n=26]       prints one JSON object per line
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
      off.push_back(std::min<std::int64_t>(n, off.back() + (std::int64_t(1) << (splitmix64(s) % 17))));
  } else {
    std::int64_t L = std::atoll(layout.c_str() + 8);  // "uniform:L"
    for (std::int64_t b = L; b <= n; b += L) off.push_back(b);
  }
  return off;
}

template <class T, bool Max, bool Nan = false>
static void segments(const T* x, const std::vector<std::int64_t>& off, T* out) {
  std::int64_t segs = std::int64_t(off.size()) - 1;
#pragma omp parallel for schedule(dynamic, 64)
  for (std::int64_t s = 0; s < segs; ++s) {
    T acc = Max ? x[off[s]] : T(0);
    const std::int64_t a = off[s], b = off[s + 1];
    if constexpr (Max && Nan) {
      int nan = 0;
#pragma omp simd reduction(max : acc) reduction(| : nan)
      for (std::int64_t i = a; i < b; ++i) {
        acc = x[i] > acc ? x[i] : acc;
        nan |= x[i] != x[i];
      }
      if (nan) acc = T(NAN);
    } else if constexpr (Max) {
#pragma omp simd reduction(max : acc)
      for (std::int64_t i = a; i < b; ++i) acc = x[i] > acc ? x[i] : acc;
    } else {
#pragma omp simd reduction(+ : acc)
      for (std::int64_t i = a; i < b; ++i) acc += x[i];
    }
    out[s] = acc;
  }
}

template <class T, bool Max>
static void columns(const T* x, std::int64_t rows, std::int64_t cols, T* out) {
  // Each thread owns a block of columns and walks the rows; the inner loop is contiguous.
  const std::int64_t blk = std::max<std::int64_t>(16, std::min<std::int64_t>(cols, 4096));
#pragma omp parallel for schedule(static)
  for (std::int64_t c0 = 0; c0 < cols; c0 += blk) {
    const std::int64_t c1 = std::min(cols, c0 + blk);
    for (std::int64_t c = c0; c < c1; ++c) out[c] = Max ? x[c] : T(0);
    for (std::int64_t r = Max ? 1 : 0; r < rows; ++r) {
      const T* row = x + r * cols;
#pragma omp simd
      for (std::int64_t c = c0; c < c1; ++c) out[c] = Max ? (row[c] > out[c] ? row[c] : out[c]) : out[c] + row[c];
    }
  }
  // Fewer column blocks than threads (narrow matrices) leaves cores idle: that is this loop's
  // honest limit, and a reducer that beats it there has earned it.
}

template <class T, bool Max, bool Nan = false>
static void bench(const char* type, const std::vector<T>& x, const std::string& layout) {
  const std::int64_t n = std::int64_t(x.size());
  std::vector<std::int64_t> off;
  std::int64_t cols = 0;
  if (layout.rfind("columns:", 0) == 0) cols = std::atoll(layout.c_str() + 8);
  else off = offsets_for(layout, n);
  std::int64_t results = cols ? cols : std::int64_t(off.size()) - 1;
  std::vector<T> out(results);
  auto call = [&] {
    if (cols) columns<T, Max>(x.data(), n / cols, cols, out.data());
    else segments<T, Max, Nan>(x.data(), off, out.data());
  };
  for (int i = 0; i < 3; ++i) call();
  int reps = n < (1 << 24) ? 50 : 15;
  std::vector<double> t(reps);
  for (auto& v : t) {
    auto t0 = std::chrono::steady_clock::now();
    call();
    v = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
  double s = t[reps / 2];
  std::printf("{\"impl\":\"native_segmented\",\"op\":\"%s\",\"type\":\"%s\",\"layout\":\"%s\",\"n\":%lld,"
              "\"results\":%lld,\"call_us\":%.2f,\"GBps\":%.2f,\"threads\":%d}\n",
              Nan ? "max_nan" : Max ? "max" : "sum", type, layout.c_str(), (long long)n, (long long)results, s * 1e6,
              n * sizeof(T) / s / 1e9, omp_get_max_threads());
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  int lg = argc > 1 ? std::atoi(argv[1]) : 26;
  std::int64_t n = std::int64_t(1) << lg;
  std::vector<float> xf(n);
  std::vector<int> xi(n);
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) { xf[i] = float(i % 7); xi[i] = int(i % 7); }
  std::vector<std::string> layouts;
  for (int k = 2; k <= 20; k += 2) layouts.push_back("uniform:" + std::to_string(1 << k));
  layouts.push_back("powerlaw");
  for (int k = 2; k <= 20; k += 2) layouts.push_back("columns:" + std::to_string(1 << k));
  const char* only = std::getenv("NATIVE_LAYOUTS");  // a comma-separated subset
  for (auto& l : layouts) {
    if (only && ("," + std::string(only) + ",").find("," + l + ",") == std::string::npos) continue;
    if (std::getenv("NATIVE_MAX_ONLY")) {
      bench<float, true>("f32", xf, l);
      bench<float, true, true>("f32", xf, l);
      continue;
    }
    bench<float, false>("f32", xf, l);
    bench<int, false>("i32", xi, l);
    bench<float, true>("f32", xf, l);
  }
}
