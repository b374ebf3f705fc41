// Runs cl/exact_sum.cl: exact_partial over the grid, exact_finish over the digits, one read.
#include "exec/run_exact.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "exec/exec.hpp"

namespace rdx::detail {

ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const cl::Buffer& in, std::uint64_t n,
                   bool profile, double* device_seconds) {
  const ExactLayout layout = exact_layout(plan.type);
  std::uint64_t groups = plan.params.get("groups").value_or(1);
  const bool blocked = plan.params.get("blocked").value_or(0) != 0;
  std::string opts = plan.type == Type::F64 ? "-DEXACT_F64" : "";
  if (blocked) opts += " -DBLOCKED";
  Exec ex(ctx, plan, profile);
  Kernel partial = ex.kernel("exact_sum.cl", "exact_partial", opts);
  Kernel finish = ex.kernel("exact_sum.cl", "exact_finish", opts);
  // The bins (blocked, one work-item per group: cl/exact_sum.cl) take at most 2^32 elements per
  // work-item; more groups beyond.
  constexpr std::uint64_t kBinsMost = std::uint64_t{1} << 32;
  if (blocked && partial.wg == 1) groups = std::max(groups, (n + kBinsMost - 1) / kBinsMost);
  const std::uint64_t items = groups * partial.wg;
  const cl::Buffer digits = ex.buffer(groups * layout.digits * 8);
  const cl::Buffer flags = ex.buffer(groups * 4);
  const cl::Buffer out = ex.buffer(layout.digits * 8), out_flags = ex.buffer(4);
  ex.args(partial, in, n, (n + items - 1) / items, digits, flags);
  ex.launch(partial, items, partial.wg);
  ex.args(finish, digits, flags, groups, out, out_flags);
  ex.launch(finish, layout.digits, std::min<std::size_t>(finish.wg, 64));
  ExactSum s = exact_zero(plan.type);
  ex.read_bytes(out, 0, layout.digits * 8, s.digits.data());
  ex.read_bytes(out_flags, 0, 4, &s.flags);
  if (device_seconds) *device_seconds = profile ? ex.device_seconds() : 0.0;
  return s;
}

}  // namespace rdx::detail
