// Launcher of cl/amp_tiled.cl (seed 003's tiled kernels): launches until at most WG partials are
// left, two scratch arrays used alternately, the last WG partials combined sequentially on the
// host (the seed's std::accumulate).
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

// `per_item`: input elements each work-item reads (2 for amp_tiled_4, else 1).
Outcome run_tiled(Exec& ex, const cl::Buffer& in, std::uint64_t n, const char* name,
                  std::uint64_t per_item) {
  Kernel first = ex.kernel("amp_tiled.cl", name);
  Kernel again = ex.kernel("amp_tiled.cl", name, "-DFROM_PARTIALS");
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

std::uint64_t tiled_depth(const Plan& p, std::uint64_t per_item) {
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t depth = 0, count = p.n;
  do {
    count = (count + per_item * wg - 1) / (per_item * wg);
    depth += ceil_log2(wg) + per_item - 1;
  } while (count > wg && per_item * wg > 1);
  return depth + count;  // the host's sequential pass over the last partials
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
std::uint64_t amp_tiled_depth(const Plan& p, const DeviceInfo&) {
  return tiled_depth(p, 1);
}
std::uint64_t amp_tiled_twoload_depth(const Plan& p, const DeviceInfo&) {
  return tiled_depth(p, 2);
}

StrategyDef strategy_amp_tiled_modulo() {
  return {{304,
           {"amp_tiled_modulo", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_1",
            "tile in local memory, stride doubling, active if tid % (2s) == 0 (divergent)"},
           amp_tiled_depth,
           nullptr,
           nullptr,
           1},
          run_amp_tiled_modulo};
}

StrategyDef strategy_amp_tiled_consecutive() {
  return {{305,
           {"amp_tiled_consecutive", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_2",
            "stride doubling on index 2*s*tid: consecutive active work-items"},
           amp_tiled_depth,
           nullptr,
           nullptr,
           1},
          run_amp_tiled_consecutive};
}

StrategyDef strategy_amp_tiled_conflictfree() {
  return {{306,
           {"amp_tiled_conflictfree", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_3",
            "stride halving, tid < s: consecutive local addresses, no bank conflicts"},
           amp_tiled_depth,
           nullptr,
           nullptr,
           1},
          run_amp_tiled_conflictfree};
}

StrategyDef strategy_amp_tiled_twoload() {
  return {{307,
           {"amp_tiled_twoload", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_4",
            "half the work-items, each combines two global elements while loading the tile"},
           amp_tiled_twoload_depth,
           nullptr,
           nullptr,
           1},
          run_amp_tiled_twoload};
}

}  // namespace rdx::detail
