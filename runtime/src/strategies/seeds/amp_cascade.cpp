// Launcher of cl/seeds/amp_cascade.cl: a fixed number of tiles, one launch, the tiles' partials
// combined on the host.
#include "plan/strategy_shapes.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_amp_cascade(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  Kernel k = ex.kernel("seeds/amp_cascade.cl", "amp_cascade");
  const std::uint64_t tiles = amp_cascade_tiles(n, k.wg, ex.ctx.info);
  States p = ex.states(tiles);
  ex.args(k, in, n, p.values, p.indices);
  ex.launch(k, tiles * k.wg, k.wg);
  if (ex.user) return ex.fold(p, 0, tiles);  // a user's reduction: the device combines
  Outcome r = ex.identity();
  for (const Outcome& o : ex.read_all(p, tiles))
    r = ex.combine(r, o);
  return r;
}

StrategyRun strategy_amp_cascade() {
  return {run_amp_cascade};
}

}  // namespace rdx::detail
