// Internal: the on-disk cache of built program binaries, so a new process skips kernel builds.
// Where: $RDX_CACHE_DIR, else $XDG_CACHE_HOME/rdx, else $HOME/.cache/rdx; RDX_CACHE_DIR=off turns
// it off. An entry is keyed by a hash of the source, the build options, the platform, the device
// and its driver version, and stores the full key to rule out collisions. Cache trouble (a
// missing folder, a stale or corrupt file) never fails a reduce: the program is built from source.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace rdx::detail {

// The cache folder, or "" when the cache is off.
std::string binary_cache_dir();

// The binary stored under `key`, if any.
std::optional<std::vector<unsigned char>> load_binary(const std::string& key);

// Stores a binary under `key` (atomically: a temporary file renamed into place).
void store_binary(const std::string& key, const std::vector<unsigned char>& binary);

// 64-bit FNV-1a, for keys and file names.
std::uint64_t fnv1a(const std::string& text, std::uint64_t seed = 0xcbf29ce484222325ull);

}  // namespace rdx::detail
