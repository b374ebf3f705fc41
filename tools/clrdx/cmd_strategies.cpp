#include "core/format.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "core/binary_cache.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"

namespace clrdx {

int cmd_strategies(const StrategiesArgs& a) {
  // With --device: which form each strategy takes there (sub-groups or their fallback).
  const std::vector<rdx::DeviceInfo> devices =
      a.device.empty() ? std::vector<rdx::DeviceInfo>{} : pick_devices(a.device);
  if (a.json) {
    nlohmann::json arr = nlohmann::json::array();
    for (auto& s : rdx::strategies()) {
      nlohmann::json forms = nlohmann::json::object();
      for (auto& d : devices)
        forms[d.name] = rdx::strategy_form(s.name, d);
      arr.push_back({{"name", s.name},
                     {"kernel_file", s.kernel_file},
                     {"seeds", s.seeds},
                     {"summary", s.summary},
                     {"forms", forms}});
    }
    std::cout << arr.dump(2) << "\n";
    return 0;
  }
  rdx::detail::print("{:<24} {:<22} {}\n", "strategy", "kernel", "seed / idea");
  for (auto& s : rdx::strategies()) {
    rdx::detail::print("{:<24} {:<22} {}\n{:<47} {}\n", s.name, s.kernel_file, s.seeds, "",
                       s.summary);
    for (auto& d : devices)
      if (auto form = rdx::strategy_form(s.name, d); !form.empty())
        rdx::detail::print("{:<47} on {}: {}\n", "", d.name, form);
  }
  rdx::detail::print("{:<24} {:<22} {}\n", "auto", "-",
                     "the default: fast_blocked on CPUs, fast_strided elsewhere");
  return 0;
}

// Where the program cache is and what it holds, or why it is off; with --clear, empties it.
// An RDX_CACHE_DIR that is not a directory throws ArgumentError (exit 2).
int cmd_cache(bool clear) {
  namespace cache = rdx::detail;
  const cache::CacheLocation where = cache::locate_binary_cache();
  if (!where.on()) {
    rdx::detail::print("program cache: off ({})\n", where.why);
    return 0;
  }
  if (clear) {
    rdx::detail::print("program cache {}: removed {} entries\n", where.entries_dir(),
                       cache::clear_binary_cache(where));
    return 0;
  }
  const cache::CacheSummary summary = cache::inspect_binary_cache(where);
  const std::string state =
      summary.problem.empty()
          ? std::string()
          : rdx::detail::format("; not usable: {}, so kernels are built from source every run",
                                summary.problem);
  rdx::detail::print("program cache: {} ({}): entries: {}, {} KiB{}\n", where.entries_dir(),
                     where.why, summary.entries, (summary.bytes + 1023) / 1024, state);
  return 0;
}

}  // namespace clrdx
