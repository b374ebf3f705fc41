// clrdx tune: runs rdx::tune (rdx/tuning.hpp: auto's two one-launch strategies, fast_strided
// and fast_blocked, measured on one device for each element type and operator asked for) and
// stores what it found in the tuning file as entries for that device and driver, which every
// later Context on it plans with.
#include "core/format.hpp"

#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"

namespace clrdx {
namespace {

bool same_device_entry(const rdx::TuneEntry& e, const rdx::DeviceInfo& dev) {
  return e.device == dev.name && e.driver == dev.driver;
}

}  // namespace

int cmd_tune(const TuneArgs& a) {
  const std::string path = a.file.empty() ? rdx::tuning_file() : a.file;
  if (path.empty())
    throw rdx::ArgumentError("no tuning file: RDX_TUNING_FILE=off and no --file given");
  const rdx::TuningTable stored = rdx::load_tuning(path);  // a malformed file stops here
  // A file that could not be written would waste the whole measurement: fail first.
  if (!a.dry_run) rdx::check_tuning_file_writable(path);
  rdx::Context ctx(a.device);
  const rdx::DeviceInfo& dev = ctx.device_info();
  rdx::TuningUpdate update;
  update.device = dev.name;
  update.driver = dev.driver;

  if (a.clear) {
    std::size_t removed = 0;
    if (a.dry_run) {
      removed = static_cast<std::size_t>(
          std::count_if(stored.entries.begin(), stored.entries.end(),
                        [&](const rdx::TuneEntry& e) { return same_device_entry(e, dev); }));
    } else {
      update.clear = true;
      removed = rdx::update_tuning_file(path, update).removed;
    }
    rdx::detail::print("{}: removed {} entries for {} (driver {}){}\n", path, removed, dev.name,
                       dev.driver, a.dry_run ? " (dry run: nothing written)" : "");
    return 0;
  }

  std::vector<std::pair<rdx::Type, rdx::Op>> pairs;
  for (const rdx::Type type : parse_type_list(a.types))
    for (const rdx::Op op : parse_op_list(a.ops)) {
      if (!rdx::op_allows(op, type))
        throw rdx::ArgumentError(
            rdx::detail::format("{} is not defined for {}", rdx::name(op), rdx::name(type)));
      if (type == rdx::Type::F64 && !dev.fp64) {
        std::cerr << rdx::detail::format("tune: skipping f64: '{}' has no fp64\n", dev.name);
        continue;
      }
      pairs.push_back({type, op});
    }
  rdx::TuneRequest request;
  request.pairs = pairs;
  request.sizes = parse_counts(a.sizes);
  request.repeat = a.repeat;
  request.margin = a.margin;
  request.log = [](const std::string& line) { std::cerr << line << '\n'; };
  rdx::detail::print("tuning {} (driver {}), sizes {}; the built-in plan against {} candidates\n",
                     dev.name, dev.driver, a.sizes, rdx::tune_candidates().size());
  const rdx::TuneResult result = rdx::tune(ctx, request, stored, [](const rdx::TunePairResult& p) {
    rdx::detail::print("  {} {}: {}\n", rdx::name(p.type), rdx::name(p.op), p.summary);
  });
  rdx::detail::print("  host input: {} MB/s (a device group's share of host data)\n",
                     result.host->host_mbps);
  update.host_measured = true;
  const std::vector<rdx::TuneEntry> found = result.entries();

  if (a.dry_run) {
    rdx::detail::print("dry run: {} entries not written to {}\n", found.size(), path);
    return 0;
  }
  // This device's entries for the pairs measured are replaced; everything else in the file as it
  // is now (other runs may have written it meanwhile) stays.
  update.measured = pairs;
  update.entries = found;
  const rdx::TuningFileChange change = rdx::update_tuning_file(path, update);
  rdx::detail::print("wrote {} entries for this device to {} ({} in all)\n", found.size(), path,
                     change.total);
  return 0;
}

}  // namespace clrdx
