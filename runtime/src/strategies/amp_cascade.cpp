// Launcher of cl/amp_cascade.cl: a fixed number of tiles, one launch, the tiles' partials combined
// on the host.
#include <algorithm>

#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

// The seed's "predefined number of tiles": 8 per compute unit, so that every unit has several
// work-groups resident; fewer when the input does not fill them.
std::uint64_t tiles_for(std::uint64_t n, std::uint64_t wg, const DeviceInfo& dev) {
  const std::uint64_t fixed = 8 * std::max<std::uint64_t>(1, dev.compute_units);
  return std::max<std::uint64_t>(1, std::min((n + wg - 1) / wg, fixed));
}

}  // namespace

Outcome run_amp_cascade(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("amp_cascade.cl", "amp_cascade");
  const std::uint64_t tiles = tiles_for(n, k.wg, ex.ctx.info);
  States p = ex.states(tiles);
  ex.args(k, in, n, p.values, p.indices);
  ex.launch(k, tiles * k.wg, k.wg);
  if (ex.user) return ex.fold(p, 0, tiles);  // a user's reduction: the device combines
  Outcome r = ex.identity();
  for (const Outcome& o : ex.read_all(p, tiles))
    r = ex.combine(r, o);
  return r;
}

// Each work-item's grid-stride share, the tile's tree, the host's sequential pass over the tiles.
std::uint64_t amp_cascade_depth(const Plan& p, const DeviceInfo& dev) {
  const std::uint64_t wg = p.work_group_size;
  const std::uint64_t tiles = tiles_for(p.n, wg, dev);
  return (p.n + tiles * wg - 1) / (tiles * wg) + ceil_log2(wg) + tiles;
}

StrategyDef strategy_amp_cascade() {
  return {
      {308,
       {"amp_cascade", "amp_cascade.cl", "003 (C++ AMP): reduction_cascade",
        "a fixed number of tiles, grid-stride loop per work-item, tile tree, tiles on the host"},
       amp_cascade_depth,
       nullptr,
       nullptr,
       1},
      run_amp_cascade};
}

}  // namespace rdx::detail
