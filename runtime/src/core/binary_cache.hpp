// Internal: the on-disk cache of built program binaries, so a new process skips kernel builds.
// Where: $RDX_CACHE_DIR, else $XDG_CACHE_HOME/rdx, else $HOME/.cache/rdx (an empty variable counts
// as unset); RDX_CACHE_DIR=off turns it off. The cache keeps its entries in a folder of its own
// under that one, programs-v2/, marked by a standard CACHEDIR.TAG, and never touches anything
// else there. An entry is keyed by a hash of the source, the build options, the platform, the
// device and its driver version; it stores the full key (to rule out collisions) and a 64-bit
// FNV-1a checksum of key and binary, and only a binary that matches both reaches the driver.
// Cache trouble (a missing or unwritable folder, a stale, corrupt or non-regular entry) never
// fails a reduce: the program is built from source and the entry rewritten. RDX_CACHE_DIR naming
// something that is not a directory is an ArgumentError, so a typo does not silently turn it off.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdx::detail {

// 64-bit FNV-1a of `bytes`, continuing from `seed` (so fnv1a(b, fnv1a(a)) hashes a then b).
constexpr std::uint64_t kFnv1aOffset = 0xcbf29ce484222325ull;
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = kFnv1aOffset);

// Where the environment puts the cache.
struct CacheLocation {
  std::string root;  // the configured folder; "" when the cache is off
  // On: where root came from ("RDX_CACHE_DIR=/x", "XDG_CACHE_HOME=/y", "HOME=/z"; the value as
  // detail::printable shows it).
  // Off: why ("RDX_CACHE_DIR=off", or no variable to put it in).
  std::string why;

  bool on() const { return !root.empty(); }
  // The folder the cache owns, root/programs-v2: entries and the CACHEDIR.TAG marker.
  std::string entries_dir() const;
};

// Reads RDX_CACHE_DIR, XDG_CACHE_HOME and HOME. Throws ArgumentError when RDX_CACHE_DIR names
// something that exists and is not a directory (or a path through a file). A folder derived from
// XDG_CACHE_HOME or HOME is not checked here (HOME=/dev/null must not break every context);
// inspect_binary_cache() reports it.
CacheLocation locate_binary_cache();

// What is in the cache folder, for `clrdx cache`.
struct CacheSummary {
  std::uint64_t entries = 0;  // files named like entries
  std::uint64_t bytes = 0;    // their total size
  std::string problem;        // "" when entries can be stored, else why they cannot
};
CacheSummary inspect_binary_cache(const CacheLocation& where);

// Removes the entries (and leftover temporary files) from where.entries_dir() when that folder
// carries the cache's CACHEDIR.TAG, then the marker and the folder if nothing else is left.
// Removes nothing else, anywhere. Returns how many files it removed; throws Error naming a file
// it could not remove.
std::uint64_t clear_binary_cache(const CacheLocation& where);

// One context's view of the cache: the location is read once, when the context is made.
class BinaryCache {
 public:
  BinaryCache();  // throws ArgumentError as locate_binary_cache() does

  // Whether binaries are stored: fetching a program's binary is not free (PoCL compiles every
  // kernel of the program for it, beside the launches' own builds), so it is done only to store.
  bool on() const { return where_.on(); }

  // The binary stored under `key`, when its entry is a regular file whose key and checksum match.
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;

  // Stores a binary under `key` (atomically, replacing any entry there). Best effort: a failure
  // to write is ignored, and the next process builds from source again.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;

 private:
  // where_.entries_dir()/<32 hex digits of two FNV-1a hashes of the key>.bin
  std::string entry_path(const std::string& key) const;

  CacheLocation where_;
};

}  // namespace rdx::detail
