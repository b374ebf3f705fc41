#include "coverage.hpp"

#include <cstdlib>
#include <iterator>
#include <stdexcept>
#include <string>

#include "rdx/types.hpp"

namespace rdx::test {

bool pair_in_matrix(Coverage c, std::string_view strategy, std::size_t position, Type t, Op op) {
  if (!op_allows(op, t)) return false;
  if (c == Coverage::Full) return true;
  if (c == Coverage::Barriers) {
    if (t == Type::I32) return op == Op::Sum || op == Op::Xor;
    // Every float operator, for its NaN, infinity and product rules; of the NaN-ignoring family,
    // nanargmax alone (its combine texts are those of nanmax, and nanargmin's mirror them).
    if (op == Op::NanMin || op == Op::NanMax || op == Op::NanArgMin) return false;
    return t == Type::F32;
  }
  for (std::string_view full :
       {"localtree", "fast_strided", "fast_blocked", "atomic_global", "atomic_local"})
    if (strategy == full) return true;
  if (op == Op::Sum) return true;
  if (t == Type::I32 && (op == Op::Prod || op == Op::Xor || op == Op::ArgMax)) return true;
  if (t == Type::F32 && (op == Op::Max || op == Op::Prod || op == Op::ArgMin || op == Op::NanMin ||
                         op == Op::NanArgMax))
    return true;
  // One more type per operator: positions 3 apart per operator, so neighbouring strategies
  // take different types; bitwise operators skip the float types to the next integer one.
  const std::size_t nt = std::size(kAllTypes);
  std::size_t k = (position + 3 * static_cast<std::size_t>(op)) % nt;
  while (!op_allows(op, kAllTypes[k]))
    k = (k + 1) % nt;
  return kAllTypes[k] == t;
}

bool quick_tier() {
  const char* v = std::getenv("RDX_TEST_TIER");
  const std::string tier = v ? v : "";
  if (tier != "" && tier != "quick" && tier != "full")
    throw std::invalid_argument("RDX_TEST_TIER is quick or full, not " + tier);
  return tier == "quick";
}

}  // namespace rdx::test
