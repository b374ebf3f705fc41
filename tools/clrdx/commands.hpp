// clrdx's subcommands: each takes its parsed options, prints results on stdout and returns the
// exit code; errors are thrown and turned into one line on stderr by main().
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdx/custom.hpp"
#include "rdx/plan.hpp"
#include "rdx/stats.hpp"
#include "rdx/stream.hpp"
#include "rdx/types.hpp"
#include "whole_input.hpp"

namespace clrdx {

struct DevicesArgs {
  bool json = false;
};
int cmd_devices(const DevicesArgs& a);

struct StrategiesArgs {
  bool json = false;
  std::string device;
};
int cmd_strategies(const StrategiesArgs& a);

struct ReduceArgs {
  std::string type, op, device, strategy = "auto", acc, input, generate, count, seed = "1";
  std::string map, combine, identity;  // transform-reduce and custom reductions
  std::string inputs[3];               // --input2 .. --input4
  std::vector<std::int64_t> axis;      // segmented: over these axes of an N-D .npy (-1: the last)
  std::string segments, output;        // segmented: the offsets' file; the results' .npy file
  std::string output_indices;          // segmented minmax: its indexes' .npy file
  std::string determinism;             // run_to_run (default), any_device, exact
  std::size_t wg = 0;
  bool json = false;
};
int cmd_reduce(const ReduceArgs& a);

// What reduce's operator, type, strategy, work-group and accumulator options ask for (parsed, not
// yet checked against a plan). Throws rdx::ArgumentError for an unknown type or operator.
struct ReduceRequest {
  rdx::Op op = rdx::Op::Sum;      // a built-in operator, unless one of the two below
  std::optional<rdx::Stat> stat;  // --op minmax, mean, ...
  bool custom = false;            // --combine and --identity
  bool whole_input() const { return stat || custom; }
  std::optional<rdx::Type> type;  // none: a .npy input gives it
  rdx::Options opts;
};
ReduceRequest reduce_request(const ReduceArgs& a);
// An opened input streamed through rdx::Stream on ctx's device (a reader thread reads ahead
// while the stream reduces), as a partial state: clrdx-mpi's ranks (cmd_reduce.cpp).
rdx::Partial reduce_file_partial(rdx::Context& ctx, InputFile file, rdx::Op op,
                                 const rdx::Options& opts);
// reduce for composites, maps and custom operators: whole inputs in memory (cmd_reduce_whole.cpp).
int cmd_reduce_whole(const ReduceArgs& a, const ReduceRequest& req);
// --input and --input2.. (or --generate: dot's two arrays from consecutive seeds), all of the
// first's length (ArgumentError otherwise), and the library's view of them (cmd_reduce_whole.cpp).
std::vector<Loaded> load_inputs(const ReduceArgs& a, const ReduceRequest& req);
std::vector<rdx::Array> arrays_of(const std::vector<Loaded>& in);
// The user's reduction of --combine/--identity (custom) or --map with a built-in operator, in
// --acc or the first input's type.
rdx::Reduction reduction_of(const ReduceArgs& a, const ReduceRequest& req, rdx::Type first);
// reduce --axis and --segments: one result per segment (cmd_reduce_segmented.cpp).
int cmd_reduce_segmented(const ReduceArgs& a, const ReduceRequest& req);

struct VerifyArgs {
  std::string device, strategy = "all", max_n = "4Mi", seed = "1", types = "all", ops = "all";
  bool json = false;
  bool quick = false;
};
int cmd_verify(const VerifyArgs& a);

struct BenchArgs {
  std::string device, strategy = "all", type = "f32", op = "sum", sizes = "16Mi", json_file,
                      plot_file;
  int repeat = 10;
  double peak = 0;  // GB/s; 0: measure a read of each size's bytes
  std::size_t wg = 0;
  // fast_* tuning overrides, and the grid, lanes and loads of any_device and exact sums: a list
  // each (empty: the plan's); every combination is a row of its own.
  std::vector<unsigned> groups_per_cu, vector_width, unroll;
  unsigned rounds = 1;  // every row this many times, round after round, on the same data
  std::string label;    // the strategy column's text (default: the strategy)
  std::string map;      // transform-reduce: --op over this map of --inputs arrays
  unsigned inputs = 1;
  std::string determinism = "run_to_run";  // a comma list: each strategy under each level
  std::string data = "mod:7";              // rdx::generate's pattern (the yardsticks': mod:7)
  std::string layouts;  // segmented reductions (cmd_bench_segmented): a comma list
  std::uint64_t lanes = 0, parts = 0, seg_unroll = 0, seg_vector = 0;  // their tunables (0: plan's)
  std::optional<std::uint64_t> column_block;  // 0: the work-group form; unset: the plan's
};
int cmd_bench(const BenchArgs& a);
// bench --layouts: segmented and axis reductions (cmd_bench_segmented.cpp).
int cmd_bench_segmented(const BenchArgs& a);
// One combination of bench's tunable overrides (0: the plan's) and the suffix of its rows' names:
// "/g8", "/vw4", "/u2" for each flag given more than one value.
struct BenchTuning {
  unsigned groups_per_cu = 0, vector_width = 0, unroll = 0;
  std::string suffix;
};
// Every combination of --groups-per-cu, --vw and --unroll, in the order given.
std::vector<BenchTuning> bench_tunings(const BenchArgs& a);
// One combination as the strategies' tunables (Options::tuning; --vw in elements of `type`);
// unset flags are left out.
rdx::Params bench_tuning(const BenchTuning& t, rdx::Type type);

struct TuneArgs {
  std::string device, types = "f32,i32,f64", ops = "sum,max", sizes = "2^16,2^22,2^26", file;
  int repeat = 20;
  // A candidate must beat the built-in plan by more than this: on PoCL here, one configuration
  // timed twice differed by up to 10% (0.94x to 1.10x) at 10 to 30 calls per size.
  double margin = 0.10;
  bool dry_run = false, clear = false;
};
int cmd_tune(const TuneArgs& a);

int cmd_cache(bool clear);

}  // namespace clrdx
