// Launcher of cl/seeds/amp_tiled.cl (seed 003's tiled kernels): launches until at most WG partials
// are left, two scratch arrays used alternately, the last WG partials combined sequentially on the
// host (the seed's std::accumulate).
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

// `per_item`: input elements each work-item reads (2 for amp_tiled_4, else 1).
Outcome run_tiled(Exec& ex, const cl::Buffer& in, std::uint64_t n, const char* name,
                  std::uint64_t per_item) {
  Kernel first = ex.kernel("seeds/amp_tiled.cl", name);
  Kernel again = ex.kernel("seeds/amp_tiled.cl", name, "-DFROM_PARTIALS");
  const std::uint64_t most = (n + per_item * first.wg - 1) / (per_item * first.wg);
  States bufs[2] = {ex.states(most), ex.states(most)};
  States src = Exec::input(in, n);
  Kernel* k = &first;
  std::uint64_t count = n;
  int which = 0;
  do {  // at least once: the host finishes partials (acc states), never raw input
    const std::uint64_t groups = (count + per_item * k->wg - 1) / (per_item * k->wg);
    ex.args(*k, src.values, src.indices, count, bufs[which].values, bufs[which].indices);
    ex.launch(*k, groups * k->wg, k->wg);
    src = bufs[which];
    which ^= 1;
    count = groups;
    k = &again;
  } while (count > k->wg && per_item * k->wg > 1);  // a tile of one element cannot shrink
  if (ex.user) return ex.fold(src, 0, count);       // a user's reduction: the device combines
  Outcome r = ex.identity();
  for (const Outcome& o : ex.read_all(src, count))
    r = ex.combine(r, o);
  return r;
}

}  // namespace

Outcome run_amp_tiled_modulo(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_tiled(ex, in, n, "amp_tiled_1", 1);
}
Outcome run_amp_tiled_consecutive(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_tiled(ex, in, n, "amp_tiled_2", 1);
}
Outcome run_amp_tiled_conflictfree(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_tiled(ex, in, n, "amp_tiled_3", 1);
}
Outcome run_amp_tiled_twoload(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_tiled(ex, in, n, "amp_tiled_4", 2);
}

StrategyRun strategy_amp_tiled_modulo() {
  return {run_amp_tiled_modulo};
}

StrategyRun strategy_amp_tiled_consecutive() {
  return {run_amp_tiled_consecutive};
}

StrategyRun strategy_amp_tiled_conflictfree() {
  return {run_amp_tiled_conflictfree};
}

StrategyRun strategy_amp_tiled_twoload() {
  return {run_amp_tiled_twoload};
}

}  // namespace rdx::detail
