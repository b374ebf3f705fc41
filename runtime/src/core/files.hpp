// Internal: checked file I/O shared by the library (tuning file, program cache) and clrdx
// (--output, bench --json). Every write goes to a temporary file in the same folder, is checked
// through write, fsync and close, and only then renamed over the destination, so a failed write (a
// full disk, an I/O error) leaves the old file as it was. Reads open regular files only (never a
// FIFO or a device that could block or never end).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rdx::detail {

// What write_file_atomically() may do with what is at its path now.
enum class Existing {
  // A path a user named (--output, bench --json, the tuning file): a symbolic link is followed
  // and its target written (created when missing), as numpy.save does; a folder, device, FIFO or
  // socket, there or at the link's end, is refused with rdx::ArgumentError and left as it is.
  follow,
  // A file of the library's own folder (the program cache): whatever is there but a folder, a
  // link or a FIFO included, is replaced.
  replace,
};

// Replaces `path` with `bytes`, or throws rdx::Error naming the path and the system's reason
// ("No space left on device"); the temporary file is removed on failure. A new file gets mode
// 0644 (less the umask); an existing file keeps its mode.
void write_file_atomically(const std::string& path, std::string_view bytes,
                           Existing existing = Existing::follow);

// Checks, before any work, what write_file_atomically(path) checks, and that the folder it
// writes in exists and takes new files. Throws rdx::ArgumentError "cannot write PATH: reason".
void check_writable(const std::string& path);

// The file a write of `path` (Existing::follow) replaces: `path`, or the end of its chain of
// symbolic links, a relative link read from its own folder; the end may not exist yet (a dangling
// link). Throws rdx::ArgumentError for a loop of links.
std::string link_target(const std::string& path);

// Whether `a` and `b` are one file (the same device and inode, links followed); false when
// either does not exist.
bool same_file(const std::string& a, const std::string& b);

// The whole content of `path` when it is a regular file; std::nullopt when it does not exist.
// Throws rdx::Error when it exists but is not a regular file or cannot be read.
std::optional<std::string> read_regular_file(const std::string& path);

}  // namespace rdx::detail
