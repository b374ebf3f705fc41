// Runs cl/exact_sum.cl: exact_partial over the grid, exact_finish over the digits, one read. The
// kernels and the scratch stay with the context, by plan shape (an allocation per call costs a
// GPU driver tens of microseconds).
#include "strategies/run_exact.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "core/cl_check.hpp"
#include "exec/exec.hpp"
#include "strategies/sum_kernels.hpp"

namespace rdx::detail {
namespace {

struct ExactSlot {
  std::mutex mutex;
  SumKernels k;              // k.out: the digits, then the flags (as a 64-bit word)
  std::uint64_t groups = 0;  // what digits and flags hold
  cl::Buffer digits, flags;  // per group
};

// The slot of ex's plan for elements of `value` (a user's field `field`; with `round_into`, the
// round kernel into that type too), its kernels built; `groups` receives the first launch's
// work-groups, for which the slot's scratch is sized. `lock` holds the slot's mutex on return,
// for the caller's enqueues.
std::shared_ptr<ExactSlot> exact_slot(Exec& ex, std::uint64_t n, Type value,
                                      const std::string& field, std::optional<Type> round_into,
                                      std::uint64_t& groups, std::unique_lock<std::mutex>& lock) {
  const Plan& plan = ex.plan;
  const ExactLayout layout = exact_layout(value);
  groups = plan.params.get("groups").value_or(1);
  const bool blocked = plan.params.get("blocked").value_or(0) != 0;
  std::string opts = exact_cl_options(value, round_into);
  if (blocked) opts += " -DBLOCKED";
  if (plan.params.get("fold").value_or(0)) opts += " -DEXACT_FOLD";
  if (ex.user) opts += " -DEXACT_FIELD=" + field;
  // A user's reduction: its definitions' address names them (the context keeps them).
  auto slot = ex.ctx.cached<ExactSlot>(
      detail::format("exact {} {} {}", ex.defines(plan.work_group_size), opts,
                     ex.user ? detail::format("user {}", fmt::ptr(ex.user->definitions)) : ""));
  lock = std::unique_lock<std::mutex>(slot->mutex);
  slot->k.prepare(ex, "exact_sum.cl", "exact", opts, round_into.has_value(),
                  (layout.digits + 1) * 8);
  // The bins (blocked, one work-item per group: cl/exact_sum.cl) take at most 2^32 elements per
  // work-item; more groups beyond.
  constexpr std::uint64_t kBinsMost = std::uint64_t{1} << 32;
  if (blocked && slot->k.partial.wg == 1)
    groups = std::max(groups, (n + kBinsMost - 1) / kBinsMost);
  if (slot->groups != groups) {
    slot->digits = ex.buffer(groups * layout.digits * 8);
    slot->flags = ex.buffer(groups * 4);
    slot->groups = groups;
  }
  return slot;
}

// Enqueues exact_partial (after `wait`) and exact_finish: the sum's digits and flags into
// slot.k.out.
void enqueue_sum(Exec& ex, ExactSlot& slot, const cl::Buffer& in, std::uint64_t n, Type value,
                 std::uint64_t groups, const std::vector<cl::Event>* wait) {
  const std::uint64_t items = groups * slot.k.partial.wg;
  ex.args(slot.k.partial, in, n, (n + items - 1) / items, slot.digits, slot.flags);
  ex.launch(slot.k.partial, items, slot.k.partial.wg, wait);
  ex.args(slot.k.finish, slot.digits, slot.flags, groups, slot.k.out);
  ex.launch(slot.k.finish, exact_layout(value).digits * slot.k.finish.wg, slot.k.finish.wg);
}

// The digits and the flags (one 64-bit word) that exact_finish wrote, as read back.
ExactSum unpacked(const unsigned char* out, Type value) {
  const ExactLayout layout = exact_layout(value);
  ExactSum s = exact_zero(value);
  std::memcpy(s.digits.data(), out, layout.digits * 8);
  std::uint64_t flags = 0;
  std::memcpy(&flags, out + layout.digits * 8, 8);
  s.flags = static_cast<std::uint32_t>(flags);
  return s;
}

}  // namespace

ExactSum run_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = exact_slot(ex, n, value, field, std::nullopt, groups, lock);
  enqueue_sum(ex, *slot, in, n, value, groups, nullptr);
  ex.read_bytes(slot->k.out, 0, (exact_layout(value).digits + 1) * 8, slot->k.result->data());
  return unpacked(slot->k.result->data(), value);
}

std::function<ExactSum()> exact_later(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const Type value = ex.plan.type;
  std::uint64_t groups = 0;
  auto lock = std::make_shared<std::unique_lock<std::mutex>>();
  const auto slot = exact_slot(ex, n, value, "", std::nullopt, groups, *lock);
  enqueue_sum(ex, *slot, in, n, value, groups, nullptr);
  const cl::Event read = ex.read_bytes_later(slot->k.out, 0, (exact_layout(value).digits + 1) * 8,
                                             slot->k.result->data());
  // The slot stays locked until the read is waited for (or the Exec has waited).
  return [&ex, slot, lock, read, value] {
    ex.wait_read(read);
    return unpacked(slot->k.result->data(), value);
  };
}

void enqueue_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field, Type out_type, const cl::Buffer& out,
                   std::size_t offset, const std::vector<cl::Event>* wait, cl::Event* done) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = exact_slot(ex, n, value, field, out_type, groups, lock);
  enqueue_sum(ex, *slot, in, n, value, groups, wait);
  ex.args(slot->k.round, slot->k.out, n, out, std::uint64_t{offset / size_of(out_type)});
  ex.launch(slot->k.round, 1, 1, nullptr, done);
}

}  // namespace rdx::detail
