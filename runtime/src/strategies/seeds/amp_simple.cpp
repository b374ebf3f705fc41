// Launcher of cl/seeds/amp_simple.cl (seed 003's simple model): launches over a window of 2
// (amp_halving) or 8 (amp_window8) elements until fewer than a window is left, a tail state for
// what each launch cuts off, the rest on the host.
#include <string>

#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

Outcome run_window(Exec& ex, const cl::Buffer& in, std::uint64_t n, std::uint64_t window) {
  const std::string def = "-DWINDOW=" + std::to_string(window);
  Kernel first = ex.kernel("seeds/amp_simple.cl", "amp_window", def);
  Kernel again = ex.kernel("seeds/amp_simple.cl", "amp_window", def + " -DFROM_PARTIALS");
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

}  // namespace

Outcome run_amp_halving(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_window(ex, in, n, 2);
}
Outcome run_amp_window8(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_window(ex, in, n, 8);
}

StrategyRun strategy_amp_halving() {
  return {run_amp_halving};
}

StrategyRun strategy_amp_window8() {
  return {run_amp_window8};
}

}  // namespace rdx::detail
