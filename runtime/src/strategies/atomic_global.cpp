// Launcher of cl/atomic_global.cl: every work-item combines its element into one global accumulator
// with an atomic; argmin/argmax in two passes (the extreme value, then its first index).
#include <string>

#include "rdx/errors.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_atomic_global(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const bool indexed = is_index_op(ex.plan.op);
  // Indices up to 2^32 - 2 fit a 32-bit word (all ones: no index yet); larger ones need 64 bits.
  const bool idx64 = indexed && n > 0xFFFFFFFFull;
  if (idx64 && !ex.ctx.info.int64_atomics)
    throw UnsupportedError(
        "atomic_global: argmin/argmax over 2^32 or more elements needs cl_khr_int64_base_atomics");
  const std::string extra = idx64 ? "-DIDX64" : "";
  const cl::Buffer acc = ex.buffer(8), best = ex.buffer(8);  // the accumulator and index words
  const States out = ex.states(1);

  Kernel init = ex.kernel("atomic_global.cl", "ag_init", extra);
  ex.args(init, acc, best);
  ex.launch(init, 1, 1);
  Kernel values = ex.kernel("atomic_global.cl", "ag_values", extra);
  ex.args(values, in, n, acc);
  ex.launch(values, n, values.wg);
  if (indexed) {
    Kernel indices = ex.kernel("atomic_global.cl", "ag_indices", extra);
    ex.args(indices, in, n, acc, best);
    ex.launch(indices, n, indices.wg);
  }
  Kernel finish = ex.kernel("atomic_global.cl", "ag_finish", extra);
  ex.args(finish, in, acc, best, out.values, out.indices);
  ex.launch(finish, 1, 1);
  return ex.read(out);
}

}  // namespace rdx::detail
