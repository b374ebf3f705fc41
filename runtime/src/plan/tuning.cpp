// The tuning table of fast_strided / fast_blocked: built-in entries, resolution by specificity,
// the tuning file that `clrdx tune` writes (JSON, read with nlohmann-json), and the search that
// fills it (rdx::tune), which times configurations through the public API.
#include "rdx/tuning.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/files.hpp"
#include "core/text.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"
#include "rdx/verify.hpp"
#include "strategies/facts.hpp"

namespace rdx {
namespace {

using detail::lower;

bool matches(const TuneEntry& e, const DeviceInfo& dev, Type type, Op op) {
  if (e.kind && *e.kind != dev.kind) return false;
  if (!e.vendor.empty() && lower(dev.vendor).find(lower(e.vendor)) == std::string::npos)
    return false;
  if (!e.device.empty() && e.device != dev.name) return false;
  if (!e.driver.empty() && e.driver != dev.driver) return false;
  if (e.type && *e.type != type) return false;
  if (e.op && *e.op != op) return false;
  return true;
}

int specificity(const TuneEntry& e) {
  return (e.device.empty() ? 0 : 64) + (e.driver.empty() ? 0 : 32) + (e.vendor.empty() ? 0 : 16) +
         (e.kind ? 8 : 0) + (e.type ? 2 : 0) + (e.op ? 2 : 0);
}

// The matching entries, least specific first (stable: among equals, table order), so that later
// ones override earlier ones.
std::vector<const TuneEntry*> ranked(const TuningTable& t, const DeviceInfo& dev, Type type,
                                     Op op) {
  std::vector<const TuneEntry*> r;
  for (auto& e : t.entries)
    if (matches(e, dev, type, op)) r.push_back(&e);
  std::stable_sort(r.begin(), r.end(),
                   [](auto* a, auto* b) { return specificity(*a) < specificity(*b); });
  return r;
}

DeviceKind parse_kind(std::string_view s) {
  for (DeviceKind k :
       {DeviceKind::CPU, DeviceKind::GPU, DeviceKind::Accelerator, DeviceKind::Other})
    if (s == name(k)) return k;
  throw ArgumentError(fmt::format("unknown device kind '{}' (cpu, gpu, accelerator, other)", s));
}

// An entry's keys; the others are tunables of the strategies that have them (is_tunable_name).
const char* kKeys[] = {"kind", "vendor", "device",   "driver",    "type",
                       "op",   "auto",   "strategy", "host_mbps", "note"};

bool is_entry_key(std::string_view key) {
  return std::find_if(std::begin(kKeys), std::end(kKeys),
                      [&](const char* k) { return key == k; }) != std::end(kKeys);
}

TuneEntry entry_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw ArgumentError("an entry is not a JSON object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = it.key();
    if (!is_entry_key(key) && !detail::is_tunable_name(key))
      throw ArgumentError(fmt::format("unknown key '{}'", key));
  }
  TuneEntry e;
  auto str = [&](const char* k) { return j.contains(k) ? j.at(k).get<std::string>() : ""; };
  auto num = [&](const char* k) -> std::uint64_t {
    if (!j.contains(k)) return 0;
    if (!j.at(k).is_number_unsigned())
      throw ArgumentError(fmt::format("'{}' is not a non-negative integer", k));
    return j.at(k).get<std::uint64_t>();
  };
  if (j.contains("kind")) e.kind = parse_kind(str("kind"));
  e.vendor = str("vendor");
  e.device = str("device");
  e.driver = str("driver");
  if (j.contains("type")) e.type = parse_type(str("type"));
  if (j.contains("op")) e.op = parse_op(str("op"));
  e.strategy = str("strategy");
  e.auto_runs = str("auto");
  if (!e.auto_runs.empty() && e.auto_runs != "fast_strided" && e.auto_runs != "fast_blocked")
    throw ArgumentError(fmt::format("'{}' is not fast_strided or fast_blocked", e.auto_runs));
  if (!e.strategy.empty()) {
    const detail::StrategyFacts* f = detail::find_facts(e.strategy);
    if (!f || !f->tune)
      throw ArgumentError(fmt::format("'{}' is not a strategy with tunables", e.strategy));
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!is_entry_key(it.key())) e.values.set(it.key(), num(it.key().c_str()));
  e.host_mbps = num("host_mbps");
  e.note = str("note");
  return e;
}

nlohmann::json entry_to_json(const TuneEntry& e) {
  nlohmann::json j = nlohmann::json::object();
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) j[k] = v;
  };
  auto num = [&](const char* k, std::uint64_t v) {
    if (v) j[k] = v;
  };
  if (e.kind) j["kind"] = std::string(name(*e.kind));
  put("vendor", e.vendor);
  put("device", e.device);
  put("driver", e.driver);
  if (e.type) j["type"] = std::string(name(*e.type));
  if (e.op) j["op"] = std::string(name(*e.op));
  put("strategy", e.strategy);
  put("auto", e.auto_runs);
  for (const auto& [name, value] : e.values.items())
    num(name.c_str(), value);
  num("host_mbps", e.host_mbps);
  put("note", e.note);
  return j;
}

