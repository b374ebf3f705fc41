// rdx::Partial (rdx/partial.hpp), its one home: the states the library makes
// (dispatch/partial_access.hpp: from a published result, a reproducible sum's state or nothing),
// their combination in order, their result and their byte form. rdx::reduce_partial
// (api/partial.cpp), rdx::Stream::finish_partial and the device group make them here.
#include "rdx/partial.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "core/type_table.hpp"
#include "dispatch/partial_access.hpp"
#include "dispatch/run_plan.hpp"
#include "ops/binned_sum.hpp"
#include "ops/exact_sum.hpp"
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

namespace rdx {

namespace {

using detail::PartialAccess;

// The byte form, version 1 (little-endian): "RDXP", version, type, acc, op (one byte each: the
// wire codes of the types' and operators' rows, core/type_table.hpp and ops/operators.hpp, never
// the enumerators' positions); form (0: a value, 1: exact digits, 2: fixed bins), has_index, two
// zero bytes, flags (u32: the exact or binned sum's, ops/exact_sum.hpp); count, value bits (the
// accumulator's bytes in the low ones), index (u64 each; index 0 without one); the words' count
// (u32), four zero bytes; the words (i64 each): exact digits, digit k worth
// 2^(32k + exact_layout(type).lsb), or the fixed bins' three primaries' bits (zero-extended) and
// three carries (ops/binned_sum.hpp's binned_words).
constexpr unsigned char kMagic[4] = {'R', 'D', 'X', 'P'};
constexpr unsigned char kVersion = 1;
constexpr std::size_t kHeaderBytes = 48;

void put(std::vector<unsigned char>& out, std::uint64_t v, int bytes) {
  for (int k = 0; k < bytes; ++k)
    out.push_back(static_cast<unsigned char>(v >> (8 * k)));
}

std::uint64_t get(std::span<const unsigned char> in, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int k = 0; k < bytes; ++k)
    v |= std::uint64_t{in[at + static_cast<std::size_t>(k)]} << (8 * k);
  return v;
}

// The wire code of enumerator e in `rows` (kTypeRows, kOpRows), and back; every enumerator has a
// row and each code names one (the tables' static_asserts).
template <class Row, std::size_t N, class E>
std::uint64_t wire_code(const Row (&rows)[N], E Row::*key, E e) {
  for (const Row& r : rows)
    if (r.*key == e) return r.wire;
  throw std::logic_error("Partial::to_bytes: an enumerator without a row");
}

template <class Row, std::size_t N, class E>
E from_wire_code(const Row (&rows)[N], E Row::*key, std::uint64_t code, const char* what) {
  for (const Row& r : rows)
    if (r.wire == code) return r.*key;
  throw ArgumentError(detail::format("Partial::from_bytes: {} {} is not one", what, code));
}

std::string describe(const Partial& p) {
  return detail::format("{} of {} into {}{}", name(p.op()), name(p.type()), name(p.acc()),
                        p.exact()    ? " (exact)"
                        : p.binned() ? " (binned)"
                                     : "");
}

}  // namespace

std::vector<unsigned char> Partial::to_bytes() const {
  std::vector<unsigned char> out(std::begin(kMagic), std::end(kMagic));
  out.reserve(kHeaderBytes + 8 * digits_.size());
  put(out, kVersion, 1);
  put(out, wire_code(detail::kTypeRows, &detail::TypeRow::type, type_), 1);
  put(out, wire_code(detail::kTypeRows, &detail::TypeRow::type, acc_), 1);
  put(out, wire_code(detail::kOpRows, &detail::OpRow::op, op_), 1);
  put(out, exact_ ? 1 : binned_ ? 2 : 0, 1);
  put(out, index_ ? 1 : 0, 1);
  put(out, 0, 2);
  put(out, flags_, 4);
  put(out, count_, 8);
  put(out, value_.bits, 8);
  put(out, index_.value_or(0), 8);
  put(out, digits_.size(), 4);
  put(out, 0, 4);
  for (std::int64_t d : digits_)
    put(out, static_cast<std::uint64_t>(d), 8);
  return out;
}

