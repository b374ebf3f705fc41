// Launcher of cl/amp_simple.cl (seed 003's simple model): launches over a window of 2
// (amp_halving) or 8 (amp_window8) elements until fewer than a window is left, a tail state for
// what each launch cuts off, the rest on the host.
#include <string>

#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

Outcome run_window(Exec& ex, const cl::Buffer& in, std::uint64_t n, std::uint64_t window) {
  const std::string def = "-DWINDOW=" + std::to_string(window);
  Kernel first = ex.kernel("amp_simple.cl", "amp_window", def);
  Kernel again = ex.kernel("amp_simple.cl", "amp_window", def + " -DFROM_PARTIALS");
  States a = ex.states(n / window);
  States tail = ex.states(1);
  States src = Exec::input(in, n);
  Kernel* k = &first;
  std::uint64_t m = n;
  do {  // at least once: the first launch sets the tail state, even when n < window
    const std::uint64_t s = m / window;
    ex.args(*k, src.values, src.indices, m, a.values, a.indices, tail.values, tail.indices);
    ex.launch(*k, s ? s : 1, k->wg);
    src = a;
    m = s;
    k = &again;
  } while (m >= window);
  if (ex.user) return ex.fold(a, 0, m, &tail);  // a user's reduction: the device combines
  // The seed copies out only the first m (< window) elements and adds the tail sum on the CPU.
  Outcome r = ex.read(tail);
  for (const Outcome& o : ex.read_all(a, m))
    r = ex.combine(r, o);
  return r;
}

std::uint64_t window_depth(std::uint64_t n, std::uint64_t window) {
  std::uint64_t launches = 0;
  for (std::uint64_t m = n; launches == 0 || m >= window; m /= window)
    ++launches;
  // Per launch: a window (window - 1 combines) on the way up, or at most window - 1 tail
  // elements added to the tail state (+1 for the tail's own chain); then the host's window + 1.
  return launches * 2 * window + window + 1;
}

}  // namespace

Outcome run_amp_halving(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_window(ex, in, n, 2);
}
Outcome run_amp_window8(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_window(ex, in, n, 8);
}
std::uint64_t amp_halving_depth(const Plan& p, const DeviceInfo&) {
  return window_depth(p.n, 2);
}
std::uint64_t amp_window8_depth(const Plan& p, const DeviceInfo&) {
  return window_depth(p.n, 8);
}

StrategyDef strategy_amp_halving() {
  return {
      {302,
       {"amp_halving", "amp_simple.cl", "003 (C++ AMP): reduction_simple_1",
        "log2(n) launches, a[i] = a[i] + a[i+s] with s halving; cut-off elements to a tail state"},
       amp_halving_depth,
       nullptr,
       nullptr,
       1},
      run_amp_halving};
}

StrategyDef strategy_amp_window8() {
  return {
      {303,
       {"amp_window8", "amp_simple.cl", "003 (C++ AMP): reduction_simple_2",
        "log8(n) launches, each work-item combines a window of eight; serial tail, rest on host"},
       amp_window8_depth,
       nullptr,
       nullptr,
       1},
      run_amp_window8};
}

}  // namespace rdx::detail
