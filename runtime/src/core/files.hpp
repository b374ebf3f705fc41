// Internal: checked file I/O shared by the library (tuning file, program cache) and clrdx
// (bench --json). Every write goes to a temporary file in the same folder, is checked through
// write, fsync and close, and only then renamed over the destination, so a failed write (a full
// disk, an I/O error) leaves the old file as it was. Reads open regular files only (never a
// FIFO or a device that could block or never end).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rdx::detail {

// Replaces `path` with `bytes`, or throws rdx::Error naming the path and the system's reason
// ("No space left on device"); the temporary file is removed on failure. A new file gets mode
// 0644 (less the umask); an existing file keeps its mode.
void write_file_atomically(const std::string& path, std::string_view bytes);

// The whole content of `path` when it is a regular file; std::nullopt when it does not exist.
// Throws rdx::Error when it exists but is not a regular file or cannot be read.
std::optional<std::string> read_regular_file(const std::string& path);

}  // namespace rdx::detail
