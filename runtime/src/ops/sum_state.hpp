// Internal: the state of a reproducible float sum, by the plan that makes it: the fixed bins of
// Determinism AnyDevice (binned_sum.hpp) or the exact digits of Exact (exact_sum.hpp). Pure: no
// OpenCL (dispatch/run_sum.hpp runs the plans).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <variant>

#include "ops/binned_sum.hpp"
#include "ops/exact_sum.hpp"
#include "rdx/plan.hpp"
#include "rdx/reduce.hpp"

namespace rdx::detail {

using SumState = std::variant<ExactSum, BinnedSum>;

// Whether `plan` keeps one of the two (Plan::state Bins or Digits).
inline bool keeps_sum_state(const Plan& p) {
  switch (p.state) {
    case StateForm::Value:
      return false;
    case StateForm::Bins:
    case StateForm::Digits:
      return true;
  }
  throw std::logic_error("keeps_sum_state: a plan of no state form");
}

// No elements, in the plan's form.
SumState sum_zero(const Plan& plan);

// a += b: states of one form (the same plan's).
void add_sum(SumState& a, const SumState& b);

// The Result of `plan` whose state over `count` elements is s: the state's value rounded once
// into plan.acc, and `seconds` of device time.
Result sum_result(const SumState& s, const Plan& plan, std::uint64_t count, double seconds);

}  // namespace rdx::detail
