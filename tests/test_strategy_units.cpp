// The strategy table built from the one list (runtime/src/plan/strategy_list.hpp), without a
// device.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "plan/strategy_facts.hpp"
#include "rdx/strategies.hpp"

using namespace rdx;
using namespace rdx::detail;

TEST_CASE("every listed strategy is in the table once, in order, with its facts") {
  const auto facts = strategy_facts();
  REQUIRE(facts.size() == strategies().size());
  std::set<std::string> names;
  int last = -1;
  for (std::size_t i = 0; i < facts.size(); ++i) {
    const StrategyFacts* f = facts[i];
    CAPTURE(f->info.name);
    CHECK(names.insert(std::string(f->info.name)).second);
    CHECK(f->order > last);  // sorted, no two at one position
    last = f->order;
    CHECK(static_cast<bool>(f->depth));
    CHECK(find_facts(f->info.name) == f);
    CHECK(strategies()[i].name == f->info.name);
    // Only the one-launch strategies behind auto have tunables (and take them from the table).
    const bool fast = f->info.name == "fast_strided" || f->info.name == "fast_blocked";
    CHECK(static_cast<bool>(f->tune) == fast);
    CHECK(f->params.empty() == !fast);
    for (const ParamSpec& p : f->params)
      CHECK(is_tunable_name(p.name));
  }
  CHECK(find_facts("no_such_strategy") == nullptr);
}
