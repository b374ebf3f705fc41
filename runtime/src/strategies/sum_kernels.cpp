// SumKernels (sum_kernels.hpp): built once per slot.
#include "strategies/sum_kernels.hpp"

namespace rdx::detail {

void SumKernels::prepare(Exec& ex, const char* file, const std::string& prefix,
                         const std::string& opts, bool with_round, std::size_t out_bytes) {
  if (!ready) {
    partial = ex.kernel(file, (prefix + "_partial").c_str(), opts);
    finish = ex.kernel(file, (prefix + "_finish").c_str(), opts);
    out = ex.buffer(out_bytes);
    result = std::make_unique<PinnedBytes>(ex.ctx.context, ex.queue, out_bytes);
    ready = true;
  }
  if (with_round && !round.kernel()) round = ex.kernel(file, (prefix + "_round_out").c_str(), opts);
  ex.note_built(partial);
  ex.note_built(finish);
  if (with_round) ex.note_built(round);
}

}  // namespace rdx::detail
