// Internal: running a plan, and shaping its result: what rdx::reduce, rdx::reduce_partial and
// rdx::Stream share (none calls another for it). run_whole is the one place a whole input's plan
// is told apart by its form.
#pragma once
#include <cstdint>
#include <memory>
#include <variant>

#include "exec/device_input.hpp"  // check_device_input, for the entry points
#include "exec/exec.hpp"
#include "ops/sum_state.hpp"
#include "plan/request.hpp"  // max_alloc_elements, byte_size
#include "rdx/reduce.hpp"

namespace rdx::detail {

// make_plan's plan for the request, kept by the context for the next call (core/plan_memo.hpp):
// rdx::reduce's, and the composites' question whether a host input runs on the calling thread.
std::shared_ptr<const Plan> planned(Context& ctx, Type type, Op op, std::uint64_t n,
                                    const Options& opts);

// auto's plan of a whole-input sum of n >= 1 host elements of `type` where it runs on the calling
// thread (runs_on_host: a CPU device, at most host_items elements) and opts leave the plan's
// choices to it (no strategy by name, tunables, work-group size or profile); null otherwise. The
// one test the host loops of composites and of segments share (their callers add their own
// conditions: a level, a map, the form).
std::shared_ptr<const Plan> host_loop_plan(Context& ctx, Type type, std::uint64_t n,
                                           const Options& opts);

// A reproducible float sum's run: its state over the elements, and its kernels' seconds (with
// profile).
struct SumRan {
  SumState state;
  double seconds = 0;
};
// What run_whole gives, by the plan's form: a published Result (StateForm::Value: publish below)
// or a reproducible sum's state (Bins, Digits), which the caller rounds (sum_result) or keeps (a
// Partial).
using WholeRun = std::variant<Result, SumRan>;

// The one dispatch of a whole input: `plan` run on n >= 1 elements of host data (`host`) or of a
// device buffer (`device`), by Plan::state (an exhaustive switch): a value plan by its strategy's
// launcher (run_plan; host data uploaded first, core/host_input.hpp), bins and digits by the
// reproducible sum's passes (dispatch/run_sum.hpp, which take host data in chunks themselves).
// Host data of a value plan must fit one call (fits_one_call).
WholeRun run_whole(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                   std::uint64_t n, bool profile);

// Whether run_whole takes n host elements in one call: a reproducible sum always, a value plan
// up to one device allocation (beyond it, api/ hands the input to an rdx::Stream, whose chunks'
// transfers overlap the reductions).
bool fits_one_call(const DeviceInfo& dev, const Plan& plan, std::uint64_t n);

// Runs `plan` on the first n >= 1 elements of `in` (from its offset on; on ctx's queue; ends with
// a blocking read).
// The result's plan is what ran: the work-group size the kernels were built for, where a kernel
// did not fit the planned one (Exec::kernel halves it), and the depth of that size.
Result run_plan(Context& ctx, const Plan& plan, const BufferAt& in, std::uint64_t n, bool profile);

// run_plan's Result of the Outcome that ex's strategy gave.
Result ran_result(const Context& ctx, Exec& ex, const Outcome& o, bool profile);

// The result as the user sees it, once every partial state has been combined: a float
// product's marked input infinity (ops/float_prod.hpp) becomes an infinity. run_plan's results are
// partial states; reduce() and Stream::finish() publish them.
Result publish(Result r);
// publish, then the result's last checks and type, for the caller: nanargmin/nanargmax of NaN
// alone is an ArgumentError (ops/operators.hpp), and an element of a storage type is given in
// its type (rdx::result_value). reduce() and Stream::finish() return it; a Partial keeps
// publish's (Stream::finish_partial), and rdx::finish does the same to it.
Result finished_result(Result r);

// The result of an empty input: the identity; ArgumentError for argmin/argmax.
Result empty_result(const Plan& plan);

}  // namespace rdx::detail
