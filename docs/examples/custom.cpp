// docs/examples/custom.cpp: reductions written by the user, composites, and the app's own OpenCL
// context; exits 1 on a wrong result.
#include <rdx/rdx.hpp>

#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  rdx::Context ctx("cpu");
  const std::vector<float> x = {3.0f, -4.0f, 1.0f, -0.5f};
  const std::vector<float> y = {2.0f, 1.0f, 0.0f, 4.0f};
  const rdx::Array in[] = {rdx::Array::of<float>(x)};
  const rdx::Array two[] = {rdx::Array::of<float>(x), rdx::Array::of<float>(y)};

  // A custom operator: OpenCL C over two accumulator values a and b, and its identity.
  auto absmax = rdx::Reduction::simple(rdx::Type::F32, "fmax(fabs(a), fabs(b))", "0");
  float m = rdx::reduce(ctx, absmax, in, x.size()).fields[0].as<float>();  // 4

  // Transform-reduce: a built-in operator over a map of up to four inputs (x0..x3, index i).
  auto l1 = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "fabs(x0 - x1)");
  float d = rdx::reduce(ctx, l1, two, x.size()).fields[0].as<float>();  // 1 + 5 + 1 + 4.5

  // A state of several fields: the sum and the count of the positive elements, in one pass.
  rdx::Reduction pos;
  pos.fields = {{"s", rdx::Type::F64, "0", "x > 0 ? x : 0", "a.s + b.s"},
                {"c", rdx::Type::U64, "0", "x > 0", "a.c + b.c"}};
  auto r = rdx::reduce(ctx, pos, in, x.size());  // r.fields[0] = 4, r.fields[1] = 2

  // Composites (rdx/stats.hpp).
  double mean = rdx::mean(ctx, std::span<const float>(x));                          // -0.125
  double sd = rdx::stddev(ctx, std::span<const float>(x));                          // population
  float dot = rdx::dot(ctx, std::span<const float>(x), std::span<const float>(y));  // 0
  auto mm = rdx::minmax(ctx, std::span<const float>(x));  // -4 at 1, 3 at 0

  // The app's own context, device and queue: its buffers are reduced in place.
  cl::Context app_ctx(ctx.cl_device());
  cl::CommandQueue app_queue(app_ctx, ctx.cl_device());
  cl::Buffer buf(app_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x.size() * sizeof(float),
                 const_cast<float*>(x.data()));
  rdx::Context mine(app_ctx, ctx.cl_device(), app_queue);
  const rdx::DeviceArray dev[] = {{rdx::Type::F32, buf}};
  auto sq = rdx::Reduction::transform(rdx::Op::Sum, rdx::Type::F32, "x * x");
  float s2 = rdx::reduce(mine, sq, dev, x.size()).fields[0].as<float>();  // 26.25

  std::printf(
      "absmax %g, L1 %g, positive sum %g count %llu, mean %g, std %g, dot %g, "
      "min %g at %llu, max %g at %llu, sum of squares %g\n",
      m, d, r.fields[0].as<double>(), r.fields[1].as<unsigned long long>(), mean, sd, dot, mm.min,
      static_cast<unsigned long long>(mm.min_index), mm.max,
      static_cast<unsigned long long>(mm.max_index), s2);
  const double want_sd = std::sqrt((9.0 + 16 + 1 + 0.25) / 4 - 0.125 * 0.125);
  return m == 4 && d == 11.5f && r.fields[0].as<double>() == 4 &&
                 r.fields[1].as<std::uint64_t>() == 2 && mean == -0.125 &&
                 std::fabs(sd - want_sd) < 1e-12 && dot == 0 && mm.min == -4 && mm.min_index == 1 &&
                 mm.max == 3 && mm.max_index == 0 && s2 == 26.25f
             ? 0
             : 1;
}
