// Registry rows of this group (see registry.hpp): seed 000's hybrid, seed 002's power-of-two
// second launch, seed 003's C++ AMP sample (sequential, simple, tiled, cascade).
#include "strategies/registry.hpp"

namespace rdx::detail {

Outcome run_hybrid(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_pow2_partials(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_sequential(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_halving(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_window8(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_tiled_modulo(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_tiled_consecutive(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_tiled_conflictfree(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_tiled_twoload(Exec&, const cl::Buffer&, std::uint64_t);
Outcome run_amp_cascade(Exec&, const cl::Buffer&, std::uint64_t);

std::uint64_t hybrid_depth(const Plan&, const DeviceInfo&);
std::uint64_t pow2_partials_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_sequential_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_halving_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_window8_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_tiled_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_tiled_twoload_depth(const Plan&, const DeviceInfo&);
std::uint64_t amp_cascade_depth(const Plan&, const DeviceInfo&);

std::vector<StrategyDef> rows_seeds023() {
  return {
      {3,
       {"hybrid", "hybrid.cl", "000 (Lawlor): last paragraph, local-memory levels + CPU levels",
        "one launch: each work-group halves its slice in local memory; the host finishes the "
        "tree over the partials"},
       run_hybrid,
       hybrid_depth},
      {202,
       {"pow2_partials", "pow2_partials.cl",
        "002 (Parallel Patterns 3): reduceKernel twice, <<<1, next_pow2(gridSize)>>>",
        "bounded groups write partials (interleaved tree); one work-group of next_pow2(partials) "
        "finishes"},
       run_pow2_partials,
       pow2_partials_depth},
      {301,
       {"amp_sequential", "", "003 (C++ AMP): sequential_reduction, std::accumulate",
        "the CPU reference: read the input back, combine left to right on the host"},
       run_amp_sequential,
       amp_sequential_depth},
      {302,
       {"amp_halving", "amp_simple.cl", "003 (C++ AMP): reduction_simple_1",
        "log2(n) launches, a[i] = a[i] + a[i+s] with s halving; cut-off elements to a tail state"},
       run_amp_halving,
       amp_halving_depth},
      {303,
       {"amp_window8", "amp_simple.cl", "003 (C++ AMP): reduction_simple_2",
        "log8(n) launches, each work-item combines a window of eight; serial tail, rest on host"},
       run_amp_window8,
       amp_window8_depth},
      {304,
       {"amp_tiled_modulo", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_1",
        "tile in local memory, stride doubling, active if tid % (2s) == 0 (divergent)"},
       run_amp_tiled_modulo,
       amp_tiled_depth},
      {305,
       {"amp_tiled_consecutive", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_2",
        "stride doubling on index 2*s*tid: consecutive active work-items"},
       run_amp_tiled_consecutive,
       amp_tiled_depth},
      {306,
       {"amp_tiled_conflictfree", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_3",
        "stride halving, tid < s: consecutive local addresses, no bank conflicts"},
       run_amp_tiled_conflictfree,
       amp_tiled_depth},
      {307,
       {"amp_tiled_twoload", "amp_tiled.cl", "003 (C++ AMP): reduction_tiled_4",
        "half the work-items, each combines two global elements while loading the tile"},
       run_amp_tiled_twoload,
       amp_tiled_twoload_depth},
      {308,
       {"amp_cascade", "amp_cascade.cl", "003 (C++ AMP): reduction_cascade",
        "a fixed number of tiles, grid-stride loop per work-item, tile tree, tiles on the host"},
       run_amp_cascade,
       amp_cascade_depth},
  };
}

}  // namespace rdx::detail
