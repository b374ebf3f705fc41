// Registry rows of this group (see registry.hpp); empty until its strategies land.
#include "strategies/registry.hpp"

namespace rdx::detail {

std::vector<StrategyDef> rows_seed001a() { return {}; }

}  // namespace rdx::detail
