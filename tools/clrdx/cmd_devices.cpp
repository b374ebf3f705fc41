#include "core/format.hpp"

#include <iostream>

#include "commands.hpp"
#include "json_util.hpp"

namespace clrdx {

int cmd_devices(const DevicesArgs& a) {
  const auto devices = rdx::list_devices();
  if (a.json) {
    nlohmann::json arr = nlohmann::json::array();
    for (auto& d : devices)
      arr.push_back(to_json(d));
    std::cout << arr.dump(2) << "\n";
    return 0;
  }
  if (devices.empty()) {
    std::cerr << "clrdx: no OpenCL device found (is an ICD, e.g. PoCL, installed?)\n";
    return 1;
  }
  rdx::detail::print("{:>3}  {:<5} {:<4} {:<40} {:>4} {:>6} {:>9} {:>4}  {}\n", "idx", "P:D",
                     "kind", "name", "CUs", "maxwg", "memory", "fp64", "platform");
  for (auto& d : devices)
    rdx::detail::print("{:>3}  {:<5} {:<4} {:<40} {:>4} {:>6} {:>6} MiB {:>4}  {}\n", d.index,
                       rdx::detail::format("{}:{}", d.platform_index, d.device_index),
                       rdx::name(d.kind), d.name.substr(0, 40), d.compute_units, d.max_work_group,
                       d.global_mem >> 20, d.fp64 ? "yes" : "no", d.platform);
  return 0;
}

}  // namespace clrdx
