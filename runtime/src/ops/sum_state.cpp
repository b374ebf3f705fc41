// The reproducible sums' states (sum_state.hpp): each operation by the state's form.
#include "ops/sum_state.hpp"

#include <optional>
#include <stdexcept>

namespace rdx::detail {

SumState sum_zero(const Plan& plan) {
  switch (plan.state) {
    case StateForm::Bins:
      return binned_zero(binned_bin_type(plan.acc));
    case StateForm::Digits:
      return exact_zero(plan.type);
    case StateForm::Value:
      break;
  }
  throw std::logic_error("sum_zero: " + plan.strategy + " keeps no sum state");
}

void add_sum(SumState& a, const SumState& b) {
  if (a.index() != b.index()) throw std::logic_error("add_sum: states of two forms");
  if (auto* e = std::get_if<ExactSum>(&a))
    add_exact(*e, std::get<ExactSum>(b));
  else
    add_binned(std::get<BinnedSum>(a), std::get<BinnedSum>(b));
}

Result sum_result(const SumState& s, const Plan& plan, std::uint64_t count, double seconds) {
  if (const auto* e = std::get_if<ExactSum>(&s)) return rounded_result(*e, plan, count, seconds);
  const BinnedSum& b = std::get<BinnedSum>(s);
  return {round_exact(binned_exact(b), b.bin, plan.acc, count), std::nullopt, plan, seconds};
}

}  // namespace rdx::detail
