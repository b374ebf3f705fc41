// Internal: how the library makes rdx::Partial states (rdx/partial.hpp) from what ran: a published
// Result, an exact sum, or nothing. reduce_partial, Stream::finish_partial and the device group
// (dispatch/partial.cpp, rdx::Partial's one home).
#pragma once
#include <cstdint>
#include <vector>

#include "ops/sum_state.hpp"
#include "rdx/partial.hpp"

namespace rdx::detail {

struct PartialAccess {
  // An inexact state: r's value and index over `count` >= 1 elements, r.plan.
  static Partial of_result(const Result& r, std::uint64_t count);
  // A reproducible float sum's state over `count` elements, reduced by `plan` (an exact_sum or
  // binned_sum plan).
  static Partial of_sum(const SumState& s, const Plan& plan, std::uint64_t count, double seconds);
  // No elements, for `plan`'s request.
  static Partial empty(const Plan& plan);
  // The sum state of p (p.exact() or p.binned()).
  static SumState sum_state(const Partial& p);
  // rdx::combine of two non-empty states of one reduction, and rdx::finish.
  static Partial combined(const Partial& left, const Partial& right);
  static Result finished(const Partial& p);
};

// UnsupportedError for a plan whose state a Partial does not keep (float products).
void check_partial_op(const Plan& plan);

// Whether exact digits of elements of `type` (F32 or F64) hold no more than `count` elements can
// sum to (dispatch/partial.cpp): what combine and from_bytes check.
bool exact_within(const std::vector<std::int64_t>& digits, Type type, std::uint64_t count);

}  // namespace rdx::detail