Partial Partial::from_bytes(std::span<const unsigned char> in) {
  if (in.size() < kHeaderBytes || !std::equal(std::begin(kMagic), std::end(kMagic), in.begin()))
    throw ArgumentError(
        detail::format("Partial::from_bytes: {} bytes that are not a partial state", in.size()));
  if (in[4] != kVersion)
    throw ArgumentError(
        detail::format("Partial::from_bytes: version {} (this librdx reads {})", in[4], kVersion));
  Partial p;
  p.type_ = from_wire_code(detail::kTypeRows, &detail::TypeRow::type, get(in, 5, 1), "type");
  p.acc_ = from_wire_code(detail::kTypeRows, &detail::TypeRow::type, get(in, 6, 1), "accumulator");
  p.op_ = from_wire_code(detail::kOpRows, &detail::OpRow::op, get(in, 7, 1), "operator");
  if (in[8] > 2)
    throw ArgumentError(detail::format("Partial::from_bytes: form {} is not one", in[8]));
  p.exact_ = in[8] == 1;
  p.binned_ = in[8] == 2;
  const bool has_index = in[9] != 0;
  p.flags_ = static_cast<std::uint32_t>(get(in, 12, 4));
  p.count_ = get(in, 16, 8);
  p.value_ = Scalar{p.acc_, get(in, 24, 8)};
  if (has_index) p.index_ = get(in, 32, 8);
  const std::size_t digits = get(in, 40, 4);
  const auto malformed = [&](const char* why) {
    return ArgumentError(
        detail::format("Partial::from_bytes: a malformed state ({} bytes): {}", in.size(), why));
  };
  // The request as a plan would have checked it (on a device with fp64), and the state's fields
  // as reduce_partial and combine make them.
  DeviceInfo any_device;
  any_device.fp64 = true;
  try {
    if (detail::checked_acc(any_device, p.type_, p.op_, p.acc_) != p.acc_)
      throw malformed("an accumulator the request cannot have");
  } catch (const ArgumentError& e) {
    throw malformed(e.what());
  }
  if (detail::marked_states(p.op_, p.acc_)) throw malformed("a float product");
  if ((p.exact_ || p.binned_) &&
      !(detail::exact_sum_policy(p.op_) && is_float(p.type_) && is_float(p.acc_)))
    throw malformed("an exact or binned state of something other than a float sum");
  const std::size_t want = p.exact_    ? detail::exact_layout(p.type_).digits
                           : p.binned_ ? std::size_t{2 * detail::kBinnedFold}
                                       : std::size_t{0};
  if (digits != want || in.size() != kHeaderBytes + 8 * digits)
    throw malformed("the wrong number of digits");
  if (get(in, 10, 2) || get(in, 44, 4) || (!p.exact_ && !p.binned_ && p.flags_) ||
      (p.binned_ && (p.flags_ & ~std::uint32_t{15})))
    throw malformed("reserved bytes or flags set");
  if (size_of(p.acc_) < 8 && (p.value_.bits >> (8 * size_of(p.acc_))))
    throw malformed("value bits beyond the accumulator");
  if (has_index != (is_index_op(p.op_) && p.count_ > 0) || (has_index && *p.index_ >= p.count_) ||
      (!has_index && get(in, 32, 8)))
    throw malformed("an index that does not fit the state");
  for (std::size_t k = 0; k < digits; ++k)
    p.digits_.push_back(static_cast<std::int64_t>(get(in, kHeaderBytes + 8 * k, 8)));
  if (p.exact_ && !detail::exact_within(p.digits_, p.type_, p.count_))
    throw malformed("an exact sum larger than its count of elements can reach");
  if (p.binned_ &&
      !detail::binned_valid(std::get<detail::BinnedSum>(PartialAccess::sum_state(p)), p.count_))
    throw malformed("fixed bins that deposits of its count of elements cannot make");
  p.plan_.type = p.type_;
  p.plan_.acc = p.acc_;
  p.plan_.op = p.op_;
  p.plan_.n = p.count_;
  p.plan_.state = p.exact_ ? StateForm::Digits : p.binned_ ? StateForm::Bins : StateForm::Value;
  // The error bound of a reproducible sum follows from the level and the count alone.
  if (p.exact_) p.plan_.depth = 1;
  if (p.binned_) p.plan_.depth = detail::binned_depth(p.acc_, p.count_);
  return p;
}

Partial combine(const Partial& left, const Partial& right) {
  if (left.type() != right.type() || left.acc() != right.acc() || left.op() != right.op() ||
      left.exact() != right.exact() || left.binned() != right.binned())
    throw ArgumentError(detail::format("combine: partial states of different reductions ({}; {})",
                                       describe(left), describe(right)));
  if (left.count() > std::numeric_limits<std::uint64_t>::max() - right.count())
    throw ArgumentError("combine: the partial states' element counts overflow 64 bits");
  if (right.count() == 0) return left;
  if (left.count() == 0) return right;
  return PartialAccess::combined(left, right);
}

Result finish(const Partial& p) {
  Result r = PartialAccess::finished(p);
  detail::check_all_nan_index(r.plan.op, r.value, "finish");
  r.value = result_value(r.plan.op, r.plan.type, r.value);
  return r;
}

}  // namespace rdx
