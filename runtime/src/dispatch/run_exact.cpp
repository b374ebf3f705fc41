// Runs cl/exact_sum.cl: exact_partial over the grid, exact_finish over the digits, one read. The
// kernels and the scratch stay with the context, by plan shape (an allocation per call costs a
// GPU driver tens of microseconds).
#include "dispatch/run_exact.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "core/cl_check.hpp"
#include "core/host_input.hpp"
#include "dispatch/run_plan.hpp"
#include "exec/chunks.hpp"
#include "exec/exec.hpp"

namespace rdx::detail {
namespace {

struct ExactSlot {
  std::mutex mutex;
  bool ready = false;
  Kernel partial, finish, round;  // round: with EXACT_ROUND only
  std::uint64_t groups = 0;       // what digits and flags hold
  cl::Buffer digits, flags;       // per group
  cl::Buffer out;                 // the digits, then the flags (as a 64-bit word)
  std::unique_ptr<PinnedBytes> result;
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
      fmt::format("exact {} {} {}", ex.defines(plan.work_group_size), opts,
                  ex.user ? fmt::format("user {}", fmt::ptr(ex.user->definitions)) : ""));
  lock = std::unique_lock<std::mutex>(slot->mutex);
  const std::size_t out_bytes = (layout.digits + 1) * 8;
  if (!slot->ready) {
    slot->partial = ex.kernel("exact_sum.cl", "exact_partial", opts);
    slot->finish = ex.kernel("exact_sum.cl", "exact_finish", opts);
    if (round_into) slot->round = ex.kernel("exact_sum.cl", "exact_round_out", opts);
    slot->out = ex.buffer(out_bytes);
    slot->result = std::make_unique<PinnedBytes>(ex.ctx.context, ex.queue, out_bytes);
    slot->ready = true;
  }
  ex.note_built(slot->partial);
  ex.note_built(slot->finish);
  if (round_into) ex.note_built(slot->round);
  // The bins (blocked, one work-item per group: cl/exact_sum.cl) take at most 2^32 elements per
  // work-item; more groups beyond.
  constexpr std::uint64_t kBinsMost = std::uint64_t{1} << 32;
  if (blocked && slot->partial.wg == 1) groups = std::max(groups, (n + kBinsMost - 1) / kBinsMost);
  if (slot->groups != groups) {
    slot->digits = ex.buffer(groups * layout.digits * 8);
    slot->flags = ex.buffer(groups * 4);
    slot->groups = groups;
  }
  return slot;
}

// Enqueues exact_partial (after `wait`) and exact_finish: the sum's digits and flags into
// slot.out.
void enqueue_sum(Exec& ex, ExactSlot& slot, const cl::Buffer& in, std::uint64_t n, Type value,
                 std::uint64_t groups, const std::vector<cl::Event>* wait) {
  const std::uint64_t items = groups * slot.partial.wg;
  ex.args(slot.partial, in, n, (n + items - 1) / items, slot.digits, slot.flags);
  ex.launch(slot.partial, items, slot.partial.wg, wait);
  ex.args(slot.finish, slot.digits, slot.flags, groups, slot.out);
  ex.launch(slot.finish, exact_layout(value).digits * slot.finish.wg, slot.finish.wg);
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
  ex.read_bytes(slot->out, 0, (exact_layout(value).digits + 1) * 8, slot->result->data());
  return unpacked(slot->result->data(), value);
}

std::function<ExactSum()> exact_later(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  const Type value = ex.plan.type;
  std::uint64_t groups = 0;
  auto lock = std::make_shared<std::unique_lock<std::mutex>>();
  const auto slot = exact_slot(ex, n, value, "", std::nullopt, groups, *lock);
  enqueue_sum(ex, *slot, in, n, value, groups, nullptr);
  const cl::Event read =
      ex.read_bytes_later(slot->out, 0, (exact_layout(value).digits + 1) * 8, slot->result->data());
  // The slot stays locked until the read is waited for (or the Exec has waited).
  return [&ex, slot, lock, read, value] {
    ex.wait_read(read);
    return unpacked(slot->result->data(), value);
  };
}

void enqueue_exact(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type value,
                   const std::string& field, Type out_type, const cl::Buffer& out,
                   std::size_t offset, const std::vector<cl::Event>* wait, cl::Event* done) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = exact_slot(ex, n, value, field, out_type, groups, lock);
  enqueue_sum(ex, *slot, in, n, value, groups, wait);
  ex.args(slot->round, slot->out, n, out, std::uint64_t{offset / size_of(out_type)});
  ex.launch(slot->round, 1, 1, nullptr, done);
}

ExactSum run_exact(Context::Impl& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n,
                   bool profile, double* device_seconds) {
  Exec ex(ctx, plan, profile);
  ex.in_offset = in.offset;
  ExactSum s = run_exact(ex, in.buffer, n, plan.type);
  if (device_seconds) *device_seconds = profile ? ex.device_seconds() : 0.0;
  return s;
}

ExactSum exact_total(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                     std::uint64_t n, bool profile, double* device_seconds) {
  auto& impl = impl_of(ctx);
  double seconds = 0;
  ExactSum total = exact_zero(plan.type);
  if (device) {
    total = run_exact(impl, plan, *device, n, profile, &seconds);
  } else if (n > 0) {
    const std::uint64_t chunk = std::min({n, max_alloc_elements(ctx.device_info(), plan.type),
                                          plan.params.get("chunk").value_or(n)});
    for_each_chunk(n, chunk, [&](std::uint64_t base, std::uint64_t len) {
      const cl::Buffer buf =
          host_input(impl, static_cast<const unsigned char*>(host) + byte_size(plan.type, base),
                     byte_size(plan.type, len), size_of(plan.type));
      double s = 0;  // run_exact waits for its kernels before the chunk's buffer goes
      add_exact(total, run_exact(impl, plan, buf, len, profile, &s));
      seconds += s;
    });
  }
  if (device_seconds) *device_seconds = seconds;
  return total;
}

}  // namespace rdx::detail
