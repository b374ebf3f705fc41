// Runs a user's reduction (rdx/custom.hpp) with the plan's strategy, whose kernels are built
// with the reduction's definitions (USER_STATE, cl/common.h). A strategy with a run_user hook
// (StrategyDef, strategies/registry.hpp; fast_*: strategies/fast.cpp) runs it over every chunk
// itself. Every other strategy that can (StrategyFacts::user_unsupported): its own launcher per
// chunk of at most one device allocation, each chunk's state read back and the chunks' states
// folded on the device (Exec::fold).
#include "dispatch/run_user.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/text.hpp"
#include "dispatch/run_plan.hpp"
#include "exec/chunks.hpp"
#include "exec/exec.hpp"
#include "ops/user_reduction.hpp"
#include "strategies/registry.hpp"
#include "strategies/run_exact.hpp"

namespace rdx::detail {
namespace {

// UnsupportedError for f64 inputs or fields on a device without fp64.
void check_fp64(const Context& ctx, const Reduction& r, std::span<const Type> inputs) {
  for (Type t : inputs)
    if (t == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(detail::format(
          "f64 needs cl_khr_fp64, which device '{}' does not have", ctx.device_info().name));
  for (const Field& f : r.fields)
    if (f.type == Type::F64 && !ctx.device_info().fp64)
      throw UnsupportedError(detail::format(
          "the field '{}' is f64, which needs cl_khr_fp64; device '{}' does not have it",
          printable(f.name), ctx.device_info().name));
}

// The plan a prepared reduction runs with: the plan of Options::strategy (auto: fast_*) for the
// first input's type, with the strategy's own changes (StrategyDef::user_plan); UnsupportedError
// for a strategy that cannot run it, or f64 without fp64. Pure but for the context's device facts
// and tuning.
Plan user_plan(const Context& ctx, const Reduction& r, const Prepared& prep,
               std::span<const Type> inputs, std::uint64_t n, const Options& opts) {
  const std::size_t state_bytes = prep.layout.bytes;
  Options o = opts;
  o.acc.reset();  // the fields have their own types
  Plan p = make_plan(ctx.device_info(), inputs[0], Op::Sum, n, o, ctx.tuning());
  const StrategyDef* facts = find_strategy(p.strategy);
  if (const std::string why = facts->user_unsupported
                                  ? facts->user_unsupported(ctx.device_info(), state_bytes)
                                  : std::string();
      !why.empty())
    throw UnsupportedError(
        detail::format("the strategy {} does not run a user's reduction ('{}'): {}", p.strategy,
                       printable(r.name), why));
  check_fp64(ctx, r, inputs);
  if (facts->user_plan) facts->user_plan(ctx.device_info(), prep, o, ctx.tuning(), p);
  p.reduction = r.name.empty() ? "custom" : r.name;  // never "": a plan with one is a user's
  p.acc = r.fields[0].type;
  if (facts->depth) p.depth = facts->depth(p, ctx.device_info());  // the user kernel's chains
  return p;
}

// Any other strategy: its launcher per chunk, the chunks' states folded on the device.
StateResult run_strategy(Context& ctx, const Reduction& r, const Prepared& prep,
                         const UserInputs& in, std::uint64_t n, Exec& ex) {
  const StateLayout& layout = prep.layout;
  const StrategyDef* s = find_strategy(ex.plan.strategy);
  UserChunks chunks(ex, ctx.device_info(), in, n);
  std::vector<unsigned char> states;  // each chunk's state
  std::uint64_t count = 0;
  try {
    for_each_chunk(n, chunks.chunk, [&](std::uint64_t base, std::uint64_t len) {
      const Outcome o = s->run(ex, chunks.set(base, len), len);
      states.insert(states.end(), o.state.begin(), o.state.end());
      ++count;
    });
    if (count != 1) {  // several chunks, or none (the identity)
      const cl::Buffer b = ex.buffer(states.size(), states.data());
      states = ex.fold({b, b, count}, 0, count).state;
    }
  } catch (const BuildError& e) {
    rethrow_build_error(r, in.types, e);
  }
  return {unpack_state(r, layout, states.data()), ex.plan};
}

// The plan of a user's float sum fields under AnyDevice or Exact: both levels run the exact
// accumulator on them (the fixed bins of AnyDevice are for whole-input sums:
// docs/reproducible.md), each field in its own type.
Plan fields_plan(Context& ctx, const Reduction& r, std::uint64_t n, const Options& opts) {
  Options o = opts;
  o.acc.reset();
  o.determinism = Determinism::Exact;
  Plan p = make_plan(ctx.device_info(), r.fields[0].type, Op::Sum, n, o, ctx.tuning());
  p.reduction = r.name.empty() ? "custom" : r.name;
  return p;
}

}  // namespace

ExactFields exact_fields(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                         const Options& opts) {
  const auto prep = prepare(ctx, r, in.types);
  check_fp64(ctx, r, in.types);
  ExactFields out;
  out.plan = fields_plan(ctx, r, n, opts);
  Exec ex(impl_of(ctx), out.plan, opts.profile);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}, {}};
  UserChunks chunks(ex, ctx.device_info(), in, n);
  for (const Field& f : r.fields)
    out.sums.push_back(exact_zero(f.type));
  try {
    for_each_chunk(n, chunks.chunk, [&](std::uint64_t base, std::uint64_t len) {
      const cl::Buffer& in0 = chunks.set(base, len);
      for (std::size_t f = 0; f < r.fields.size(); ++f)
        add_exact(out.sums[f], run_exact(ex, in0, len, r.fields[f].type, r.fields[f].name));
    });
  } catch (const BuildError& e) {
    rethrow_build_error(r, in.types, e);
  }
  if (opts.profile) out.device_seconds = ex.device_seconds();
  return out;
}

