// clrdx's input files: raw little-endian elements, or NumPy .npy (format versions 1 to 3).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdx/types.hpp"

namespace clrdx {

struct NpyHeader {
  rdx::Type type;
  std::vector<std::uint64_t> shape;  // C order; empty for a 0-d array
  std::uint64_t count;               // product of the shape (1 for a 0-d array)
  std::size_t data_offset;           // where the elements start
};

// Parses the header of a .npy file from its first bytes (all of the file, or at least the
// header). Throws rdx::ArgumentError naming what is wrong: bad magic, unsupported version,
// truncated or garbled header, big-endian or unsupported dtype, Fortran order, bad shape.
NpyHeader parse_npy_header(std::string_view bytes);

bool looks_like_npy(std::string_view bytes);

// An input file opened for streaming, its format checked from its first bytes and, for regular
// files, its size checked against the format before any element is read.
struct InputFile {
  std::string path;
  rdx::Type type = rdx::Type::U8;
  int fd = -1;       // positioned after `head`; closed by the destructor
  std::string head;  // data bytes already read while detecting the format (file order)
  // The data bytes (after any .npy header): known up front for regular files; for pipes and
  // devices, the .npy header's promise or nothing (raw).
  std::optional<std::uint64_t> data_bytes;
  bool npy = false;
  std::uint64_t npy_count = 0;           // the .npy header's element count
  std::vector<std::uint64_t> npy_shape;  // and its shape
  bool part = false;  // data_bytes are a range of the data (keep_range), not all of it

  InputFile() = default;
  InputFile(InputFile&&) noexcept;
  InputFile& operator=(InputFile&&) noexcept;
  ~InputFile();

  // Throws rdx::ArgumentError when `bytes` bytes of data do not make this input: a .npy file
  // whose data is not what its header promises, or raw data that is not whole elements.
  void check_data_size(std::uint64_t bytes) const;
};

// Opens `path`: .npy by its magic or its name (its dtype must agree with `type` when one is
// given), else raw elements of `type` (required). Throws rdx::ArgumentError for every problem
// found without reading the data: unreadable path, directory, bad header, size mismatch.
// raw_default: `type` is the type of a raw file only, and a .npy file's dtype is taken as it is.
InputFile open_input(const std::string& path, std::optional<rdx::Type> type,
                     bool raw_default = false);

// Makes `f` (a regular file's input, as open_input left it) the `bytes` data bytes from byte
// `first` of its data (element-aligned): reading goes on from there and stops at the range's end
// (open_input has already read the header and at most 64 KiB of data to check the format).
// Throws rdx::ArgumentError for a pipe or device, or a range outside the data.
void keep_range(InputFile& f, std::uint64_t first, std::uint64_t bytes);

// Reads from fd into buf until n bytes or the end of the file; returns the bytes read. Throws
// rdx::ArgumentError naming `path` and the system's reason on a read error.
std::size_t read_full(int fd, void* buf, std::size_t n, const std::string& path);

// A whole .npy file (format version 1) of `shape` elements of `type` read from `data`; with
// `logical`, u8 elements that are 0 or 1 as NumPy's bool dtype ('|b1').
std::string npy_bytes(rdx::Type type, std::span<const std::uint64_t> shape, const void* data,
                      bool logical = false);

}  // namespace clrdx
