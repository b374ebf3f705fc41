// rdx::Partial (rdx/partial.hpp): partial states of built-in reductions, their byte form, their
// combination in order and their result.
#include "rdx/partial.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "api/reduce_published.hpp"
#include "core/type_table.hpp"
#include "dispatch/partial_access.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/run_sum.hpp"
#include "exec/exec.hpp"
#include "exec/wait_gate.hpp"
#include "ops/exact_sum.hpp"
#include "ops/operators.hpp"
#include "plan/request.hpp"
#include "rdx/stream.hpp"

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
  // The error bound of a reproducible sum follows from the level and the count alone.
  if (p.exact_) p.plan_.depth = 1;
  if (p.binned_) p.plan_.depth = detail::binned_depth(p.acc_, p.count_);
  return p;
}

namespace {

// reduce_partial's steps for host data (`host`) or a buffer (`device`): the plan and its checks,
// then the exact sum's digits or rdx::reduce's result.
Partial partial_of(Context& ctx, Type type, const void* host, const BufferAt* device,
                   std::uint64_t n, Op op, const Options& opts) {
  const Plan plan = make_plan(ctx.device_info(), type, op, n, opts, ctx.tuning());
  detail::check_partial_op(plan);
  if (device) detail::check_device_input(ctx, *device, type, n, "reduce_partial");
  if (n == 0) return PartialAccess::empty(plan);
  if (!device && !host) throw ArgumentError("reduce_partial: data is null but n > 0");
  if (detail::is_sum_state_plan(plan)) {
    double seconds = 0;
    const detail::SumState s =
        detail::sum_total(ctx, plan, host, device, n, opts.profile, &seconds);
    return PartialAccess::of_sum(s, plan, n, seconds);
  }
  // rdx::reduce's work, its result kept as published (not finished: a part's nanargmin may be
  // all NaN where the whole is not).
  if (!device && n > detail::max_alloc_elements(ctx.device_info(), type)) {
    detail::WaitGate::leave();  // as rdx::reduce's stream: the other parts need not wait for it
    Stream s(ctx, type, op, opts);
    s.push(host, n);
    return s.finish_partial();
  }
  return PartialAccess::of_result(
      detail::reduce_published(ctx, plan, host, device, n, opts.profile), n);
}

}  // namespace

Partial reduce_partial(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
                       const Options& opts) {
  return partial_of(ctx, type, data, nullptr, n, op, opts);
}

Partial reduce_partial(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
                       const Options& opts) {
  return partial_of(ctx, type, nullptr, &data, n, op, opts);
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
