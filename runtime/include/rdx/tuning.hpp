// The tuning table of the one-launch strategies behind `auto` (fast_strided, fast_blocked): which
// of the two auto runs and with what grid, per device, with a default at every level. Built-in
// entries cover device types and vendors (each with the measurement behind it); `clrdx tune`
// measures one device and stores entries for it (by name and driver version) in the tuning file.
// It is plain data: make_plan reads it, so plan selection stays a pure function.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rdx/device_info.hpp"
#include "rdx/types.hpp"

namespace rdx {

// Tunable values of a strategy, by name. A strategy that has tunables names them, with their
// defaults and meaning, in its own unit (fast_strided and fast_blocked: wg, groups_per_cu,
// vector_bytes, unroll, min_per_item, in runtime/src/plan/fast_tuning.cpp). Options::tuning
// overrides them for one call, the tuning table per device; a value left out takes the next
// level's, and the strategy's default last.
class Params {
 public:
  std::optional<std::uint64_t> get(std::string_view name) const;
  Params& set(std::string_view name, std::uint64_t value);  // adds, or replaces the value
  const std::vector<std::pair<std::string, std::uint64_t>>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  bool operator==(const Params&) const = default;

 private:
  std::vector<std::pair<std::string, std::uint64_t>> items_;  // sorted by name
};

struct TuneEntry {
  // Which requests it applies to: every field that is set must match; unset matches all.
  std::optional<DeviceKind> kind;
  std::string vendor;  // a case-insensitive part of DeviceInfo::vendor
  std::string device;  // DeviceInfo::name, exactly
  std::string driver;  // DeviceInfo::driver, exactly
  std::optional<Type> type;
  std::optional<Op> op;
  std::string strategy;   // the strategy `values` are for ("": every strategy with tunables)
  std::string auto_runs;  // what auto runs for these requests ("": not set here)
  Params values;          // tunables of `strategy`, by name
  // The device's throughput on host input in MB/s (f32 sums copied from host memory and reduced,
  // measured by `clrdx tune`): a device group splits host input in proportion to it
  // (rdx/multi.hpp). 0: not set here.
  std::uint64_t host_mbps = 0;
  std::string note;  // the measurement behind the entry
};

struct TuningTable {
  std::vector<TuneEntry> entries;
};

// The built-in entries: a default for any device, then device types and vendors.
const TuningTable& builtin_tuning();

// For one request, each value from the most specific matching entry that sets it (device >
// vendor > kind > any; an entry for the type or operator beats one without; among equals, the
// later entry).
Params resolve_tuning(const TuningTable& table, const DeviceInfo& dev, std::string_view strategy,
                      Type type, Op op);
// The strategy auto runs (fast_strided or fast_blocked), chosen the same way.
std::string resolve_auto(const TuningTable& table, const DeviceInfo& dev, Type type, Op op);
// The device's measured host-input throughput (TuneEntry::host_mbps), chosen the same way; none
// when no entry sets it.
std::optional<std::uint64_t> resolve_host_mbps(const TuningTable& table, const DeviceInfo& dev);

// The tuning file: $RDX_TUNING_FILE, else $XDG_CONFIG_HOME/rdx/tuning.json, else
// ~/.config/rdx/tuning.json; "" when RDX_TUNING_FILE=off.
std::string tuning_file();

// Reads a tuning file (JSON, as written by save_tuning). A missing file is an empty table;
// a malformed one throws ArgumentError naming the file and what is wrong.
TuningTable load_tuning(const std::string& path);

// Writes the table's entries to `path` (creating its folder), replacing the file atomically: a
// temporary file in the same folder, written, flushed to disk and closed, then renamed over it.
// Throws Error with the system's reason when it cannot be written; the old file is then unchanged.
// A symbolic link is followed (its target is replaced and the link stays); a folder, device, FIFO
// or socket at `path` (or at the link's end) is never replaced: ArgumentError.
void save_tuning(const std::string& path, const TuningTable& table);

// What one `clrdx tune` run decided for one device (by name and driver): `entries` replace the
// device's entries for the (type, operator) pairs it measured, or, with `clear`, every entry of
// the device is removed. Everything else in the file is kept.
struct TuningUpdate {
  std::string device, driver;
  std::vector<std::pair<Type, Op>> measured;
  std::vector<TuneEntry> entries;
  bool clear = false;
  bool host_measured = false;  // also replaces the device's entries that set host_mbps
};

// `current` with `update` applied: kept entries stay in their order, new ones come last.
TuningTable merge_tuning(const TuningTable& current, const TuningUpdate& update);

// Checks, before the work whose result is to be stored, that the tuning file can be updated:
// creates its folder and opens its lock file (`path` + ".lock"), and refuses what save_tuning
// would refuse. Throws ArgumentError with the system's reason.
void check_tuning_file_writable(const std::string& path);

struct TuningFileChange {
  std::size_t removed = 0;  // entries the update removed (replaced ones included)
  std::size_t total = 0;    // entries in the file written
};

// Applies `update` to the tuning file under an exclusive lock (flock on `path` + ".lock"): reads
// the file as it is now, merges (merge_tuning) and saves it (save_tuning), so that updates by
// concurrent runs and hand edits made since this run read the file are kept. Throws ArgumentError
// for a malformed file, Error when it cannot be locked or written (the file is then unchanged).
TuningFileChange update_tuning_file(const std::string& path, const TuningUpdate& update);

// The built-in table followed by the entries of tuning_file() that name this device (what a
// Context plans with). A malformed file throws ArgumentError.
TuningTable tuning_for(const DeviceInfo& dev);

class Context;

// One configuration rdx::tune measures: a strategy and its tunables (what Options::strategy and
// Options::tuning set). label(): the strategy and the values, for progress lines.
struct TuneCandidate {
  std::string strategy;
  Params values;
  std::string label() const;
};

// The search space of rdx::tune: the built-in defaults of fast_strided and fast_blocked and their
// neighbours, about 8 per strategy.
std::vector<TuneCandidate> tune_candidates();

// What rdx::tune measures. Each size must be at least 1 and fit one device allocation of the
// pair's type (ArgumentError otherwise, raised when that pair's search starts).
struct TuneRequest {
  std::vector<std::pair<Type, Op>> pairs;  // each searched on its own, in order
  std::vector<std::uint64_t> sizes;        // element counts timed for every configuration
  int repeat = 20;                         // timed calls per size and configuration (the median)
  // A candidate is stored only when its geometric-mean speedup over the built-in plan exceeds
  // 1 + margin and it is slower by no more than `margin` at any one size.
  double margin = 0.10;
  bool host_throughput = true;  // also measure TuneEntry::host_mbps
  // Progress lines (the built-in plan, each candidate's speedup), as they happen; may be empty.
  std::function<void(const std::string&)> log;
};

// One (type, operator) pair's outcome: the entry to store (none: the built-in plan is kept) and
// a one-line summary (the winner and its times, or why the built-in plan was kept).
struct TunePairResult {
  Type type = Type::F32;
  Op op = Op::Sum;
  std::optional<TuneEntry> entry;
  std::string summary;
};

struct TuneResult {
  std::vector<TunePairResult> pairs;
  std::optional<TuneEntry> host;  // host_mbps, when measured
  // Every entry to store (the pairs' winners, then the host throughput): a TuningUpdate's
  // `entries`.
  std::vector<TuneEntry> entries() const;
};

// Measures, on ctx's device, the built-in plan of each requested pair (auto under `stored`'s
// entries for other devices and the built-in table) against every tune_candidates() entry, each
// configuration timed in three rounds keeping its best time per size and every result checked
// against the host reference (Error for a wrong one), and returns the entries that beat it for
// this device and driver. `on_pair` (may be empty) receives each pair's outcome as it ends.
// UnsupportedError for f64 on a device without fp64; ArgumentError for an operator a type does
// not allow. Nothing is written: update_tuning_file stores the result.
TuneResult tune(Context& ctx, const TuneRequest& request, const TuningTable& stored,
                const std::function<void(const TunePairResult&)>& on_pair = {});

}  // namespace rdx
