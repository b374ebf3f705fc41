// clrdx's whole inputs: a regular file's elements mapped read-only (the page cache holds them,
// so an input larger than memory works), a pipe's read into memory. For the reductions that take
// their inputs at once: composites, maps, custom and segmented reductions.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "input.hpp"
#include "rdx/types.hpp"

namespace clrdx {

class Mapping;  // a mapped file (whole_input.cpp); reading past a truncated end exits with one line

// An input's elements: a regular file's, mapped; a pipe's or generated data, in memory.
struct Loaded {
  explicit Loaded(rdx::Type t) : type(t) {}
  rdx::Type type;
  std::uint64_t bytes = 0;
  std::vector<unsigned char> owned;
  std::shared_ptr<Mapping> mapped;
  std::vector<std::uint64_t> shape;  // a .npy file's; else {count()}
  const unsigned char* data() const;
  std::uint64_t count() const { return bytes / rdx::size_of(type); }
};

// Opens and checks `path` (open_input) and maps or reads its elements; `shape` is the .npy
// header's, else one dimension of every element.
// raw_default: as open_input's.
Loaded load_file(const std::string& path, std::optional<rdx::Type> type, bool raw_default = false);

}  // namespace clrdx
