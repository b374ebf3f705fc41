// The strategies librdx can run: the catalogue behind `clrdx strategies` and Options::strategy.
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace rdx {

struct StrategyInfo {
  std::string_view name;         // what Options::strategy and --strategy take
  std::string_view kernel_file;  // its file in cl/ (empty for host-only strategies)
  std::string_view seeds;        // the seed documents and the names they give it
  std::string_view summary;      // one line: the idea it teaches
};

// The seeds' baseline, seed 001's local-memory tree: what `clrdx bench`'s "vs local" column
// compares with and whose work-group size `clrdx verify` sizes its cases around.
inline constexpr std::string_view kBaselineStrategy = "localtree";

// Every strategy, in seed order.
std::span<const StrategyInfo> strategies();

struct DeviceInfo;
// Which form of strategy `name` runs on `dev` (e.g. "sub-group shuffle", or a fallback and why);
// "" when the strategy has one form. Throws ArgumentError for an unknown name.
std::string strategy_form(std::string_view name, const DeviceInfo& dev);

}  // namespace rdx
