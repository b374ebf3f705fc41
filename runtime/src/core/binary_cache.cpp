#include "core/binary_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/files.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {
namespace {

namespace fs = std::filesystem;

// An entry: the magic, three little-endian u64 (key length, binary length, checksum), the key,
// the binary. The checksum is FNV-1a 64 over the key and then the binary.
constexpr std::string_view kMagic = "RDXBIN2\n";
constexpr std::size_t kHeaderSize = kMagic.size() + 3 * sizeof(std::uint64_t);

// The folder the cache owns under the configured one; a new entry layout gets a new name, and
// entries of an older layout (in the configured folder itself) are left alone.
constexpr std::string_view kEntriesFolder = "programs-v2";

// The standard cache directory tag (https://bford.info/cachedir/): backup tools skip the folder,
// and clear_binary_cache() removes files only from a folder that carries it.
constexpr std::string_view kTagName = "CACHEDIR.TAG";
constexpr std::string_view kTagSignature = "Signature: 8a477f597d28d172789f06886806bc55";
constexpr std::string_view kTagText =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by librdx for its program cache.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n";

std::string env_value(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// Throws ArgumentError when `dir` exists and is not a directory, or cannot be one because a part
// of its path is a file. A folder that does not exist yet is fine: the first store makes it.
void require_directory_or_absent(const std::string& dir) {
  struct stat st {};
  const bool usable = ::stat(dir.c_str(), &st) == 0 ? S_ISDIR(st.st_mode) : errno != ENOTDIR;
  if (!usable)
    throw ArgumentError(
        detail::format("RDX_CACHE_DIR={} is not a directory (set it to a folder for "
                       "the program cache, or to off)",
                       printable(dir)));
}

std::uint64_t entry_checksum(std::string_view key, std::string_view binary) {
  return fnv1a(binary, fnv1a(key));
}

void append_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t read_u64(std::string_view bytes, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

std::string encode_entry(const std::string& key, const std::vector<unsigned char>& binary) {
  const std::string_view bin(reinterpret_cast<const char*>(binary.data()), binary.size());
  std::string out(kMagic);
  out.reserve(kHeaderSize + key.size() + bin.size());
  append_u64(out, key.size());
  append_u64(out, bin.size());
  append_u64(out, entry_checksum(key, bin));
  out += key;
  out += bin;
  return out;
}

// The binary in an entry's bytes, when the magic, the lengths (against the file's size), the key
// and the checksum all match; anything else is a stale, foreign or damaged entry.
std::optional<std::vector<unsigned char>> decode_entry(std::string_view bytes,
                                                       const std::string& key) {
  if (bytes.size() < kHeaderSize || bytes.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  const std::uint64_t key_len = read_u64(bytes, kMagic.size());
  const std::uint64_t bin_len = read_u64(bytes, kMagic.size() + 8);
  const std::uint64_t checksum = read_u64(bytes, kMagic.size() + 16);
  const std::string_view body = bytes.substr(kHeaderSize);
  if (key_len != key.size() || key_len > body.size() || bin_len != body.size() - key_len ||
      bin_len == 0)
    return std::nullopt;
  const std::string_view stored_key = body.substr(0, key_len);
  const std::string_view binary = body.substr(key_len);
  if (stored_key != key || entry_checksum(stored_key, binary) != checksum) return std::nullopt;
  return std::vector<unsigned char>(binary.begin(), binary.end());
}

bool is_lower_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool is_number(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// An entry's file name: 32 lower-case hex digits, then ".bin".
bool is_entry_name(std::string_view name) {
  return name.size() == 36 && name.ends_with(".bin") && is_lower_hex(name.substr(0, 32));
}

// What write_file_atomically() leaves behind when a process dies mid-write: the destination's
// name (an entry or the tag), then ".<pid>.<count>.tmp".
bool is_leftover_temp_name(std::string_view name) {
  if (!name.ends_with(".tmp")) return false;
  name.remove_suffix(4);
  const auto count_dot = name.rfind('.');
  if (count_dot == std::string_view::npos || !is_number(name.substr(count_dot + 1))) return false;
  name = name.substr(0, count_dot);
  const auto pid_dot = name.rfind('.');
  if (pid_dot == std::string_view::npos || !is_number(name.substr(pid_dot + 1))) return false;
  name = name.substr(0, pid_dot);
  return is_entry_name(name) || name == kTagName;
}

bool is_regular_file_here(const fs::directory_entry& e) {
  std::error_code ec;
  return e.symlink_status(ec).type() == fs::file_type::regular;  // a link is never followed
}

bool has_cache_tag(const fs::path& dir) {
  try {
    const auto text = read_regular_file((dir / kTagName).string());
    return text && text->starts_with(kTagSignature);
  } catch (const Error&) {
    return false;
  }
}

// Makes the entries folder and its tag when they are missing; a failure shows up when the entry
// is written.
void prepare_entries_dir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path tag = dir / kTagName;
  if (!fs::exists(fs::symlink_status(tag, ec)))
    write_file_atomically(tag.string(), kTagText, Existing::replace);
}

// The files clear_binary_cache() may remove: regular files named like entries or their
// leftover temporary files.
std::vector<fs::path> removable_files(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if ((is_entry_name(name) || is_leftover_temp_name(name)) && is_regular_file_here(*it))
      files.push_back(it->path());
  }
  if (ec) throw Error(detail::format("cannot list {}: {}", printable(dir.string()), ec.message()));
  return files;
}

// Removes the tag and the folder when the tag is all that is left in it.
void remove_folder_if_only_tag_left(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename() != kTagName) return;
  if (ec) return;
  fs::remove(dir / kTagName, ec);
  fs::remove(dir, ec);  // rmdir: fails harmlessly if a concurrent store just added an entry
}

// Why entries cannot be stored in `dir`, or "": the nearest folder on its path that exists must
// be a directory this process can write (the rest is created on the first store).
std::string storage_problem(fs::path dir) {
  for (;;) {
    if (dir.empty()) dir = ".";
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        return detail::format("{} is not a directory", printable(dir.string()));
      if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return detail::format("{} cannot be written ({})", printable(dir.string()),
                              std::strerror(errno));
      return "";
    }
    if (errno != ENOENT && errno != ENOTDIR)  // ENOTDIR: a file higher up, reported there
      return detail::format("{} cannot be reached ({})", printable(dir.string()),
                            std::strerror(errno));
    const fs::path parent = dir.parent_path();
    if (parent == dir) return detail::format("{} does not exist", printable(dir.string()));
    dir = parent;
  }
}

}  // namespace

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string CacheLocation::entries_dir() const {
  return (fs::path(root) / kEntriesFolder).string();
}

