// The plans a context made for whole reductions, kept for the next call with the same request.
// make_plan is a pure function of the device, the context's tuning table (both fixed for the
// context's life) and the request, so a kept plan is the plan it would make again; planning walks
// the tuning table and costs about 1 us a call, which a small GPU call otherwise pays every time
// (docs/performance.md, "Where a small call's time goes").
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "rdx/plan.hpp"

namespace rdx::detail {

class PlanMemo {
 public:
  // The kept plan for (type, op, n, opts), else make()'s, kept in place of the oldest. make()
  // runs outside the lock; what it throws reaches the caller and nothing is kept.
  template <class Make>
  std::shared_ptr<const Plan> get(Type type, Op op, std::uint64_t n, const Options& opts,
                                  Make&& make) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const Entry& e : entries_)
        if (e.plan && e.type == type && e.op == op && e.n == n && e.opts == opts) return e.plan;
    }
    auto plan = std::make_shared<const Plan>(make());
    std::lock_guard<std::mutex> lock(mutex_);
    entries_[next_] = Entry{type, op, n, opts, plan};
    next_ = (next_ + 1) % entries_.size();
    return plan;
  }

 private:
  struct Entry {
    Type type = Type::F32;
    Op op = Op::Sum;
    std::uint64_t n = 0;
    Options opts;
    std::shared_ptr<const Plan> plan;
  };
  std::mutex mutex_;
  std::array<Entry, 16> entries_;
  std::size_t next_ = 0;
};

}  // namespace rdx::detail
