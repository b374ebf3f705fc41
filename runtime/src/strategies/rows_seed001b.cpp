// Registry rows of this group (see registry.hpp); empty until its strategies land.
#include "strategies/registry.hpp"

namespace rdx::detail {

std::vector<StrategyDef> rows_seed001b() { return {}; }

}  // namespace rdx::detail
