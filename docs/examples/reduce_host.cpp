// docs/examples/reduce_host.cpp: reductions of host data; exits 1 on a wrong result.
#include <rdx/rdx.hpp>

#include <cstdio>
#include <span>
#include <vector>

int main() {
  rdx::Context ctx("cpu");  // a device selector, as for clrdx --device
  const std::vector<float> v = {1.5f, -2.0f, 8.25f, 3.0f, 8.25f};
  const std::vector<int> k = {4, -7, 9, 2, 9};

  float s = rdx::reduce(ctx, std::span<const float>(v), rdx::Op::Sum);
  auto m = rdx::reduce_index(ctx, std::span<const int>(k), rdx::Op::ArgMax);     // m.value, m.index
  double w = rdx::reduce<double>(ctx, std::span<const float>(v), rdx::Op::Sum);  // f64 accumulator

  rdx::Options o;
  o.strategy = "localtree";  // a name from `clrdx strategies`; default "auto"
  o.work_group_size = 128;   // default: the plan's choice
  float t = rdx::reduce(ctx, std::span<const float>(v), rdx::Op::Max, o);

  std::printf("sum %g, argmax %d at %llu, f64 sum %g, max %g\n", s, m.value,
              static_cast<unsigned long long>(m.index), w, t);
  return s == 19.0f && m.value == 9 && m.index == 2 && w == 19.0 && t == 8.25f ? 0 : 1;
}