// Creates the folder `path` is in; "" on success, else the system's reason.
std::string create_folder_of(const std::string& path) {
  const std::filesystem::path p(path);
  if (!p.has_parent_path()) return {};
  std::error_code ec, ignored;
  std::filesystem::create_directories(p.parent_path(), ec);
  if (ec && !std::filesystem::is_directory(p.parent_path(), ignored)) return ec.message();
  return {};
}

// "" when new files can be made in the folder of `path`, else the system's reason.
std::string folder_not_writable(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  if (::access(dir.c_str(), W_OK) != 0) return std::strerror(errno);
  return {};
}

std::string lock_path(const std::string& path) {
  return path + ".lock";
}

// Opens (creating) the lock file of `path`: a descriptor, or -1 and the system's reason in `why`.
int open_lock_file(const std::string& path, std::string& why) {
  const int fd = ::open(lock_path(path).c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) why = std::strerror(errno);
  return fd;
}

// An exclusive lock on a tuning file, held from construction to destruction: flock on its lock
// file, which stays beside it (removing it would let two writers lock different files).
class LockedFile {
 public:
  explicit LockedFile(const std::string& path) {
    std::string why = create_folder_of(path);
    if (why.empty()) fd_ = open_lock_file(path, why);
    while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
      if (errno == EINTR) continue;
      why = std::strerror(errno);
      ::close(fd_);
      fd_ = -1;
    }
    if (fd_ < 0) throw Error(fmt::format("cannot lock {}: {}", lock_path(path), why));
  }
  ~LockedFile() { ::close(fd_); }  // closing the descriptor releases the lock
  LockedFile(const LockedFile&) = delete;
  LockedFile& operator=(const LockedFile&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace

const TuningTable& builtin_tuning() {
  static const TuningTable table = [] {
    TuningTable t;
    TuneEntry
        any;  // any device: the GPU layout (the tunables' defaults: strategies/fast_tuning.cpp)
    any.auto_runs = "fast_strided";
    t.entries.push_back(any);
    TuneEntry cpu;  // CPUs: each work-item one long contiguous range
    cpu.kind = DeviceKind::CPU;
    cpu.auto_runs = "fast_blocked";
    t.entries.push_back(cpu);
    return t;
  }();
  return table;
}

Params resolve_tuning(const TuningTable& table, const DeviceInfo& dev, std::string_view strategy,
                      Type type, Op op) {
  Params v;
  for (const TuneEntry* e : ranked(table, dev, type, op)) {
    if (!e->strategy.empty() && e->strategy != strategy) continue;
    for (const auto& [name, value] : e->values.items())
      if (value) v.set(name, value);  // 0 leaves the value to a less specific entry
  }
  return v;
}

std::optional<std::uint64_t> Params::get(std::string_view name) const {
  for (const auto& [k, v] : items_)
    if (k == name) return v;
  return std::nullopt;
}

Params& Params::set(std::string_view name, std::uint64_t value) {
  auto it = std::lower_bound(items_.begin(), items_.end(), name,
                             [](const auto& item, std::string_view n) { return item.first < n; });
  if (it != items_.end() && it->first == name)
    it->second = value;
  else
    items_.emplace(it, name, value);
  return *this;
}

std::string resolve_auto(const TuningTable& table, const DeviceInfo& dev, Type type, Op op) {
  std::string s = "fast_strided";
  for (const TuneEntry* e : ranked(table, dev, type, op))
    if (!e->auto_runs.empty()) s = e->auto_runs;
  return s;
}

std::optional<std::uint64_t> resolve_host_mbps(const TuningTable& table, const DeviceInfo& dev) {
  std::optional<std::uint64_t> v;
  for (const TuneEntry* e : ranked(table, dev, Type::F32, Op::Sum))
    if (e->host_mbps) v = e->host_mbps;
  return v;
}

std::string tuning_file() {
  if (const char* f = std::getenv("RDX_TUNING_FILE")) {
    const std::string s(f);
    return s == "off" ? std::string() : s;
  }
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    return std::string(x) + "/rdx/tuning.json";
  if (const char* h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.config/rdx/tuning.json";
  return {};
}

TuningTable load_tuning(const std::string& path) {
  TuningTable t;
  std::error_code ec;
  if (path.empty() || !std::filesystem::exists(path, ec)) return t;
  std::optional<std::string> text;
  try {
    text = detail::read_regular_file(path);
  } catch (const Error& e) {  // "cannot read PATH: <reason>"
    throw ArgumentError(e.what());
  }
  if (!text) return t;  // removed since exists()
  try {
    const nlohmann::json j = nlohmann::json::parse(*text);
    if (!j.is_object() || !j.contains("entries") || !j.at("entries").is_array())
      throw ArgumentError("it has no \"entries\" array");
    std::size_t k = 0;
    for (auto& e : j.at("entries")) {
      try {
        t.entries.push_back(entry_from_json(e));
      } catch (const std::exception& err) {
        throw ArgumentError(fmt::format("entry {}: {}", k, err.what()));
      }
      ++k;
    }
  } catch (const std::exception& e) {
    throw ArgumentError(
        fmt::format("tuning file {} is malformed: {} (fix it, remove it, or set "
                    "RDX_TUNING_FILE=off)",
                    path, e.what()));
  }
  return t;
}

void save_tuning(const std::string& path, const TuningTable& table) {
  nlohmann::json j = {{"librdx_tuning", 1}, {"entries", nlohmann::json::array()}};
  for (auto& e : table.entries)
    j["entries"].push_back(entry_to_json(e));
  if (const std::string why = create_folder_of(path); !why.empty())
    throw Error(fmt::format("cannot write {}: {}", path, why));
  detail::write_file_atomically(path, j.dump(2) + "\n");
}

TuningTable merge_tuning(const TuningTable& current, const TuningUpdate& update) {
  TuningTable merged = current;
  std::erase_if(merged.entries, [&](const TuneEntry& e) {
    if (e.device != update.device || e.driver != update.driver) return false;
    if (update.clear) return true;
    if (update.host_measured && e.host_mbps) return true;
    for (auto [type, op] : update.measured)
      if (e.type == type && e.op == op) return true;
    return false;
  });
  merged.entries.insert(merged.entries.end(), update.entries.begin(), update.entries.end());
  return merged;
}

void check_tuning_file_writable(const std::string& path) {
  std::string why = create_folder_of(path);
  // Before the lock file is made: a path that is refused leaves nothing beside it.
  if (why.empty()) detail::check_writable(path);
  std::error_code ec;
  if (why.empty() && std::filesystem::is_directory(path, ec)) why = std::strerror(EISDIR);
  if (why.empty()) why = folder_not_writable(path);
  if (why.empty()) {
    const int fd = open_lock_file(path, why);
    if (fd >= 0) ::close(fd);
  }
  if (!why.empty()) throw ArgumentError(fmt::format("cannot write {}: {}", path, why));
}

TuningFileChange update_tuning_file(const std::string& path, const TuningUpdate& update) {
  const LockedFile lock(path);
  const TuningTable current = load_tuning(path);
  const TuningTable merged = merge_tuning(current, update);
  save_tuning(path, merged);
  TuningFileChange change;
  change.total = merged.entries.size();
  change.removed = current.entries.size() + update.entries.size() - merged.entries.size();
  return change;
}

TuningTable tuning_for(const DeviceInfo& dev) {
  TuningTable t = builtin_tuning();
  for (auto& e : load_tuning(tuning_file()).entries)
    if ((e.device.empty() || e.device == dev.name) && (e.driver.empty() || e.driver == dev.driver))
      t.entries.push_back(e);
  return t;
}

}  // namespace rdx

namespace rdx {

std::string TuneCandidate::label() const {
  std::string r = strategy == "fast_blocked" ? "blocked" : "strided";
  for (const auto& [name, value] : values.items())
    r += fmt::format(" {}={}", name, value);
  return r;
}

// The ranges sweeps found interesting (bench/sweep_fast.sh); about 8 programs per strategy to
// build per type and operator.
std::vector<TuneCandidate> tune_candidates() {
  std::vector<TuneCandidate> c;
  for (auto [wg, gpc, unroll, vb] : {std::tuple{256u, 8u, 2u, 16u},
                                     {256u, 4u, 2u, 16u},
                                     {256u, 16u, 2u, 16u},
                                     {512u, 4u, 2u, 16u},
                                     {128u, 16u, 2u, 16u},
                                     {256u, 8u, 4u, 16u},
                                     {256u, 8u, 1u, 16u},
                                     {256u, 8u, 2u, 32u}})
    c.push_back({"fast_strided", Params()
                                     .set("wg", wg)
                                     .set("groups_per_cu", gpc)
                                     .set("unroll", unroll)
                                     .set("vector_bytes", vb)});
  for (auto [gpc, vb, min] : {std::tuple{8u, 64u, 1u << 15},
                              {4u, 64u, 1u << 15},
                              {2u, 64u, 1u << 15},
                              {1u, 64u, 1u << 15},
                              {16u, 64u, 1u << 15},
                              {8u, 32u, 1u << 15},
                              {8u, 64u, 1u << 13},
                              {8u, 64u, 1u << 17}})
    c.push_back({"fast_blocked", Params()
                                     .set("wg", 1)
                                     .set("groups_per_cu", gpc)
                                     .set("vector_bytes", vb)
                                     .set("min_per_item", min)});
  return c;
}

std::vector<TuneEntry> TuneResult::entries() const {
  std::vector<TuneEntry> all;
  for (const TunePairResult& p : pairs)
    if (p.entry) all.push_back(*p.entry);
  if (host) all.push_back(*host);
  return all;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The yardsticks' way: one warm-up call (it builds the programs), one discarded call, then
// `repeat` timed calls (3 when the warm-up took more than 2 s); the median per call.
double time_reduce(Context& ctx, Type type, const cl::Buffer& buf, std::uint64_t n, Op op,
                   const Options& opts, int repeat, Result& last) {
  auto t0 = Clock::now();
  last = reduce(ctx, type, buf, n, op, opts);
  const int reps = seconds_since(t0) > 2.0 ? std::min(repeat, 3) : repeat;
  std::vector<double> times;
  for (int i = 0; i < reps + 1; ++i) {
    t0 = Clock::now();
    last = reduce(ctx, type, buf, n, op, opts);
    if (i > 0) times.push_back(seconds_since(t0));
  }
  return median(times);
}

// A device copy of generated elements (at least one byte allocated).
cl::Buffer device_copy(Context& ctx, const std::vector<unsigned char>& host) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY, std::max<std::size_t>(host.size(), 1), nullptr,
                 &err);
  if (err != CL_SUCCESS) throw ClError(err, "clCreateBuffer(tune input)");
  if (!host.empty()) {
    err = ctx.queue().enqueueWriteBuffer(buf, CL_TRUE, 0, host.size(), host.data());
    if (err != CL_SUCCESS) throw ClError(err, "clEnqueueWriteBuffer(tune input)");
  }
  return buf;
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

bool same_device_entry(const TuneEntry& e, const DeviceInfo& dev) {
  return e.device == dev.name && e.driver == dev.driver;
}

// One pair's search (see rdx::tune).
TunePairResult tune_pair(Context& ctx, const TuneRequest& req, const TuningTable& baseline_table,
                         Type type, Op op) {
  const DeviceInfo& dev = ctx.device_info();
  const auto& sizes = req.sizes;
  const auto log = [&](const std::string& line) {
    if (req.log) req.log(line);
  };
  std::vector<cl::Buffer> inputs;
  std::vector<Reference> refs;
  for (auto n : sizes) {
    if (n == 0 || n > dev.max_alloc / size_of(type))
      throw ArgumentError(
          fmt::format("size {} is 0 or exceeds the device's largest allocation", n));
    const auto host = generate(type, "mod:7", n);
    inputs.push_back(device_copy(ctx, host));
    refs.push_back(reference_reduce(type, type, op, host.data(), n));
  }
  auto measure = [&](const Options& o, const std::string& what) {
    std::vector<double> t;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      Result r;
      t.push_back(time_reduce(ctx, type, inputs[k], sizes[k], op, o, req.repeat, r));
      if (auto bad = check_result(r.plan, r.value, r.index, refs[k]); !bad.empty())
        throw Error(fmt::format("tune: {} gave a wrong result at n={}: {}", what, sizes[k], bad));
    }
    return t;
  };
  // The built-in plan: auto under the table without this device's entries.
  const Plan base_plan = make_plan(dev, type, op, sizes.back(), Options{}, baseline_table);
  Options base_opts;
  base_opts.strategy = base_plan.strategy;
  base_opts.tuning = resolve_tuning(baseline_table, dev, base_plan.strategy, type, op);
  log(fmt::format("tune: {} {}: built-in {}", name(type), name(op), base_plan.describe()));
  // Every configuration, the built-in plan first, is timed in each of kRounds rounds and keeps
  // its best time per size: a slow moment of a shared machine then hurts no configuration more
  // than another.
  constexpr int kRounds = 3;
  const auto all = tune_candidates();
  std::vector<std::optional<Options>> configs = {base_opts};
  for (const auto& c : all) {
    Options o;
    o.strategy = c.strategy;
    o.tuning = c.values;
    configs.push_back(o);
  }
  std::vector<std::vector<double>> best_times(configs.size(),
                                              std::vector<double>(sizes.size(), HUGE_VAL));
  for (int round = 0; round < kRounds; ++round)
    for (std::size_t k = 0; k < configs.size(); ++k) {
      if (!configs[k]) continue;
      try {
        const auto t = measure(*configs[k], k ? all[k - 1].label() : "the built-in plan");
        for (std::size_t j = 0; j < t.size(); ++j)
          best_times[k][j] = std::min(best_times[k][j], t[j]);
      } catch (const UnsupportedError&) {
        if (k == 0) throw;
        configs[k].reset();  // e.g. a work-group size the device does not take
      } catch (const ArgumentError&) {
        if (k == 0) throw;
        configs[k].reset();
      }
    }
  const std::vector<double>& base = best_times[0];
  double best_score = 1.0;  // of the best candidate that may be stored
  const TuneCandidate* best = nullptr;
  std::vector<double> best_t = base;
  double top_score = 0, top_worst = 0;  // of the best candidate measured, storable or not
  const TuneCandidate* top = nullptr;
  for (std::size_t k = 1; k < configs.size(); ++k) {
    if (!configs[k]) continue;
    const auto& t = best_times[k];
    double log_sum = 0;       // geometric mean of the speedups over the built-in plan
    double worst = HUGE_VAL;  // and the speedup at the size where it does worst
    for (std::size_t j = 0; j < t.size(); ++j) {
      log_sum += std::log(base[j] / t[j]);
      worst = std::min(worst, base[j] / t[j]);
    }
    const double score = std::exp(log_sum / static_cast<double>(t.size()));
    const TuneCandidate& c = all[k - 1];
    // The built-in values themselves are among the candidates (the same plan at every size
    // timed; several candidates can be, where a tunable does not change the plan); they are
    // never stored.
    bool builtin = c.strategy == base_plan.strategy;
    for (std::size_t j = 0; builtin && j < sizes.size(); ++j)
      builtin = make_plan(dev, type, op, sizes[j], *configs[k], baseline_table) ==
                make_plan(dev, type, op, sizes[j], base_opts, baseline_table);
    log(fmt::format("tune:   {:<44} {:.3f}x (worst size {:.3f}x){}", c.label(), score, worst,
                    builtin ? " the built-in plan" : ""));
    if (builtin) continue;
    if (!top || score > top_score) top_score = score, top_worst = worst, top = &c;
    // A plan that wins on average but loses beyond the noise margin at one size is not stored.
    if (worst < 1.0 - req.margin) continue;
    if (score > best_score) best_score = score, best = &c, best_t = t;
  }
  std::string times;
  for (std::size_t k = 0; k < sizes.size(); ++k)
    times += fmt::format(" n={}: {:.1f} -> {:.1f} us", sizes[k], base[k] * 1e6, best_t[k] * 1e6);
  TunePairResult out;
  out.type = type;
  out.op = op;
  if (!best || best_score < 1.0 + req.margin) {
    out.summary =
        fmt::format("built-in plan kept ({}, margin {:.0f}%)",
                    top ? fmt::format("best candidate {} {:.3f}x, {:.3f}x at its worst size",
                                      top->label(), top_score, top_worst)
                        : std::string("no candidate ran"),
                    req.margin * 100);
    return out;
  }
  TuneEntry e;
  e.device = dev.name;
  e.driver = dev.driver;
  e.type = type;
  e.op = op;
  e.strategy = best->strategy;
  e.auto_runs = best->strategy;
  e.values = best->values;
  e.note = fmt::format("clrdx tune {}: {:.3f}x the built-in plan;{}", today(), best_score, times);
  out.entry = e;
  out.summary = fmt::format("{} ({:.3f}x;{})", best->label(), best_score, times);
  return out;
}

// The device's throughput on host input, a device group's share (rdx/multi.hpp): f32 sums of
// 2^24 elements (fewer where one allocation is smaller) copied from pageable host memory and
// reduced; the median of 5 calls after a warm-up.
TuneEntry host_throughput(Context& ctx) {
  const DeviceInfo& dev = ctx.device_info();
  const std::uint64_t n =
      std::min<std::uint64_t>(std::uint64_t{1} << 24, dev.max_alloc / sizeof(float));
  const auto host = generate(Type::F32, "mod:7", n);
  const auto once = [&] {
    const auto t0 = Clock::now();
    reduce(ctx, Type::F32, host.data(), n, Op::Sum);
    return seconds_since(t0);
  };
  once();
  std::vector<double> t;
  for (int k = 0; k < 5; ++k)
    t.push_back(once());
  std::sort(t.begin(), t.end());
  const double mbps = static_cast<double>(n * sizeof(float)) / t[2] / 1e6;
  TuneEntry e;
  e.device = dev.name;
  e.driver = dev.driver;
  e.host_mbps = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(mbps)));
  e.note =
      fmt::format("clrdx tune {}: f32 sums of {} host elements, median of 5 calls", today(), n);
  return e;
}

}  // namespace

TuneResult tune(Context& ctx, const TuneRequest& request, const TuningTable& stored,
                const std::function<void(const TunePairResult&)>& on_pair) {
  const DeviceInfo& dev = ctx.device_info();
  for (const auto& [type, op] : request.pairs) {
    if (!op_allows(op, type))
      throw ArgumentError(fmt::format("{} is not defined for {}", name(op), name(type)));
    if (type == Type::F64 && !dev.fp64)
      throw UnsupportedError(
          fmt::format("tune: f64 needs fp64, which '{}' does not have", dev.name));
  }
  if (!request.pairs.empty() && request.sizes.empty())
    throw ArgumentError("tune: no sizes to measure");
  // Plans as they are without this device's stored entries: the baseline to beat.
  TuningTable baseline_table = builtin_tuning();
  for (auto& e : stored.entries)
    if (!same_device_entry(e, dev)) baseline_table.entries.push_back(e);
  TuneResult result;
  for (const auto& [type, op] : request.pairs) {
    result.pairs.push_back(tune_pair(ctx, request, baseline_table, type, op));
    if (on_pair) on_pair(result.pairs.back());
  }
  if (request.host_throughput) result.host = host_throughput(ctx);
  return result;
}

}  // namespace rdx
