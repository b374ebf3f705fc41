// Internal: running a plan on a device buffer, and shaping its result: what rdx::reduce and
// rdx::Stream share (neither calls the other for it).
#pragma once
#include <cstdint>

#include "exec/device_input.hpp"  // check_device_input, for the entry points
#include "exec/exec.hpp"
#include "plan/request.hpp"  // max_alloc_elements, byte_size
#include "rdx/reduce.hpp"

namespace rdx::detail {

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
