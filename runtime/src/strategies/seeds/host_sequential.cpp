// amp_sequential: seed 003's sequential_reduction (std::accumulate on the CPU). No kernel: the
// input is read back to the host and combined element by element, left to right, with
// Exec::combine (the kernels' semantics: wrapping integers, NaN rules, first index on ties).
#include <type_traits>
#include <vector>

#include "core/cl_check.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_amp_sequential(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const Type type = ex.plan.type, acc = ex.plan.acc;
  const std::size_t size = size_of(type);
  std::vector<unsigned char> bytes(n * size);
  RDX_CHECK(
      ex.queue.enqueueReadBuffer(in, CL_TRUE, ex.in_offset * size, bytes.size(), bytes.data()));
  const bool indexed = is_index_op(ex.plan.op);
  Outcome r = ex.identity();
  for (std::uint64_t i = 0; i < n; ++i) {
    // Converted to the accumulator type first, as the kernels' to_acc(in[i]) does.
    const Scalar x = Scalar::from_bytes(type, bytes.data() + i * size);
    const Scalar v = visit_acc(acc, [&](auto z) {
      using A = decltype(z);
      return Scalar::of(input_value<A>(ex.plan.op, x.as<A>()));
    });
    r = ex.combine(r, {v, indexed ? std::optional<std::uint64_t>(i) : std::nullopt});
  }
  return r;
}

StrategyRun strategy_amp_sequential() {
  return {run_amp_sequential};
}

}  // namespace rdx::detail
