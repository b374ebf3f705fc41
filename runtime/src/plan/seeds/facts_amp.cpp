// The facts of seed 003's strategies (C++ AMP): amp_sequential, the windows (amp_halving,
// amp_window8), the tiles (amp_tiled_*) and amp_cascade. Their launchers are
// strategies/seeds/amp_*.cpp and strategies/seeds/host_sequential.cpp.
#include <string>

#include "plan/strategy_facts.hpp"
#include "plan/strategy_shapes.hpp"

namespace rdx::detail {
namespace {

// One combine per element, in order: a chain as long as the input.
std::uint64_t amp_sequential_depth(const Plan& p, const DeviceInfo&) {
  return p.n ? p.n : 1;
}

std::string amp_sequential_user_unsupported(const DeviceInfo&, std::size_t) {
  return "it combines on the host, which cannot run OpenCL C";
}

std::uint64_t window_depth(std::uint64_t n, std::uint64_t window) {
  std::uint64_t launches = 0;
  for (std::uint64_t m = n; launches == 0 || m >= window; m /= window)
    ++launches;
  // Per launch: a window (window - 1 combines) on the way up, or at most window - 1 tail
  // elements added to the tail state (+1 for the tail's own chain); then the host's window + 1.
  return launches * 2 * window + window + 1;
}

std::uint64_t amp_halving_depth(const Plan& p, const DeviceInfo&) {
  return window_depth(p.n, 2);
}
std::uint64_t amp_window8_depth(const Plan& p, const DeviceInfo&) {
  return window_depth(p.n, 8);
}

// `per_item`: input elements each work-item reads (2 for amp_tiled_4, else 1).
std::uint64_t tiled_depth(const Plan& p, std::uint64_t per_item) {
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t depth = 0, count = p.n;
  do {
    count = (count + per_item * wg - 1) / (per_item * wg);
    depth += ceil_log2(wg) + per_item - 1;
  } while (count > wg && per_item * wg > 1);
  return depth + count;  // the host's sequential pass over the last partials
}

std::uint64_t amp_tiled_depth(const Plan& p, const DeviceInfo&) {
  return tiled_depth(p, 1);
}
std::uint64_t amp_tiled_twoload_depth(const Plan& p, const DeviceInfo&) {
  return tiled_depth(p, 2);
}

// Each work-item's grid-stride share, the tile's tree, the host's sequential pass over the tiles.
std::uint64_t amp_cascade_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  const std::uint64_t tiles = amp_cascade_tiles(p.n, wg, dev);
  return (p.n + tiles * wg - 1) / (tiles * wg) + ceil_log2(wg) + tiles;
}

}  // namespace

StrategyFacts facts_amp_sequential() {
  return {301,
          {"amp_sequential", "", "003 (C++ AMP): sequential_reduction, std::accumulate",
           "the CPU reference: read the input back, combine left to right on the host"},
          amp_sequential_depth,
          nullptr,
          nullptr,
          1,
          {},
          nullptr,
          amp_sequential_user_unsupported};
}

StrategyFacts facts_amp_halving() {
  return {302,
          {"amp_halving", "seeds/amp_simple.cl", "003 (C++ AMP): reduction_simple_1",
           "log2(n) launches, a[i] = a[i] + a[i+s] with s halving; cut-off elements to a tail "
           "state"},
          amp_halving_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_window8() {
  return {303,
          {"amp_window8", "seeds/amp_simple.cl", "003 (C++ AMP): reduction_simple_2",
           "log8(n) launches, each work-item combines a window of eight; serial tail, rest on "
           "host"},
          amp_window8_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_tiled_modulo() {
  return {304,
          {"amp_tiled_modulo", "seeds/amp_tiled.cl", "003 (C++ AMP): reduction_tiled_1",
           "tile in local memory, stride doubling, active if tid % (2s) == 0 (divergent)"},
          amp_tiled_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_tiled_consecutive() {
  return {305,
          {"amp_tiled_consecutive", "seeds/amp_tiled.cl", "003 (C++ AMP): reduction_tiled_2",
           "stride doubling on index 2*s*tid: consecutive active work-items"},
          amp_tiled_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_tiled_conflictfree() {
  return {306,
          {"amp_tiled_conflictfree", "seeds/amp_tiled.cl", "003 (C++ AMP): reduction_tiled_3",
           "stride halving, tid < s: consecutive local addresses, no bank conflicts"},
          amp_tiled_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_tiled_twoload() {
  return {307,
          {"amp_tiled_twoload", "seeds/amp_tiled.cl", "003 (C++ AMP): reduction_tiled_4",
           "half the work-items, each combines two global elements while loading the tile"},
          amp_tiled_twoload_depth,
          nullptr,
          nullptr,
          1};
}

StrategyFacts facts_amp_cascade() {
  return {308,
          {"amp_cascade", "seeds/amp_cascade.cl", "003 (C++ AMP): reduction_cascade",
           "a fixed number of tiles, grid-stride loop per work-item, tile tree, tiles on the host"},
          amp_cascade_depth,
          nullptr,
          nullptr,
          1};
}

}  // namespace rdx::detail
