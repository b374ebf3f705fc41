#include <chrono>
#include <cstdio>
#include <vector>
#include "exec/exec.hpp"
#include "rdx/rdx.hpp"
int main() {
  rdx::DeviceInfo d; d.kind = rdx::DeviceKind::GPU; d.name = "g"; d.compute_units = 132; d.max_work_group = 1024; d.local_mem = 48 << 10; d.max_alloc = 1ull << 34; d.fp64 = true;
  const rdx::Plan plan = rdx::make_plan(d, rdx::Type::F32, rdx::Op::Sum, 1 << 20, {});
  std::vector<float> v(256, 1.0f);
  const int N = 200000;
  auto t0 = std::chrono::steady_clock::now();
  double acc = 0;
  for (int i = 0; i < N; ++i) {
    auto o = rdx::detail::fold_states(plan, reinterpret_cast<const unsigned char*>(v.data()), nullptr, 256);
    acc += o.value.as<float>();
  }
  std::printf("%.3f us (%g) %s\n", std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / N, acc, plan.describe().c_str());
}
