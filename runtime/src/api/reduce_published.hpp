// Internal: rdx::reduce's work, before its result is finished for the caller, which
// rdx::reduce_partial shares (api/partial.cpp).
#pragma once
#include <cstdint>

#include "rdx/reduce.hpp"

namespace rdx::detail {

// The plan run on n >= 1 elements that fit one allocation: host data (uploaded) or a device
// buffer. Its result as publish (dispatch/run_plan.hpp) gives it: rdx::reduce finishes it
// (finished_result), a Partial keeps it.
Result reduce_published(Context& ctx, const Plan& plan, const void* host, const BufferAt* device,
                        std::uint64_t n, bool profile);

}  // namespace rdx::detail
