// Runs cl/binned_sum.cl: binned_partial over the grid, then binned_finish over the groups' states
// and one read of its 7 words or, where the plan's "host_finish" says so (CPUs), one read of the
// groups' states, which the host merges (add_binned: the same state, unique for its value). The
// kernels and the scratch stay with the context, by plan shape (as the exact sum's,
// strategies/run_exact.cpp).
#include "strategies/run_binned.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/cl_check.hpp"
#include "strategies/sum_kernels.hpp"

namespace rdx::detail {
namespace {

constexpr std::size_t kStateWords = 2 * kBinnedFold + 1;  // primaries, carries, flags

struct BinnedSlot {
  std::mutex mutex;
  SumKernels k;                           // k.out: the merged state (kStateWords words)
  std::uint64_t groups = 0;               // what states holds
  cl::Buffer states;                      // kStateWords words per group
  std::vector<std::int64_t> host_states;  // their copy where the host merges them
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
    slot->states = ex.buffer(groups * kStateWords * 8);
    slot->host_states.clear();
    slot->groups = groups;
  }
  return slot;
}

// Enqueues binned_partial (after `wait`): the groups' states into slot.states.
void enqueue_partial(Exec& ex, BinnedSlot& slot, const cl::Buffer& in, std::uint64_t n,
                     std::uint64_t groups, const std::vector<cl::Event>* wait) {
  const std::uint64_t items = groups * slot.k.partial.wg;
  ex.args(slot.k.partial, in, n, (n + items - 1) / items, slot.states);
  ex.launch(slot.k.partial, items, slot.k.partial.wg, wait);
}

// Enqueues binned_partial and binned_finish: the merged state into slot.k.out.
void enqueue_state(Exec& ex, BinnedSlot& slot, const cl::Buffer& in, std::uint64_t n,
                   std::uint64_t groups, const std::vector<cl::Event>* wait) {
  enqueue_partial(ex, slot, in, n, groups, wait);
  ex.args(slot.k.finish, slot.states, groups, slot.k.out);
  ex.launch(slot.k.finish, slot.k.finish.wg, slot.k.finish.wg);
}

// The merge of `count` states of kStateWords words at `bytes` (binned_finish's, on the host).
BinnedSum merged(const void* bytes, std::uint64_t count, Type bin) {
  BinnedSum sum = binned_zero(bin);
  for (std::uint64_t g = 0; g < count; ++g) {
    std::int64_t words[kStateWords];
    std::memcpy(words, static_cast<const unsigned char*>(bytes) + g * sizeof words, sizeof words);
    add_binned(sum,
               binned_of_words(bin, words, static_cast<std::uint32_t>(words[2 * kBinnedFold])));
  }
  return sum;
}

bool host_finish(const Plan& plan) {
  return plan.params.get("host_finish").value_or(0) != 0;
}

// What the read brings back: the groups' states (host_finish) or binned_finish's one, enqueued
// after the partial; the destination's words, and how many states they hold.
struct StateRead {
  const cl::Buffer* from;
  void* to;
  std::uint64_t count;
};
StateRead enqueue_states(Exec& ex, BinnedSlot& slot, const cl::Buffer& in, std::uint64_t n,
                         std::uint64_t groups) {
  if (host_finish(ex.plan)) {
    enqueue_partial(ex, slot, in, n, groups, nullptr);
    slot.host_states.resize(groups * kStateWords);
    return {&slot.states, slot.host_states.data(), groups};
  }
  enqueue_state(ex, slot, in, n, groups, nullptr);
  return {&slot.k.out, slot.k.result->data(), 1};
}

}  // namespace

BinnedSum run_binned(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::uint64_t groups = 0;
  std::unique_lock<std::mutex> lock;
  const auto slot = binned_slot(ex, n, std::nullopt, groups, lock);
  const StateRead r = enqueue_states(ex, *slot, in, n, groups);
  ex.read_bytes(*r.from, 0, r.count * kStateWords * 8, r.to);
  return merged(r.to, r.count, binned_bin_type(ex.plan.acc));
}

std::function<BinnedSum()> binned_later(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  std::uint64_t groups = 0;
  auto lock = std::make_shared<std::unique_lock<std::mutex>>();
  const auto slot = binned_slot(ex, n, std::nullopt, groups, *lock);
  const StateRead r = enqueue_states(ex, *slot, in, n, groups);
  const cl::Event read = ex.read_bytes_later(*r.from, 0, r.count * kStateWords * 8, r.to);
  const Type bin = binned_bin_type(ex.plan.acc);
  // The slot stays locked until the read is waited for (or the Exec has waited).
  return [&ex, slot, lock, read, r, bin] {
    ex.wait_read(read);
    return merged(r.to, r.count, bin);
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
