// The partial states the library makes (dispatch/partial_access.hpp): from a published result,
// a reproducible sum's state or nothing, their combination in order and their result. rdx::Stream,
// the device group and rdx::reduce_partial (api/partial.cpp, which holds the byte form) make them
// here.
#include "dispatch/partial_access.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/type_table.hpp"
#include "dispatch/run_plan.hpp"
#include "ops/operators.hpp"
#include "ops/sum_state.hpp"
#include "plan/request.hpp"

namespace rdx::detail {
namespace {

// 2^bit (or -2^bit) added to digits whose digit k is worth 2^(32k).
void add_power(std::vector<std::int64_t>& d, int bit, std::int64_t sign) {
  d.at(static_cast<std::size_t>(bit / 32)) += sign * (std::int64_t{1} << (bit % 32));
}

}  // namespace

// Whether exact digits of elements of `type` (F32 or F64) hold no more than `count` elements can
// sum to: |sum| <= count * the type's largest finite value (infinities and NaN are flags, not
// digits). Every state that reduce_partial and combine make does; the sum of two such states stays
// inside the digits' 64 bits of headroom, so adding them cannot overflow a word.
bool exact_within(const std::vector<std::int64_t>& digits, Type type, std::uint64_t count) {
  std::vector<std::int64_t> mag = digits;
  if (mag.empty() || !propagate_carries(mag)) return false;
  // Far above any bound (whose top digit is below 2^22), and safe to negate.
  if (mag.back() > kExactDigitBase || mag.back() < -kExactDigitBase) return false;
  if (mag.back() < 0) {
    for (std::int64_t& d : mag)
      d = -d;
    propagate_carries(mag);
  }
  const int precision = type_row(type).digits;
  const int top_exp = type_row(type).max_exp - 1;
  // The largest finite value is (2^precision - 1) * 2^low, low counted from the digits' lsb.
  const int low = top_exp - (precision - 1) - exact_layout(type).lsb;
  std::vector<std::int64_t> bound(mag.size(), 0);
  for (int b = 0; b < 64; ++b)
    if ((count >> b) & 1) {
      add_power(bound, low + precision + b, 1);
      add_power(bound, low + b, -1);
    }
  propagate_carries(bound);
  for (std::size_t k = mag.size(); k-- > 0;)
    if (mag[k] != bound[k]) return mag[k] < bound[k];
  return true;
}

Partial PartialAccess::of_result(const Result& r, std::uint64_t count) {
  Partial p;
  p.type_ = r.plan.type;
  p.acc_ = r.plan.acc;
  p.op_ = r.plan.op;
  p.count_ = count;
  p.value_ = r.value;
  p.index_ = r.index;
  p.device_seconds_ = r.device_seconds;
  p.plan_ = r.plan;
  return p;
}

Partial PartialAccess::of_sum(const SumState& s, const Plan& plan, std::uint64_t count,
                              double seconds) {
  Partial p = empty(plan);
  p.count_ = count;
  if (const auto* e = std::get_if<ExactSum>(&s)) {
    p.digits_ = e->digits;
    p.flags_ = e->flags;
  } else {
    const BinnedSum& b = std::get<BinnedSum>(s);
    const auto words = binned_words(b);
    p.digits_.assign(words.begin(), words.end());
    p.flags_ = b.flags;
  }
  p.device_seconds_ = seconds;
  return p;
}

Partial PartialAccess::empty(const Plan& plan) {
  Partial p;
  p.type_ = plan.type;
  p.acc_ = plan.acc;
  p.op_ = plan.op;
  p.exact_ = is_exact(plan);
  p.binned_ = is_binned(plan);
  if (p.exact_) p.digits_ = exact_zero(plan.type).digits;
  if (p.binned_) {
    const auto words = binned_words(binned_zero(binned_bin_type(plan.acc)));
    p.digits_.assign(words.begin(), words.end());
  }
  p.value_ = Scalar{plan.acc, 0};
  p.plan_ = plan;
  return p;
}

SumState PartialAccess::sum_state(const Partial& p) {
  if (p.binned_) return binned_of_words(binned_bin_type(p.acc_), p.digits_.data(), p.flags_);
  return ExactSum{p.digits_, p.flags_};
}

Partial PartialAccess::combined(const Partial& left, const Partial& right) {
  Partial out = left;
  out.count_ = left.count_ + right.count_;
  out.device_seconds_ += right.device_seconds_;
  out.plan_.n = out.count_;
  if (left.exact_) {
    // States beyond their counts' bound could overflow the digits' words when added.
    if (!exact_within(left.digits_, left.type_, left.count_) ||
        !exact_within(right.digits_, right.type_, right.count_))
      throw ArgumentError(
          "combine: an exact state holds a larger sum than its elements can (not a state that "
          "reduce_partial or from_bytes made)");
    ExactSum s = std::get<ExactSum>(sum_state(left));
    add_exact(s, std::get<ExactSum>(sum_state(right)));
    out.digits_ = std::move(s.digits);
    out.flags_ = s.flags;
    return out;
  }
  if (left.binned_) {
    // Carries within their counts' bound cannot overflow when added.
    BinnedSum s = std::get<BinnedSum>(sum_state(left));
    const BinnedSum r = std::get<BinnedSum>(sum_state(right));
    if (!binned_valid(s, left.count_) || !binned_valid(r, right.count_))
      throw ArgumentError(
          "combine: a binned state that deposits of its elements cannot make (not a state that "
          "reduce_partial or from_bytes made)");
    add_binned(s, r);
    const auto words = binned_words(s);
    out.digits_.assign(words.begin(), words.end());
    out.flags_ = s.flags;
    out.plan_.depth = binned_depth(out.acc_, out.count_);  // the bound of all the elements
    return out;
  }
  // right's index counts from right's first element, which follows left's elements.
  const Outcome o = combine_outcomes(
      left.plan_, {left.value_, left.index_},
      {right.value_,
       right.index_ ? std::optional<std::uint64_t>(*right.index_ + left.count_) : std::nullopt});
  out.value_ = o.value;
  out.index_ = o.index;
  out.plan_.depth = std::max(left.plan_.depth, right.plan_.depth) + 1;
  return out;
}

Result PartialAccess::finished(const Partial& p) {
  if (p.count_ == 0) return empty_result(p.plan_);
  if (p.exact_ || p.binned_) return sum_result(sum_state(p), p.plan_, p.count_, p.device_seconds_);
  return {p.value_, p.index_, p.plan_, p.device_seconds_};
}

void check_partial_op(const Plan& plan) {
  if (marked_states(plan.op, plan.acc))
    throw UnsupportedError(
        "a partial state of a float product is not kept (its parts' zeros and infinities do not "
        "combine after rounding): reduce it on one device");
}

}  // namespace rdx::detail
