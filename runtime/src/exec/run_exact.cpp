// Runs cl/exact_sum.cl: exact_partial over the grid, exact_finish over the digits, one read. The
// kernels and the scratch stay with the context, by plan shape (an allocation per call costs a
// GPU driver tens of microseconds).
#include "exec/run_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "exec/exec.hpp"

namespace rdx::detail {
namespace {

struct ExactSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel partial, finish;
  std::uint64_t groups = 0;  // what digits and flags hold
  cl::Buffer digits, flags;  // per group
  cl::Buffer out;            // the digits, then the flags (as a 64-bit word)
  std::unique_ptr<PinnedBytes> result;
};

}  // namespace

ExactSum run_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field) {
  const Plan& plan = ex.plan;
  const ExactLayout layout = exact_layout(value);
  std::uint64_t groups = plan.params.get("groups").value_or(1);
  const bool blocked = plan.params.get("blocked").value_or(0) != 0;
  std::string opts = value == Type::F64 ? "-DEXACT_F64" : "";
  if (blocked) opts += " -DBLOCKED";
  if (plan.params.get("fold").value_or(0)) opts += " -DEXACT_FOLD";
  if (ex.user) opts += " -DEXACT_FIELD=" + field;
  // A user's reduction: its definitions' address names them (the context keeps them).
  const auto slot = ex.ctx.cached<ExactSlot>(
      fmt::format("exact {} {} {}", ex.defines(plan.work_group_size), opts,
                  ex.user ? fmt::format("user {}", fmt::ptr(ex.user->definitions)) : ""));
  std::lock_guard<std::mutex> lock(slot->mutex);
  const std::size_t out_bytes = (layout.digits + 1) * 8;
  if (!slot->ready) {
    slot->partial = ex.kernel("exact_sum.cl", "exact_partial", opts);
    slot->finish = ex.kernel("exact_sum.cl", "exact_finish", opts);
    slot->out = ex.buffer(out_bytes);
    slot->result = std::make_unique<PinnedBytes>(ex.ctx.context, ex.queue, out_bytes);
    slot->ready = true;
  }
  Kernel& partial = slot->partial;
  Kernel& finish = slot->finish;
  ex.note_built(partial);
  ex.note_built(finish);
  // The bins (blocked, one work-item per group: cl/exact_sum.cl) take at most 2^32 elements per
  // work-item; more groups beyond.
  constexpr std::uint64_t kBinsMost = std::uint64_t{1} << 32;
  if (blocked && partial.wg == 1) groups = std::max(groups, (n + kBinsMost - 1) / kBinsMost);
  if (slot->groups != groups) {
    slot->digits = ex.buffer(groups * layout.digits * 8);
    slot->flags = ex.buffer(groups * 4);
    slot->groups = groups;
  }
  const std::uint64_t items = groups * partial.wg;
  ex.args(partial, in, n, (n + items - 1) / items, slot->digits, slot->flags);
  ex.launch(partial, items, partial.wg);
  ex.args(finish, slot->digits, slot->flags, groups, slot->out);
  ex.launch(finish, layout.digits * finish.wg, finish.wg);
  ex.read_bytes(slot->out, 0, out_bytes, slot->result->data());
  ExactSum s = exact_zero(value);
  std::memcpy(s.digits.data(), slot->result->data(), layout.digits * 8);
  std::uint64_t flags = 0;
  std::memcpy(&flags, slot->result->data() + layout.digits * 8, 8);
  s.flags = static_cast<std::uint32_t>(flags);
  return s;
}

ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const cl::Buffer& in, std::uint64_t n,
                   bool profile, double* device_seconds) {
  Exec ex(ctx, plan, profile);
  ExactSum s = run_exact(ex, in, n, plan.type);
  if (device_seconds) *device_seconds = profile ? ex.device_seconds() : 0.0;
  return s;
}

}  // namespace rdx::detail
