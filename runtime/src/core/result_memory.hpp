// Internal: host vectors for large results. A fresh buffer of many megabytes costs a page fault
// for each 4 KiB page on its first touch: on the H200's host a zero-filled 64 MiB vector took
// 38-45 ms, the most of a call that sums the rows of a 2^28-element matrix (40 ms). Asking for
// transparent huge pages (where the kernel's setting is `madvise`, the common default) halved it
// (18-20 ms: a vector reserved, madvise(MADV_HUGEPAGE) on it, then resized; 134 MiB 81-93 ->
// 33-42).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace rdx::detail {

// Sizes v to `count` zero elements, its memory asked for in huge pages when it spans several.
template <class T>
void size_for_results(std::vector<T>& v, std::size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t bytes = count * sizeof(T);
  if (v.empty() && bytes >= 2 * kHuge) {
    v.reserve(count);  // not yet touched: the advice applies before the first fault
    const auto p = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t lo = (p + kHuge - 1) & ~std::uintptr_t{kHuge - 1};
    const std::uintptr_t hi = (p + bytes) & ~std::uintptr_t{kHuge - 1};
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // advice only
  }
#endif
  v.resize(count);
}

}  // namespace rdx::detail
