// Internal: the one walk over an input larger than one device allocation, which every path that
// splits one shares (users' reductions, exact sums, segmented passes, and rdx::Stream's slots,
// through which rdx::reduce takes a host input beyond one allocation).
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>

namespace rdx::detail {

// Calls visit(base, len) for the consecutive pieces [base, base + len) of [0, n), in order: the
// first of at most `first` >= 1 elements (what is left of a partly filled buffer), every later one
// of at most `chunk` >= 1; none for n = 0.
template <class Visit>
void for_each_chunk(std::uint64_t n, std::uint64_t first, std::uint64_t chunk, Visit&& visit) {
  for (std::uint64_t base = 0, most = first; base < n; most = chunk) {
    const std::uint64_t len = std::min(most, n - base);  // base + len <= n: no overflow
    visit(base, len);
    base += len;
  }
}

// The same, every piece of at most `chunk` >= 1 elements.
template <class Visit>
void for_each_chunk(std::uint64_t n, std::uint64_t chunk, Visit&& visit) {
  for_each_chunk(n, chunk, chunk, std::forward<Visit>(visit));
}

}  // namespace rdx::detail
