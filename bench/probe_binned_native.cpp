// probe_binned_native.cpp: the fixed-bin sum's CPU inner loop (cl/binned_sum.cl, lanes_run: two
// sets of three bins of 16 f32 lanes, pairs of blocks of 4 vectors, one magnitude check a pair) as
// native AVX-512 code, against a plain sum of the same elements: the best of 7 calls at 1, 2, 4,
// 8 and all OpenMP threads, each thread on its own contiguous range, elements a second. What the
// machine itself does with the arithmetic that any_device adds (docs/performance.md, "any_device:
// fixed bins"). Not built with clrdx (AVX-512 only):
//   g++ -O3 -march=skylake-avx512 -mprefer-vector-width=512 -fopenmp probe_binned_native.cpp
//     -o probe_binned_native
//   OMP_PROC_BIND=close ./probe_binned_native 26   # 2^26 elements
#include <immintrin.h>
#include <omp.h>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
typedef float vf __attribute__((vector_size(64)));
typedef std::uint32_t vu __attribute__((vector_size(64)));
static inline vf or1(vf x) {
  vu b;
  std::memcpy(&b, &x, 64);
  b |= 1u;
  vf r;
  std::memcpy(&r, &b, 64);
  return r;
}
#define LEVEL(p, x)      \
  do {                   \
    vf m_ = p;           \
    vf q_ = or1(x) + m_; \
    p = q_;              \
    x += m_ - q_;        \
  } while (0)
#define BINS(p0, p1, p2, x) \
  do {                      \
    vf x_ = x;              \
    LEVEL(p0, x_);          \
    LEVEL(p1, x_);          \
    p2 += or1(x_);          \
  } while (0)
static float binned(const float* in, std::size_t n) {
  vf a0 = vf{} + 1.5f * 16384, a1 = vf{} + 1.5f * 2, a2 = vf{} + 1.5f / 4096, b0 = a0, b1 = a1,
     b2 = a2;
  vu bound = vu{} + 0x4b000000u, mask = vu{} + 0x7fffffffu;
  std::size_t i = 0;
  for (; i + 128 <= n; i += 128) {
    vf x[8];
    __m512i mag = _mm512_setzero_si512();
    for (int k = 0; k < 8; ++k) {
      __m512 l = _mm512_loadu_ps(in + i + 16 * k);
      x[k] = (vf)l;
      mag = _mm512_max_epu32(mag, _mm512_and_si512(_mm512_castps_si512(l), (__m512i)mask));
    }
    std::uint32_t mx = _mm512_reduce_max_epu32(mag);
    if (mx >= bound[0]) break;
    for (int k = 0; k < 4; ++k) {
      BINS(a0, a1, a2, x[k]);
      BINS(b0, b1, b2, x[4 + k]);
    }
  }
  vf s = a0 + a1 + a2 + b0 + b1 + b2;
  float r = 0;
  for (int l = 0; l < 16; ++l)
    r += s[l];
  return r + float(i);
}
static float plain(const float* in, std::size_t n) {
  vf a = vf{}, b = vf{}, c = vf{}, d = vf{};
  for (std::size_t i = 0; i + 64 <= n; i += 64) {
    a += (vf)_mm512_loadu_ps(in + i);
    b += (vf)_mm512_loadu_ps(in + i + 16);
    c += (vf)_mm512_loadu_ps(in + i + 32);
    d += (vf)_mm512_loadu_ps(in + i + 48);
  }
  vf s = a + b + c + d;
  float r = 0;
  for (int l = 0; l < 16; ++l)
    r += s[l];
  return r;
}
int main(int argc, char** argv) {
  const std::size_t n = std::size_t{1} << (argc > 1 ? atoi(argv[1]) : 24);
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float((i * 2654435761u) % 1000003) / 1000003.0f;
  const int maxt = omp_get_max_threads();
  for (int t : {1, 2, 4, 8, maxt}) {
    if (t > maxt) continue;
    for (int which = 0; which < 2; ++which) {
      double best = 1e30;
      volatile float sink = 0;
      for (int rep = 0; rep < 7; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        float tot = 0;
#pragma omp parallel num_threads(t) reduction(+ : tot)
        {
          int id = omp_get_thread_num();
          std::size_t per = n / t / 128 * 128, b = id * per;
          tot += which ? binned(v.data() + b, per) : plain(v.data() + b, per);
        }
        sink = sink + tot;
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                        .count();
        if (us < best) best = us;
      }
      std::printf("threads %2d %-6s n=2^%zu best %9.1f us  %6.2f Gfloat/s  %6.2f per thread\n", t,
                  which ? "binned" : "plain", (std::size_t)__builtin_ctzll(n), best, n / best / 1e3,
                  n / best / 1e3 / t);
    }
  }
}
