// bench_offset: a device-resident input read from an element offset (rdx::BufferAt) against the
// same count read from the buffer's start, in one process, alternating rounds: what an offset
// costs (a PyOpenCL slice). Prints one line per offset: the median time of each and the ratio
// (offset's GB/s over offset 0's), and checks that both give the same result as the host copy's.
//   bench_offset DEVICE TYPE(f32|i32) LOG2_N ROUNDS OFFSET...

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rdx/rdx.hpp"

namespace {

double seconds_of(rdx::Context& ctx, rdx::Type type, const rdx::BufferAt& at, std::uint64_t n,
                  rdx::Scalar* value) {
  const auto t0 = std::chrono::steady_clock::now();
  const rdx::Result r = rdx::reduce(ctx, type, at, n, rdx::Op::Sum);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  *value = r.value;
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: bench_offset DEVICE f32|i32 LOG2_N ROUNDS OFFSET...\n");
    return 2;
  }
  try {
    rdx::Context ctx(argv[1]);
    const rdx::Type type = rdx::parse_type(argv[2]);
    if (type != rdx::Type::F32 && type != rdx::Type::I32) throw rdx::ArgumentError("f32 or i32");
    const std::uint64_t n = std::uint64_t{1} << std::stoi(argv[3]);
    const int rounds = std::stoi(argv[4]);
    std::vector<std::uint64_t> offsets;
    for (int i = 5; i < argc; ++i)
      offsets.push_back(std::stoull(argv[i]));
    const std::uint64_t most = *std::max_element(offsets.begin(), offsets.end());
    // 0, 1, 2, 0, ...: each result is checked against the host's sum of its own range.
    std::vector<std::int32_t> host(n + most);
    for (std::uint64_t i = 0; i < host.size(); ++i)
      host[i] = static_cast<std::int32_t>(i % 3);
    std::vector<float> hostf(host.begin(), host.end());
    const void* data = type == rdx::Type::F32 ? static_cast<const void*>(hostf.data())
                                              : static_cast<const void*>(host.data());
    cl_int err = CL_SUCCESS;
    cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.size() * 4,
                   const_cast<void*>(data), &err);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateBuffer");
    std::printf("%s, %s sum of 2^%s elements, %d rounds\n", ctx.device_info().name.c_str(), argv[2],
                argv[3], rounds);
    int status = 0;
    for (const std::uint64_t off : offsets) {
      // [off, off + n) against [0, n).
      std::vector<double> t0, t1;
      rdx::Scalar v0, v1;
      for (int r = 0; r < rounds + 2; ++r) {  // two warm-up rounds
        const double a = seconds_of(ctx, type, rdx::BufferAt(buf, 0), n, &v0);
        const double b = seconds_of(ctx, type, rdx::BufferAt(buf, off), n, &v1);
        if (r >= 2) {
          t0.push_back(a);
          t1.push_back(b);
        }
      }
      std::int64_t want0 = 0, want1 = 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        want0 += host[i];
        want1 += host[off + i];
      }
      // f32: within 1e-6 of the integer sum (beyond 2^24 the partial sums round).
      const auto close = [](float got, std::int64_t want) {
        return std::abs(static_cast<double>(got) - static_cast<double>(want)) <=
               1e-6 * static_cast<double>(want);
      };
      const bool ok = type == rdx::Type::F32
                          ? close(v0.as<float>(), want0) && close(v1.as<float>(), want1)
                          : v0.as<std::int32_t>() == static_cast<std::int32_t>(want0) &&
                                v1.as<std::int32_t>() == static_cast<std::int32_t>(want1);
      const double m0 = median(t0), m1 = median(t1);
      std::printf(
          "offset %llu: start %.1f us, offset %.1f us, ratio %.3f (GB/s at the offset over "
          "the start)%s\n",
          static_cast<unsigned long long>(off), m0 * 1e6, m1 * 1e6, m0 / m1,
          ok ? "" : "  WRONG RESULT");
      if (!ok) status = 1;
    }
    return status;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_offset: %s\n", e.what());
    return 1;
  }
}
