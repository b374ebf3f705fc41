// Internal: combines the results of consecutive chunks of one input on the host, in order, for
// the streaming reducer. argmin/argmax indices are moved by each chunk's start; float sums are
// summed with compensation (Neumaier) in long double and rounded once, so the combine adds at
// most one rounding of the total to the chunks' own errors.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include "exec/exec.hpp"
#include "ops/operators.hpp"
#include "rdx/plan.hpp"
#include "rdx/reduce.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

class ChunkCombiner {
 public:
  // Adds the result of the next chunk, whose first element is element `start` of the input.
  void add(const Result& r, std::uint64_t start) {
    Outcome o{r.value, r.index};
    if (o.index && *o.index != kNoIndex) *o.index += start;
    const bool float_sum = adds(r.plan.op) && is_float(r.plan.acc);
    if (float_sum) add_float(r.value.as<long double>());
    acc_ = acc_ && !float_sum ? combine_outcomes(r.plan, *acc_, o) : o;
    max_depth_ = chunks_ ? std::max(max_depth_, r.plan.depth) : r.plan.depth;
    last_ = r.plan;
    seconds_ += r.device_seconds;
    ++chunks_;
  }

  std::uint64_t chunks() const { return chunks_; }

  // The result over all n elements added (at least one chunk).
  Result result(std::uint64_t n) const {
    Result r{acc_->value, acc_->index, last_, seconds_};
    r.plan.n = n;
    if (chunks_ == 1) return r;
    if (adds(last_.op) && is_float(last_.acc)) {
      r.value = visit_acc(last_.acc, [&](auto z) {
        using A = decltype(z);
        // inf and NaN follow the plain sum (+inf + -inf is NaN); compensation would turn any
        // inf into NaN.
        return Scalar::of(A(std::isfinite(plain_) ? sum_ + comp_ : plain_));
      });
      // Each chunk's error is within (depth_c + 1) * eps * sum|x_c|; the compensated long
      // double total adds far less than one more eps * sum|x| before its final rounding, which
      // adds eps / 2 * |sum|.
      r.plan.depth = max_depth_ + 1;
    } else {
      // The first chunk's result goes through chunks - 1 more combines.
      r.plan.depth = max_depth_ + chunks_ - 1;
    }
    return r;
  }

 private:
  void add_float(long double x) {
    if (!chunks_) {
      sum_ = plain_ = x;  // not 0 + x, which would turn a -0 sum into +0
      return;
    }
    plain_ += x;
    const long double t = sum_ + x;
    comp_ += std::fabs(sum_) >= std::fabs(x) ? (sum_ - t) + x : (x - t) + sum_;
    sum_ = t;
  }

  std::optional<Outcome> acc_;
  long double sum_ = 0, comp_ = 0, plain_ = 0;
  std::uint64_t chunks_ = 0, max_depth_ = 0;
  Plan last_;
  double seconds_ = 0;
};

}  // namespace rdx::detail
