// Registry rows of this group (see registry.hpp); empty until its strategies land.
#include "strategies/registry.hpp"

namespace rdx::detail {

std::vector<StrategyDef> rows_fast() { return {}; }

}  // namespace rdx::detail
