// Updating the tuning file: the merge of one `clrdx tune` run into the file as it is now (a pure
// function), and updates under the file's lock, from several threads at once, that all survive.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "rdx/rdx.hpp"

using namespace rdx;

namespace {

TuneEntry device_entry(const std::string& device, std::optional<Type> type, std::optional<Op> op,
                       const std::string& note) {
  TuneEntry e;
  e.device = device;
  e.driver = "1.0";
  e.type = type;
  e.op = op;
  e.strategy = e.auto_runs = "fast_blocked";
  e.note = note;
  return e;
}

std::vector<std::string> notes(const TuningTable& t) {
  std::vector<std::string> r;
  for (auto& e : t.entries)
    r.push_back(e.note);
  return r;
}

std::string pair_note(Type type, Op op) {
  return std::string(name(type)) + " " + std::string(name(op));
}

TuningUpdate update_for(const std::string& device) {
  TuningUpdate u;
  u.device = device;
  u.driver = "1.0";
  return u;
}

// A folder of its own under the temporary folder, removed at the end.
struct TempDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("rdx_tuning_merge_" + std::to_string(static_cast<long>(::getpid())));
  TempDir() { std::filesystem::remove_all(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("tuning merge: a run replaces only its device's entries for the pairs it measured") {
  TuningTable current;
  TuneEntry vendor;
  vendor.vendor = "NVIDIA";
  vendor.note = "vendor";
  current.entries.push_back(vendor);
  current.entries.push_back(device_entry("A", Type::F32, Op::Sum, "A f32 sum (old)"));
  current.entries.push_back(device_entry("A", Type::I32, Op::Sum, "A i32 sum"));
  current.entries.push_back(device_entry("A", Type::F32, Op::Max, "A f32 max (old)"));
  current.entries.push_back(device_entry("A", std::nullopt, std::nullopt, "A any (by hand)"));
  current.entries.push_back(device_entry("B", Type::F32, Op::Sum, "B f32 sum"));
  TuneEntry other_driver = device_entry("A", Type::F32, Op::Sum, "A f32 sum, driver 2.0");
  other_driver.driver = "2.0";
  current.entries.push_back(other_driver);

  TuningUpdate u = update_for("A");
  u.measured = {{Type::F32, Op::Sum}, {Type::F32, Op::Max}};
  u.entries = {device_entry("A", Type::F32, Op::Sum, "A f32 sum (new)")};  // f32 max: built-in
  const TuningTable merged = merge_tuning(current, u);
  CHECK(notes(merged) == std::vector<std::string>{"vendor", "A i32 sum", "A any (by hand)",
                                                  "B f32 sum", "A f32 sum, driver 2.0",
                                                  "A f32 sum (new)"});
  CHECK(notes(current).size() == 7);  // the input is not changed

  // Nothing measured, nothing found: the table as it was.
  CHECK(notes(merge_tuning(current, update_for("A"))) == notes(current));
  // Into an empty table (no file yet): the run's entries.
  CHECK(notes(merge_tuning({}, u)) == std::vector<std::string>{"A f32 sum (new)"});
}

TEST_CASE("tuning merge: clear removes every entry of the device and driver, nothing else") {
  TuningTable current;
  current.entries.push_back(device_entry("A", Type::F32, Op::Sum, "A f32 sum"));
  current.entries.push_back(device_entry("B", Type::F32, Op::Sum, "B f32 sum"));
  current.entries.push_back(device_entry("A", std::nullopt, std::nullopt, "A any"));
  TuneEntry cpu;
  cpu.kind = DeviceKind::CPU;
  cpu.note = "cpus";
  current.entries.push_back(cpu);
  TuningUpdate u = update_for("A");
  u.clear = true;
  CHECK(notes(merge_tuning(current, u)) == std::vector<std::string>{"B f32 sum", "cpus"});
}

TEST_CASE("tuning file: updates re-read the file under its lock, so none is lost") {
  const TempDir dir;
  const std::string path = (dir.path / "sub" / "tuning.json").string();
  check_tuning_file_writable(path);  // creates the folder and the lock file
  CHECK(std::filesystem::exists(path + ".lock"));
  CHECK_FALSE(std::filesystem::exists(path));

  // Another run (or a hand edit) wrote the file after this run read it: its entries stay.
  TuningTable by_hand;
  TuneEntry gpu;
  gpu.kind = DeviceKind::GPU;
  gpu.note = "by hand";
  by_hand.entries.push_back(gpu);
  by_hand.entries.push_back(device_entry("A", Type::I32, Op::Sum, "A i32 sum (old)"));
  save_tuning(path, by_hand);

  // Runs in several threads at once, each for its own pair (one of them replacing an entry).
  const std::vector<std::pair<Type, Op>> pairs = {
      {Type::I32, Op::Sum}, {Type::F32, Op::Sum}, {Type::F64, Op::Sum}, {Type::I32, Op::Max},
      {Type::F32, Op::Max}, {Type::F64, Op::Max}, {Type::U8, Op::Sum},  {Type::I64, Op::Min}};
  std::vector<std::thread> runs;
  for (const auto& pair : pairs)
    runs.emplace_back([&path, pair] {
      TuningUpdate u = update_for("A");
      u.measured = {pair};
      u.entries = {device_entry("A", pair.first, pair.second, pair_note(pair.first, pair.second))};
      update_tuning_file(path, u);
    });
  for (auto& t : runs)
    t.join();
  const TuningTable after = load_tuning(path);
  const auto kept = notes(after);
  CHECK(kept.size() == 1 + pairs.size());
  CHECK(std::count(kept.begin(), kept.end(), "by hand") == 1);
  CHECK(std::count(kept.begin(), kept.end(), "A i32 sum (old)") == 0);
  for (auto [type, op] : pairs)
    CHECK(std::count(kept.begin(), kept.end(), pair_note(type, op)) == 1);

  TuningUpdate clear = update_for("A");
  clear.clear = true;
  const TuningFileChange change = update_tuning_file(path, clear);
  CHECK(change.removed == pairs.size());
  CHECK(change.total == 1);
  CHECK(notes(load_tuning(path)) == std::vector<std::string>{"by hand"});
  // Only the file and its lock file: no temporary file left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] auto& f : std::filesystem::directory_iterator(dir.path / "sub"))
    ++files;
  CHECK(files == 2);
}

TEST_CASE("tuning file: a place that cannot be written is refused with the system's reason") {
  try {
    check_tuning_file_writable("/dev/null/tuning.json");
    FAIL("accepted a tuning file under /dev/null");
  } catch (const ArgumentError& e) {
    CHECK(std::string(e.what()).find("/dev/null/tuning.json") != std::string::npos);
    CHECK(std::string(e.what()).find("Not a directory") != std::string::npos);
  }
  const TempDir dir;
  std::filesystem::create_directories(dir.path / "folder");
  CHECK_THROWS_AS(check_tuning_file_writable((dir.path / "folder").string()), ArgumentError);
  CHECK_FALSE(std::filesystem::exists(dir.path / "folder.lock"));
  TuningUpdate u = update_for("A");
  CHECK_THROWS_AS(update_tuning_file("/dev/null/tuning.json", u), Error);
}

TEST_CASE("tuning: host throughput is kept, replaced by a new run, and makes a group's shares") {
  DeviceInfo gpu, cpu;
  gpu.name = "GPU A";
  gpu.driver = "1.0";
  gpu.kind = DeviceKind::GPU;
  cpu.name = "CPU B";
  cpu.driver = "1.0";
  cpu.kind = DeviceKind::CPU;
  TuneEntry g = device_entry("GPU A", std::nullopt, std::nullopt, "gpu host");
  g.strategy = g.auto_runs = "";
  g.host_mbps = 24000;
  TuningTable t;
  t.entries = {g, device_entry("GPU A", Type::F32, Op::Sum, "f32 sum")};
  // The file's form keeps it.
  const std::string path = std::filesystem::temp_directory_path() /
                           ("rdx_host_mbps_" + std::to_string(::getpid()) + ".json");
  save_tuning(path, t);
  const TuningTable back = load_tuning(path);
  std::filesystem::remove(path);
  REQUIRE(back.entries.size() == 2);
  CHECK(back.entries[0].host_mbps == 24000);
  CHECK(back.entries[1].host_mbps == 0);
  CHECK(resolve_host_mbps(back, gpu) == 24000);
  CHECK(!resolve_host_mbps(back, cpu));
  // A new run's measurement replaces the old one, and only that device's.
  TuneEntry c = g;
  c.device = "CPU B";
  t.entries.push_back(c);
  TuningUpdate u;
  u.device = "GPU A";
  u.driver = "1.0";
  u.host_measured = true;
  TuneEntry g2 = g;
  g2.host_mbps = 30000;
  g2.note = "gpu host again";
  u.entries = {g2};
  const TuningTable merged = merge_tuning(t, u);
  CHECK(notes(merged) == std::vector<std::string>{"f32 sum", "gpu host", "gpu host again"});
  CHECK(resolve_host_mbps(merged, gpu) == 30000);
  // Shares: proportional when every device has a throughput, else equal.
  const std::vector<std::optional<std::uint64_t>> both = {30000, 10000}, one = {30000, {}};
  CHECK(shares_from_throughput(both) == std::vector<double>{0.75, 0.25});
  CHECK(shares_from_throughput(one) == std::vector<double>{0.5, 0.5});
}
