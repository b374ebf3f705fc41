// A reduction's partial state over a contiguous run of elements: computed on one device, combined
// with its neighbours' in order, sent as bytes between processes, and finished into a Result once
// every run is in. rdx::DeviceGroup combines its devices' partials this way, and rdx_mpi
// (rdx/mpi.hpp) its ranks' (docs/multidevice.md).
//
//   rdx::Partial a = rdx::reduce_partial(ctx, rdx::Type::F32, first_half, n1, rdx::Op::Sum, opts);
//   rdx::Partial b = rdx::reduce_partial(ctx, rdx::Type::F32, second_half, n2, rdx::Op::Sum, opts);
//   rdx::Result r = rdx::finish(rdx::combine(a, b));   // as one reduction of both halves
//
// What the combined result is:
// - integers, min, max and the bitwise operators: what one reduction of the concatenation gives;
// - argmin/argmax: the index counts from the first element of the leftmost partial, and a tie
//   goes to the first occurrence;
// - float sums under Determinism Exact: the partial keeps the exact sum (fixed-point digits, never
//   rounded), and under AnyDevice the fixed-bin sum's state (its bins merge without rounding
//   differences), so the result is one reduction's bits whatever the split;
// - float sums under RunToRun: the partials' rounded values added in the order combined.
// Float products are refused (UnsupportedError): a partial holds built-in operators' states only.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/plan.hpp"
#include "rdx/reduce.hpp"
#include "rdx/types.hpp"

namespace rdx {

namespace detail {
struct PartialAccess;
}

class Partial {
 public:
  Type type() const { return type_; }  // the elements'
  Type acc() const { return acc_; }    // the result's
  Op op() const { return op_; }
  // Whether the state is an exact float sum (Determinism Exact).
  bool exact() const { return exact_; }
  // Whether the state is a fixed-bin float sum (Determinism AnyDevice).
  bool binned() const { return binned_; }
  std::uint64_t count() const { return count_; }  // the elements it covers
  // The plan that reduced its elements (of the leftmost partial with elements once combined);
  // a partial read back by from_bytes has only type, acc, op and n (and, for an exact or binned
  // sum, the depth of its error bound).
  const Plan& plan() const { return plan_; }

  // The state as bytes, for another process (little-endian; the same size for every partial of
  // one type, operator, accumulator and level), and back. from_bytes throws ArgumentError for
  // bytes that are not one, among them an exact sum beyond what count() elements can reach.
  // Types and operators are written as fixed codes, not as the enumerators' positions, so a
  // librdx with more types or operators reads these bytes as written (the layout and the codes:
  // runtime/src/api/partial.cpp and the rows of runtime/src/core/type_table.hpp and operators.hpp;
  // tests/test_partial.cpp pins them byte for byte).
  std::vector<unsigned char> to_bytes() const;
  static Partial from_bytes(std::span<const unsigned char> bytes);

 private:
  friend struct detail::PartialAccess;
  Type type_ = Type::F32, acc_ = Type::F32;
  Op op_ = Op::Sum;
  bool exact_ = false;
  bool binned_ = false;
  std::uint64_t count_ = 0;
  Scalar value_;                        // an inexact state's (none when count_ == 0)
  std::optional<std::uint64_t> index_;  // argmin/argmax: within this partial's elements
  // An exact state's digits (ops/exact_sum.hpp), or a binned state's primaries' bits and carries
  // (ops/binned_sum.hpp's binned_words).
  std::vector<std::int64_t> digits_;
  std::uint32_t flags_ = 0;
  double device_seconds_ = 0;  // with Options::profile
  Plan plan_;
};

// The partial state of n elements of `type` on ctx's device: host data (null only when n == 0)
// or n elements of a buffer of ctx's context from its element offset on. Checks the request as
// rdx::reduce does; an empty partial (n == 0) is valid for every operator.
Partial reduce_partial(Context& ctx, Type type, const void* data, std::uint64_t n, Op op,
                       const Options& opts = {});
Partial reduce_partial(Context& ctx, Type type, const BufferAt& data, std::uint64_t n, Op op,
                       const Options& opts = {});

// The state of left's elements followed by right's. ArgumentError when the two are not states of
// the same type, operator, accumulator and level, their counts overflow 64 bits, or an exact
// sum is beyond what its count of elements can reach (which keeps the digits from overflowing).
Partial combine(const Partial& left, const Partial& right);

// The result of every element the partial covers: for an empty one the operator's identity
// (ArgumentError for argmin/argmax, as rdx::reduce); an exact sum rounded once.
Result finish(const Partial& p);

}  // namespace rdx
