// Internal: what the two reproducible sums (strategies/run_exact.cpp, strategies/run_binned.cpp)
// keep with the context per plan shape: their three kernels, the finish's output and its pinned
// copy.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "core/pinned_bytes.hpp"
#include "exec/exec.hpp"

namespace rdx::detail {

struct SumKernels {
  bool ready = false;
  Kernel partial, finish, round;  // PREFIX_partial, PREFIX_finish, PREFIX_round_out (`round`)
  cl::Buffer out;                 // what the finish writes
  std::unique_ptr<PinnedBytes> result;

  // Built from `file` with `opts` on the first call (`round`: the round kernel too, which a call
  // without it never needs), with `out_bytes` of output; counted as built by ex either way.
  void prepare(Exec& ex, const char* file, const std::string& prefix, const std::string& opts,
               bool round, std::size_t out_bytes);
};

}  // namespace rdx::detail
