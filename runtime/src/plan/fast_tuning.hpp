// Internal: the tunables of fast_strided and fast_blocked (the strategies behind auto), their
// defaults, and how a plan takes them. Pure: no OpenCL, so make_plan stays unit-testable.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "plan/strategy_facts.hpp"
#include "rdx/plan.hpp"

namespace rdx::detail {

extern const std::array<ParamSpec, 9> kFastStridedParams;
extern const std::array<ParamSpec, 8> kFastBlockedParams;
// The default of fast_blocked's (blocked) or fast_strided's tunable `name`; std::logic_error for
// a name it does not have.
std::uint64_t fast_default(bool blocked, std::string_view name);

// The grid of an input of large_bytes or more (NVIDIA: 4 GiB, plan/tuning.cpp): several waves of
// groups, as CUB's grid is (its subscription factor), so that a multiprocessor that runs ahead
// takes more of them: 4-byte sums and max of 2^30 elements 1.012-1.029x the default grid's speed
// on the H200, at CUB's call; smaller inputs did not gain (1bfd0b7).
inline constexpr std::uint64_t kLargeWg = 512;
inline constexpr std::uint64_t kLargeGroupsPerCu = 32;

// The cap of host_finish_items applies to groups of at most this many work-items, in at most
// this many rounds of loads a work-item: vector loads 4 (f64 sums at 2^20 gained), one element a
// load 2 (argmax, argmin and f32 prod gained at 2 rounds, not at 4; aef7429). The host's combine
// of 1056 partials was 7.8-9.7 us slower than the last group's (H100, 657ff15).
inline constexpr std::uint64_t kMostHostPartials = 256;
inline constexpr std::uint64_t kMostCappedRounds = 4;
inline constexpr std::uint64_t kMostCappedRoundsScalar = 2;

// StrategyFacts::tune of each: the grid into Plan::params and Plan::work_group_size.
void tune_fast_strided(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t);
void tune_fast_blocked(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t);
// The same grid for a plan whose last group finishes (a user's reduction: the host cannot run its
// combine), without the cap that lets the host finish (host_finish_items); `blocked`: the
// fast_blocked layout (its launcher's user_plan hook says which, strategies/fast.cpp).
void tune_fast_device_finish(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t,
                             bool blocked);

// Whether a host input of n >= 1 elements runs on the calling thread (dispatch/host_loop.hpp):
// a plan with host_items of n or more (fast_blocked, picked by auto, of a built-in operator: a
// CPU device, this CPU).
inline bool runs_on_host(const Plan& p, std::uint64_t n) {
  return p.state == StateForm::Value && n <= p.params.get("host_items").value_or(0);
}

// Elements per block of a BLOCKED `fast` work-item (the -DBLOCK of cl/fast.cl).
inline constexpr std::uint64_t kFastBlock = 4096;

// A fast_* plan's grid, read back from Plan::params (what tune_fast_* wrote).
struct FastGrid {
  std::uint64_t groups = 0;   // work-groups of the single launch
  unsigned vector_width = 1;  // elements per vector load
  bool blocked = false;       // each work-item reads one contiguous range (CPUs)
  unsigned unroll = 1;        // independent loads in flight per work-item (strided)
  bool host_finish = false;   // the host combines the groups' partials
};
FastGrid fast_grid(const Plan& p);

// Elements per work-item of a launch of `items` work-items over n: whole vectors (cl/fast.cl's
// `chunk`).
inline std::uint64_t fast_per_item(std::uint64_t n, std::uint64_t items, unsigned vector_width) {
  const std::uint64_t per = (n + items - 1) / items;
  return (per + vector_width - 1) / vector_width * vector_width;
}

}  // namespace rdx::detail
