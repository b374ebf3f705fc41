// Plan selection: a pure function of device facts, types, operator, size and options.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rdx/device_info.hpp"
#include "rdx/tuning.hpp"
#include "rdx/types.hpp"

namespace rdx {

// How far a float sum's bits are repeatable (docs/reproducible.md):
//   RunToRun   the same bits for the same input, device, plan and options (the default)
//   AnyDevice  the same bits on every device, strategy, work-group size, chunking and order
//   Exact      the correctly rounded (to nearest, ties to even) exact sum: AnyDevice too
// Whole-input float sums (f32, f64, f16, bf16; rdx::reduce, rdx::Stream, enqueue_reduce,
// partial states, device groups and MPI ranks) run under AnyDevice the fixed-bin accumulator
// (strategy "binned_sum": ReproBLAS's, within n * 2^-26 * max|x| plus the one rounding into f32,
// n * 2^-80 * max|x| plus it into f64; Plan::depth) and under Exact the exact long accumulator
// (strategy "exact_sum"). Segmented and axis sums, users' reductions whose float fields are all
// sums (sum and dot transform-reduce), and mean, nansum, dot, norm2, var and std run the exact
// accumulator at both levels (whole inputs; mean, dot and norm2 per segment too). Integer
// operators, min, max, argmin, argmax, minmax and the bitwise operators do not depend on the order:
// every level accepts them and runs them as RunToRun does. UnsupportedError for the rest: float
// products, a float sum of integer elements, users' float fields that are not sums, and var and std
// per segment.
enum class Determinism : std::uint8_t { RunToRun, AnyDevice, Exact };
inline constexpr Determinism kAllDeterminisms[] = {Determinism::RunToRun, Determinism::AnyDevice,
                                                   Determinism::Exact};
// "run_to_run", "any_device", "exact".
std::string_view name(Determinism d);
std::optional<Determinism> find_determinism(std::string_view name);

struct Options {
  std::string strategy = "auto";    // a name from `clrdx strategies`, or "auto"
  std::size_t work_group_size = 0;  // 0: the plan chooses; else a power of two the device allows
  std::optional<Type> acc;          // accumulator type; default: the element type
  bool profile = false;  // measure device time (Result::device_seconds): the call runs on a
                         // second, profiling queue of the context, after the first one finishes
  // Overrides of the strategy's tunables and the tuning table's values (rdx::Params), for
  // `clrdx bench` sweeps and tuning work; a strategy without tunables ignores them, one with
  // tunables refuses a name it does not have (ArgumentError).
  Params tuning;
  // How far float sums' bits are reproducible (docs/reproducible.md): AnyDevice sums float
  // elements with fixed bins and Exact exactly (users' reductions whose fields are all float
  // sums, var and std: exactly at both), the same bits everywhere; UnsupportedError where that
  // is not built.
  Determinism determinism = Determinism::RunToRun;

  bool operator==(const Options&) const = default;
};

// What a plan's kernels accumulate: the operator's value in Plan::acc (every strategy's plans),
// or a float sum's reproducible state: fixed bins (Determinism AnyDevice, the plan "binned_sum")
// or exact digits (Exact, "exact_sum"). The library runs a plan by this form, never by its
// strategy's name (docs/ARCHITECTURE.md, "One dispatch").
enum class StateForm : std::uint8_t { Value, Bins, Digits };

struct Plan {
  std::string strategy;  // the strategy that runs (never "auto")
  StateForm state = StateForm::Value;
  Type type = Type::F32, acc = Type::F32;
  Op op = Op::Sum;
  // A user's reduction (rdx/custom.hpp) or a composite (rdx/stats.hpp): its name ("custom" for
  // one named ""), and `op` is not used; "" for the built-in operators.
  std::string reduction;
  std::uint64_t n = 0;
  std::size_t work_group_size = 0;
  // The most operations on any path from an element to the result: the float error bound of the
  // tests and of `clrdx verify` is depth * epsilon(acc) * sum|x| (sums; products use n - 1).
  std::uint64_t depth = 0;
  // What the strategy's tuning chose (empty for strategies without tunables). fast_strided and
  // fast_blocked: groups (of the single launch), vector_width (elements per vector load),
  // blocked (1: each work-item reads one contiguous range), unroll (loads in flight per
  // work-item), host_finish (1: the host combines the groups' partials, a grid of at most
  // work_group_size groups, instead of the last group to finish); for a user's reduction also
  // vector_map (1: its map and combine ran on whole vectors, docs/custom.md).
  Params params;
  // How the host waits for the result: true polls the read's event status (GPUs: the host thread
  // is idle meanwhile, and NVIDIA's blocking read returns 1-2 us after the data is there);
  // false makes a blocking read (CPUs: a polling thread would take a core from the kernel).
  bool poll_result = false;

  std::string describe() const;
  bool operator==(const Plan&) const = default;
};

// Throws ArgumentError (unknown strategy, bad work-group size, acc narrower than the element,
// bitwise op on floats) or UnsupportedError (f64 without fp64, a strategy's missing extension).
// `tuning` supplies auto's choice and the fast_* grids (a Context plans with tuning_for(device):
// the built-in table plus the entries `clrdx tune` stored for it).
Plan make_plan(const DeviceInfo& dev, Type type, Op op, std::uint64_t n, const Options& opts,
               const TuningTable& tuning = builtin_tuning());

}  // namespace rdx
