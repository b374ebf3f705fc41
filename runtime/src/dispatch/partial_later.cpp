// reduce_partial of a device buffer in two steps (dispatch/partial_later.hpp).
#include "dispatch/partial_later.hpp"

#include <memory>
#include <stdexcept>

#include "core/context_impl.hpp"
#include "dispatch/partial_access.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_sum.hpp"
#include "exec/exec.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {
namespace {

// One enqueued part. Its members end in reverse order: the Exec first (it waits for the queue
// when its read was not waited for), then the step functions (they release the launcher's
// scratch), the plan (the Exec refers to it) last.
struct Later {
  Plan plan;
  std::function<Outcome()> outcome;  // a strategy's (StrategyDef::enqueue)
  std::function<SumState()> sum;     // a reproducible sum's (sum_later)
  std::unique_ptr<Exec> ex;
};

}  // namespace

bool enqueues(const Plan& plan) {
  if (keeps_sum_state(plan)) return true;
  const StrategyDef* s = find_strategy(plan.strategy);
  return s && s->enqueue;
}

std::function<Partial()> enqueue_partial(Context& ctx, const Plan& plan, const BufferAt& in,
                                         std::uint64_t n, bool profile) {
  if (!enqueues(plan))
    throw std::logic_error("enqueue_partial: " + plan.strategy + " has no enqueue form");
  auto l = std::make_shared<Later>();
  l->plan = plan;
  l->ex = std::make_unique<Exec>(impl_of(ctx), l->plan, profile);
  l->ex->in_offset = in.offset;
  if (keeps_sum_state(plan)) {
    l->sum = sum_later(*l->ex, in.buffer, n);
    return [l, n, profile] {
      const SumState s = l->sum();
      return PartialAccess::of_sum(s, l->plan, n, profile ? l->ex->device_seconds() : 0.0);
    };
  }
  l->outcome = find_strategy(plan.strategy)->enqueue(*l->ex, in.buffer, n);
  return [l, n, profile, &ctx] {
    const Outcome o = l->outcome();
    return PartialAccess::of_result(publish(ran_result(ctx, *l->ex, o, profile)), n);
  };
}

}  // namespace rdx::detail
