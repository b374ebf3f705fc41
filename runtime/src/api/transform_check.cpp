// A built-in operator run as a user's reduction, Reduction::transform(op, type, "x"), against the
// built-in's own host reference (see rdx::check_transform in rdx/verify.hpp): the operators'
// OpenCL C comes from one descriptor (ops/operators.hpp) for both paths.
#include <fmt/format.h>

#include "ops/operators.hpp"
#include "rdx/context.hpp"
#include "rdx/custom.hpp"
#include "rdx/types.hpp"
#include "rdx/verify.hpp"

namespace rdx {

bool transform_matches_builtin(Op op, Type type) {
  // A float product's transform multiplies (a * b); the built-in also keeps input infinities
  // apart from overflows. argmin and argmax have no transform (their state has an index).
  return op_allows(op, type) && !is_index_op(op) && !detail::marked_states(op, type);
}

std::string check_transform(Context& ctx, Op op, Type type, std::uint64_t n, std::uint64_t seed,
                            const Options& opts) {
  if (!transform_matches_builtin(op, type))
    throw ArgumentError(
        fmt::format("check_transform: {} on {} has no matching transform", name(op), name(type)));
  if (n == 0) throw ArgumentError("check_transform: n >= 1");
  const auto data = make_case_data(type, op, Pattern::Random, n, seed);
  const Array in[] = {{type, data.data()}};
  const StateResult r = reduce(ctx, Reduction::transform(op, type, "x"), in, n, opts);
  const Reference ref = reference_reduce(type, r.fields.at(0).type, op, data.data(), n);
  Plan as_op = r.plan;  // a user's plan does not use op: check_result reads it as op's result
  as_op.op = op;
  return check_result(as_op, r.fields.at(0), std::nullopt, ref);
}

}  // namespace rdx
