// The tuning table of fast_strided / fast_blocked: built-in entries, resolution by specificity,
// and the tuning file that rdx::tune's results go into (JSON, read with nlohmann-json). The search
// itself times reductions, so it sits above the planner: api/tune.cpp.
#include "rdx/tuning.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include "core/format.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/files.hpp"
#include "core/text.hpp"
#include "plan/strategy_facts.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"

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
  throw ArgumentError(detail::format("unknown device kind '{}' (cpu, gpu, accelerator, other)",
                                     detail::printable(s)));
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
      throw ArgumentError(detail::format("unknown key '{}'", detail::printable(key)));
  }
  TuneEntry e;
  auto str = [&](const char* k) { return j.contains(k) ? j.at(k).get<std::string>() : ""; };
  auto num = [&](const char* k) -> std::uint64_t {
    if (!j.contains(k)) return 0;
    if (!j.at(k).is_number_unsigned())
      throw ArgumentError(detail::format("'{}' is not a non-negative integer", k));
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
    throw ArgumentError(
        detail::format("'{}' is not fast_strided or fast_blocked", detail::printable(e.auto_runs)));
  if (!e.strategy.empty()) {
    const detail::StrategyFacts* f = detail::find_facts(e.strategy);
    if (!f || !f->tune)
      throw ArgumentError(
          detail::format("'{}' is not a strategy with tunables", detail::printable(e.strategy)));
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
    if (fd_ < 0)
      throw Error(detail::format("cannot lock {}: {}", detail::printable(lock_path(path)), why));
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
    TuneEntry any;  // any device: the GPU layout (the tunables' defaults: plan/fast_tuning.cpp)
    any.auto_runs = "fast_strided";
    t.entries.push_back(any);
    TuneEntry cpu;  // CPUs: each work-item one long contiguous range
    cpu.kind = DeviceKind::CPU;
    cpu.auto_runs = "fast_blocked";
    t.entries.push_back(cpu);
    TuneEntry nvidia;  // NVIDIA GPUs: inputs of 4 GiB or more in several waves of groups
    nvidia.kind = DeviceKind::GPU;
    nvidia.vendor = "nvidia";
    nvidia.strategy = "fast_strided";
    nvidia.values.set("large_bytes", std::uint64_t{1} << 32);
    nvidia.note =
        "H200: f32/i32 sums and f32 max of 2^30 elements 1.012-1.029x the default grid "
        "(plan/fast_tuning.cpp, kLargeWg)";
    t.entries.push_back(nvidia);
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

namespace {

// A tuning file that cannot be used: its path and why.
ArgumentError malformed(const std::string& path, const std::string& why) {
  return ArgumentError(detail::format(
      "tuning file {} is malformed: {} (fix it, remove it, or set RDX_TUNING_FILE=off)",
      detail::printable(path), why));
}

}  // namespace

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
        throw ArgumentError(detail::format("entry {}: {}", k, err.what()));
      }
      ++k;
    }
  } catch (const nlohmann::json::exception& e) {  // its messages may quote the file's bytes
    throw malformed(path, detail::printable(e.what()));
  } catch (const std::exception& e) {  // ours: user text already printable
    throw malformed(path, e.what());
  }
  return t;
}

void save_tuning(const std::string& path, const TuningTable& table) {
  nlohmann::json j = {{"librdx_tuning", 1}, {"entries", nlohmann::json::array()}};
  for (auto& e : table.entries)
    j["entries"].push_back(entry_to_json(e));
  if (const std::string why = create_folder_of(path); !why.empty())
    throw Error(detail::format("cannot write {}: {}", detail::printable(path), why));
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
  if (!why.empty())
    throw ArgumentError(detail::format("cannot write {}: {}", detail::printable(path), why));
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