CacheLocation locate_binary_cache() {
  if (const std::string dir = env_value("RDX_CACHE_DIR"); !dir.empty()) {
    if (dir == "off") return {"", "RDX_CACHE_DIR=off"};
    require_directory_or_absent(dir);
    return {dir, "RDX_CACHE_DIR=" + printable(dir)};
  }
  if (const std::string xdg = env_value("XDG_CACHE_HOME"); !xdg.empty())
    return {xdg + "/rdx", "XDG_CACHE_HOME=" + printable(xdg)};
  if (const std::string home = env_value("HOME"); !home.empty())
    return {home + "/.cache/rdx", "HOME=" + printable(home)};
  return {"", "no RDX_CACHE_DIR, XDG_CACHE_HOME or HOME to put it in"};
}

CacheSummary inspect_binary_cache(const CacheLocation& where) {
  CacheSummary summary;
  if (!where.on()) return summary;
  const fs::path dir = where.entries_dir();
  summary.problem = storage_problem(dir);
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_entry_name(it->path().filename().string()) || !is_regular_file_here(*it)) continue;
    std::error_code size_ec;
    const std::uintmax_t size = it->file_size(size_ec);
    ++summary.entries;
    if (!size_ec) summary.bytes += size;
  }
  return summary;
}

std::uint64_t clear_binary_cache(const CacheLocation& where) {
  if (!where.on()) return 0;
  const fs::path dir = where.entries_dir();
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec)) || !has_cache_tag(dir)) return 0;
  std::uint64_t removed = 0;
  for (const fs::path& file : removable_files(dir)) {
    if (fs::remove(file, ec)) ++removed;
    if (ec)
      throw Error(detail::format("cannot remove {}: {}", printable(file.string()), ec.message()));
  }
  remove_folder_if_only_tag_left(dir);
  return removed;
}

BinaryCache::BinaryCache() : where_(locate_binary_cache()) {}

std::optional<std::vector<unsigned char>> BinaryCache::load(const std::string& key) const {
  if (!where_.on()) return std::nullopt;
  std::optional<std::string> bytes;
  try {
    bytes = read_regular_file(entry_path(key));
  } catch (const Error&) {
    return std::nullopt;  // not a regular file, or unreadable: rebuilt, and replaced by store()
  }
  if (!bytes) return std::nullopt;
  return decode_entry(*bytes, key);
}

void BinaryCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (!where_.on() || binary.empty()) return;
  try {
    prepare_entries_dir(where_.entries_dir());
    write_file_atomically(entry_path(key), encode_entry(key, binary), Existing::replace);
  } catch (const Error&) {
    // Caching is an optimisation: an unwritable folder or a full disk only costs a rebuild.
  }
}

std::string BinaryCache::entry_path(const std::string& key) const {
  return (fs::path(where_.entries_dir()) /
          detail::format("{:016x}{:016x}.bin", fnv1a(key), fnv1a(key, 0x84222325cbf29ce4ull)))
      .string();
}

}  // namespace rdx::detail

namespace rdx {

std::string program_cache_dir() {
  return detail::locate_binary_cache().root;
}

std::uint64_t clear_program_cache() {
  return detail::clear_binary_cache(detail::locate_binary_cache());
}

}  // namespace rdx
