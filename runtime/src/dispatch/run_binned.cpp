// Runs cl/binned_sum.cl: binned_partial over the grid, binned_finish over the groups' states, one
// read of 7 words. The kernels and the scratch stay with the context, by plan shape (as the exact
// sum's, dispatch/run_exact.cpp).
#include "dispatch/run_binned.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "core/cl_check.hpp"
#include "dispatch/sum_kernels.hpp"

namespace rdx::detail {
namespace {

constexpr std::size_t kStateWords = 2 * kBinnedFold + 1;  // primaries, carries, flags

struct BinnedSlot {
  std::mutex mutex;
  SumKernels k;                // k.out: the merged state (kStateWords words)
  std::uint64_t groups = 0;    // what pri, car and flags hold
  cl::Buffer pri, car, flags;  // per group
};

// The slot of ex's plan (with `round_into`, the round kernel into that type too), its kernels
// built; `groups` receives the first launch's work-groups for n elements. `lock` holds the slot's
// mutex on return, for the caller's enqueues.
std::shared_ptr<BinnedSlot> binned_slot(Exec& ex, std::uint64_t n, std::optional<Type> round_into,
                                        std::uint64_t& groups, std::unique_lock<std::mutex>& lock) {
  const Plan& plan = ex.plan;
  const Type bin = binned_bin_type(plan.acc);
  groups = plan.params.get("groups").value_or(1);
  std::string opts = binned_cl_options(bin, round_into);
  if (plan.params.get("blocked").value_or(0)) opts += " -DBLOCKED";
  opts += detail::format(" -DLANES={} -DUNROLL={}", plan.params.get("lanes").value_or(0),
                         plan.params.get("unroll").value_or(1));
  auto slot = ex.ctx.cached<BinnedSlot>(
      detail::format("binned {} {}", ex.defines(plan.work_group_size), opts));
  lock = std::unique_lock<std::mutex>(slot->mutex);
  slot->k.prepare(ex, "binned_sum.cl", "binned", opts, round_into.has_value(), kStateWords * 8);
  // A work-item takes at most 2^40 elements (its lanes' carries are ints: cl/binned_sum.cl).
  constexpr std::uint64_t kItemMost = std::uint64_t{1} << 40;
  groups = std::max(groups, (n / kItemMost + 1 + slot->k.partial.wg - 1) / slot->k.partial.wg);
  if (slot->groups != groups) {
    slot->pri = ex.buffer(groups * kBinnedFold * size_of(bin));
    slot->car = ex.buffer(groups * kBinnedFold * 8);
    slot->flags = ex.buffer(groups * 4);
    slot->groups = groups;
  }
  return slot;
}

// Enqueues binned_partial (after `wait`) and binned_finish: the merged state into slot.k.out.
void enqueue_state(Exec& ex, BinnedSlot& slot, const cl::Buffer& in, std::uint64_t n,
                   std::uint64_t groups, const std::vector<cl::Event>* wait) {
  const std::uint64_t items = groups * slot.k.partial.wg;
  ex.args(slot.k.partial, in, n, (n + items - 1) / items, slot.pri, slot.car, slot.flags);
  ex.launch(slot.k.partial, items, slot.k.partial.wg, wait);
  ex.args(slot.k.finish, slot.pri, slot.car, slot.flags, groups, slot.k.out);
  ex.launch(slot.k.finish, slot.k.finish.wg, slot.k.finish.wg);
}

BinnedSum unpacked(const unsigned char* out, Type bin) {
  std::int64_t words[kStateWords];
  std::memcpy(words, out, sizeof words);
  return binned_of_words(bin, words, static_cast<std::uint32_t>(words[2 * kBinnedFold]));
}

}  // namespace

BinnedSum run_binned(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = binned_slot(ex, n, std::nullopt, groups, lock);
  enqueue_state(ex, *slot, in, n, groups, nullptr);
  ex.read_bytes(slot->k.out, 0, kStateWords * 8, slot->k.result->data());
  return unpacked(slot->k.result->data(), binned_bin_type(ex.plan.acc));
}

std::function<BinnedSum()> binned_later(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::uint64_t groups = 0;
  auto lock = std::make_shared<std::unique_lock<std::mutex>>();
  const auto slot = binned_slot(ex, n, std::nullopt, groups, *lock);
  enqueue_state(ex, *slot, in, n, groups, nullptr);
  const cl::Event read =
      ex.read_bytes_later(slot->k.out, 0, kStateWords * 8, slot->k.result->data());
  const Type bin = binned_bin_type(ex.plan.acc);
  // The slot stays locked until the read is waited for (or the Exec has waited).
  return [&ex, slot, lock, read, bin] {
    ex.wait_read(read);
    return unpacked(slot->k.result->data(), bin);
  };
}

void enqueue_binned(Exec& ex, const cl::Buffer& in, std::uint64_t n, Type out_type,
                    const cl::Buffer& out, std::size_t offset, const std::vector<cl::Event>* wait,
                    cl::Event* done) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = binned_slot(ex, n, out_type, groups, lock);
  enqueue_state(ex, *slot, in, n, groups, wait);
  ex.args(slot->k.round, slot->k.out, n, out, std::uint64_t{offset / size_of(out_type)});
  ex.launch(slot->k.round, 1, 1, nullptr, done);
}

}  // namespace rdx::detail
