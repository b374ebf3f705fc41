// Internal: the one walk over an input larger than one device allocation, which every path that
// splits one shares (users' reductions, exact sums, segmented passes).
#pragma once
#include <algorithm>
#include <cstdint>

namespace rdx::detail {

// Calls visit(base, len) for the consecutive pieces [base, base + len) of [0, n), in order, each
// of at most `chunk` >= 1 elements; none for n = 0.
template <class Visit>
void for_each_chunk(std::uint64_t n, std::uint64_t chunk, Visit&& visit) {
  for (std::uint64_t base = 0; base < n;) {
    const std::uint64_t len = std::min(chunk, n - base);  // base + len <= n: no overflow
    visit(base, len);
    base += len;
  }
}

}  // namespace rdx::detail
