// Registry rows of seed 001 ("A Study in Reduction") steps 1-4 (see registry.hpp); step 5,
// sequential addressing, is the localtree row in registry.cpp.
#include <algorithm>
#include <string>

#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_atomic_global(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_atomic_local(Exec&, const cl::Buffer&, std::uint64_t);
std::string atomic_global_form(const DeviceInfo&);  // atomic.cpp
std::string atomic_local_form(const DeviceInfo&);   // atomic.cpp
Outcome run_interleaved(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_strided(Exec&, const cl::Buffer&, std::uint64_t);

namespace {

// Atomics combine in an arbitrary order: a chain through every element, plus the identity the
// accumulator starts from and, for atomic_local, the step from group to global accumulator.
std::uint64_t atomic_depth(const Plan& p, const DeviceInfo&) {
  return p.n + 2;
}

// A padded tree of ceil(log2 wg) levels per pass, passes until one state is left.
std::uint64_t tree_passes_depth(std::uint64_t n, std::uint64_t wg) {
  if (wg < 2) return n;  // a one-item group only copies: no levels, one pass per element
  std::uint64_t passes = 0;
  for (std::uint64_t c = n; passes == 0 || c > 1; c = (c + wg - 1) / wg)
    ++passes;
  return ceil_log2(wg) * passes;
}

// Exec::kernel may halve the work-group size to fit the device: take the worse of the two.
std::uint64_t tree_depth_wg(const Plan& p, const DeviceInfo&) {
  const std::uint64_t wg = p.work_group_size;
  return std::max(tree_passes_depth(p.n, wg), tree_passes_depth(p.n, wg / 2));
}

// 64-bit accumulators need 64-bit atomics; 8- to 32-bit ones live in a 32-bit word.
std::string atomic_unsupported(const DeviceInfo& dev, Type, Type acc, Op) {
  if (size_of(acc) == 8 && !dev.int64_atomics)
    return "a 64-bit accumulator needs cl_khr_int64_base_atomics";
  return {};
}

}  // namespace

std::vector<StrategyDef> rows_seed001a() {
  return {
      {101,
       {"atomic_global", "atomic_global.cl", "001 (A Study in Reduction) step 1: AtomicGlobal",
        "every work-item combines its element into one global accumulator with an atomic"},
       run_atomic_global,
       atomic_depth,
       atomic_unsupported,
       atomic_global_form},
      {102,
       {"atomic_local", "atomic_local.cl", "001 (A Study in Reduction) step 2: AtomicShared",
        "atomics into one local accumulator per work-group, then one global atomic per group"},
       run_atomic_local,
       atomic_depth,
       atomic_unsupported,
       atomic_local_form},
      {103,
       {"interleaved", "interleaved.cl",
        "001 step 3 (Shared, interleaved/divergent); 004 (Kandasamy): Figure 1, divergent stride "
        "doubling",
        "local-memory tree, lid % (2*s) == 0 combines lid and lid+s, s doubling: divergent"},
       run_interleaved,
       tree_depth_wg},
      {104,
       {"strided", "strided.cl", "001 step 4 (SharedAntiDivergence): strided index 2*s*lid",
        "local-memory tree, work-item lid combines 2*s*lid and 2*s*lid+s: active items contiguous"},
       run_strided,
       tree_depth_wg},
  };
}

}  // namespace rdx::detail