namespace {

// enqueue_reduce of a reduction whose fields are all float sums (device inputs): the state zeroed
// (its padding, and an empty input's +0 sums), then each field's exact sum rounded on the device
// into its place; the last command's event is the target's.
StateResult enqueue_exact_fields(Context& ctx, const Reduction& r, const UserInputs& in,
                                 std::uint64_t n, const Options& opts, const AsyncTarget& target) {
  const auto prep = prepare(ctx, r, in.types);
  check_fp64(ctx, r, in.types);
  StateResult res;
  res.plan = fields_plan(ctx, r, n, opts);
  Exec ex(impl_of(ctx), res.plan);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}, {}};
  const std::vector<cl::Event>* wait = target.wait && !target.wait->empty() ? target.wait : nullptr;
  const cl_uchar zero = 0;
  RDX_CHECK(ex.queue.enqueueFillBuffer(*target.out, zero, target.offset, prep->layout.bytes, wait,
                                       n ? nullptr : target.done));
  if (n) {
    UserChunks chunks(ex, ctx.device_info(), in, n);  // device inputs: one chunk
    const cl::Buffer& in0 = chunks.set(0, n);
    try {
      for (std::size_t f = 0; f < r.fields.size(); ++f)
        enqueue_exact(ex, in0, n, r.fields[f].type, r.fields[f].name, r.fields[f].type, *target.out,
                      target.offset + prep->layout.offsets[f], nullptr,
                      f + 1 == r.fields.size() ? target.done : nullptr);
    } catch (const BuildError& e) {
      rethrow_build_error(r, in.types, e);
    }
  }
  ex.detach();
  RDX_CHECK(ex.queue.flush());
  return res;
}

}  // namespace

StateResult run_user(Context& ctx, const Reduction& r, const UserInputs& in, std::uint64_t n,
                     const Options& opts, const AsyncTarget* target) {
  const auto prep = prepare(ctx, r, in.types);  // validates r
  if (opts.determinism != Determinism::RunToRun) {
    switch (field_sums(r)) {
      case FieldSums::FloatSums:
        if (target) return enqueue_exact_fields(ctx, r, in, n, opts, *target);
        {
          // Each field's sum rounded once in the field's type.
          const ExactFields e = exact_fields(ctx, r, in, n, opts);
          StateResult res;
          res.plan = e.plan;
          for (std::size_t f = 0; f < r.fields.size(); ++f)
            res.fields.push_back(round_exact(e.sums[f], r.fields[f].type, r.fields[f].type, n));
          if (opts.profile) res.device_seconds = e.device_seconds;
          return res;
        }
      case FieldSums::NoFloats: {  // integer operators: the order does not matter
        Options o = opts;
        o.determinism = Determinism::RunToRun;
        return run_user(ctx, r, in, n, o, target);
      }
      case FieldSums::Other:
        throw UnsupportedError(detail::format(
            "determinism {}: the reduction '{}' has float fields that are not sums (a + b); only "
            "float sums (sum and dot transform-reduce, mean, norm2) and integer fields are "
            "reproducible",
            name(opts.determinism), printable(r.name)));
    }
  }
  const Plan plan = user_plan(ctx, r, *prep, in.types, n, opts);
  const StrategyDef* s = find_strategy(plan.strategy);
  if (target && !s->run_user)
    throw UnsupportedError(detail::format(
        "enqueue_reduce runs a user's reduction with auto, fast_strided or fast_blocked, not {} "
        "(its launcher reads its result on the host)",
        plan.strategy));
  Exec ex(impl_of(ctx), plan, opts.profile);
  ex.user = UserRun{&prep->definitions, prep->layout.bytes, 0, {}, {}};
  StateResult res = s->run_user ? s->run_user(ctx, r, *prep, in, n, ex, target)
                                : run_strategy(ctx, r, *prep, in, n, ex);
  if (opts.profile && !target) res.device_seconds = ex.device_seconds();
  // A kernel that does not fit the planned work-group size ran with a smaller one.
  if (const std::size_t wg = ex.work_group_size_built(); wg && wg < plan.work_group_size)
    res.plan.work_group_size = wg;
  return res;
}

}  // namespace rdx::detail
