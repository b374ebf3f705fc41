// clrdx's input files: raw little-endian elements, or NumPy .npy (format versions 1 to 3).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdx/types.hpp"

namespace clrdx {

struct NpyHeader {
  rdx::Type type;
  std::uint64_t count;      // product of the shape (1 for a 0-d array)
  std::size_t data_offset;  // where the elements start
};

// Parses the header of a .npy file from its first bytes (all of the file, or at least the
// header). Throws rdx::ArgumentError naming what is wrong: bad magic, unsupported version,
// truncated or garbled header, big-endian or unsupported dtype, Fortran order, bad shape.
NpyHeader parse_npy_header(std::string_view bytes);

bool looks_like_npy(std::string_view bytes);

struct LoadedInput {
  rdx::Type type;
  std::uint64_t count;
  std::vector<unsigned char> data;  // count * size_of(type) bytes
};

// Reads `path`: .npy by its magic (its dtype must agree with `type` when one is given), else raw
// elements of `type` (required). Throws rdx::ArgumentError for every problem with the file.
LoadedInput load_input(const std::string& path, std::optional<rdx::Type> type);

}  // namespace clrdx
