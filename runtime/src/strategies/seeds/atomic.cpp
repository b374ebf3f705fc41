// Launcher of cl/seeds/atomic_global.cl and cl/seeds/atomic_local.cl (seed 001 steps 1 and 2): one
// hardware atomic per combine where the device has one (atomic_native, plan/strategy_shapes.hpp),
// else a compare-exchange loop whose contention is bounded (cl/seeds/atomic_ops.h). argmin/argmax
// run in two passes (the extreme value, then its first index).
#include "core/format.hpp"

#include <algorithm>
#include <string>

#include "ops/operators.hpp"
#include "plan/strategy_shapes.hpp"
#include "rdx/errors.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

namespace {

// The launches of either file; kernels are named <prefix>_init, _values, _indices, _finish.
// `bounded_loop`: where the combine is a compare-exchange loop, _values runs over the bounded grid
// (each work-item a grid-stride run, then one loop) instead of one work-item per element.
Outcome run_atomic(Exec& ex, const cl::Buffer& in, std::uint64_t n, const std::string& file,
                   const std::string& prefix, bool bounded_loop) {
  const Plan& p = ex.plan;
  const DeviceInfo& dev = ex.ctx.info;
  const bool indexed = !ex.user && is_index_op(p.op);
  // Indices up to 2^32 - 2 fit a 32-bit word (all ones: no index yet); larger ones need 64 bits.
  const bool idx64 = indexed && n > 0xFFFFFFFFull;
  if (idx64 && !dev.int64_atomics)
    throw UnsupportedError(detail::format(
        "{}: argmin/argmax over 2^32 or more elements needs cl_khr_int64_base_atomics",
        p.strategy));
  // A user's state: a compare-exchange loop (cl/seeds/atomic_ops.h).
  const bool native = !ex.user && atomic_native(dev, p.acc, p.op);
  const std::string extra =
      detail::format("-DCOMBINE_NATIVE={}{}{}{}", native ? 1 : 0, idx64 ? " -DIDX64" : "",
                     has_int64_extended(dev) ? " -DRDX_INT64_EXT" : "",
                     has_ptx_float_add(dev) ? " -DRDX_PTX_FLOAT_ADD" : "");
  const cl::Buffer acc = ex.buffer(8), best = ex.buffer(8);  // the accumulator and index words
  const States out = ex.states(1);

  Kernel init = ex.kernel(file, (prefix + "_init").c_str(), extra);
  ex.args(init, acc, best);
  ex.launch(init, 1, 1);
  Kernel values = ex.kernel(file, (prefix + "_values").c_str(), extra);
  ex.args(values, in, n, acc);
  const std::uint64_t items =
      native || !bounded_loop
          ? n
          : std::min<std::uint64_t>(n,
                                    kCasItemsPerCu * std::max<std::uint32_t>(dev.compute_units, 1));
  ex.launch(values, items, values.wg);
  if (indexed) {
    Kernel indices = ex.kernel(file, (prefix + "_indices").c_str(), extra);
    ex.args(indices, in, n, acc, best);
    ex.launch(indices, n, indices.wg);
  }
  Kernel finish = ex.kernel(file, (prefix + "_finish").c_str(), extra);
  ex.args(finish, in, acc, best, out.values, out.indices);
  ex.launch(finish, 1, 1);
  return ex.read(out);
}

}  // namespace

Outcome run_atomic_global(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_atomic(ex, in, n, "seeds/atomic_global.cl", "ag", true);
}

Outcome run_atomic_local(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  // Its loop already runs once per group in global memory.
  return run_atomic(ex, in, n, "seeds/atomic_local.cl", "al", false);
}

StrategyRun strategy_atomic_global() {
  return {run_atomic_global};
}

StrategyRun strategy_atomic_local() {
  return {run_atomic_local};
}

}  // namespace rdx::detail
