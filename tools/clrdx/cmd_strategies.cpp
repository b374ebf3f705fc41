#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "rdx/rdx.hpp"

namespace clrdx {

int cmd_strategies(const StrategiesArgs& a) {
  if (a.json) {
    nlohmann::json arr = nlohmann::json::array();
    for (auto& s : rdx::strategies())
      arr.push_back({{"name", s.name},
                     {"kernel_file", s.kernel_file},
                     {"seeds", s.seeds},
                     {"summary", s.summary}});
    std::cout << arr.dump(2) << "\n";
    return 0;
  }
  fmt::print("{:<12} {:<14} {}\n", "strategy", "kernel", "seed / idea");
  for (auto& s : rdx::strategies())
    fmt::print("{:<12} {:<14} {}\n{:<27} {}\n", s.name, s.kernel_file, s.seeds, "", s.summary);
  fmt::print("{:<12} {:<14} {}\n", "auto", "-",
             "the default: the plan picks per device, type, "
             "operator and size");
  return 0;
}

int cmd_cache(bool clear) {
  const std::string dir = rdx::program_cache_dir();
  if (dir.empty()) {
    fmt::print("program cache: off (RDX_CACHE_DIR=off)\n");
    return 0;
  }
  if (clear) {
    fmt::print("program cache {}: removed {} entries\n", dir, rdx::clear_program_cache());
    return 0;
  }
  fmt::print("program cache: {}\n", dir);
  return 0;
}

}  // namespace clrdx
