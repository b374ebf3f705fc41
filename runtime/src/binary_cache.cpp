#include "binary_cache.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "rdx/rdx.hpp"

namespace rdx::detail {
namespace {

constexpr std::string_view kMagic = "RDXBIN1\n";

std::filesystem::path entry_path(const std::string& dir, const std::string& key) {
  return std::filesystem::path(dir) /
         fmt::format("{:016x}{:016x}.bin", fnv1a(key), fnv1a(key, 0x84222325cbf29ce4ull));
}

}  // namespace

std::uint64_t fnv1a(const std::string& text, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string binary_cache_dir() {
  if (const char* d = std::getenv("RDX_CACHE_DIR")) {
    const std::string s(d);
    return s == "off" ? std::string() : s;
  }
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/rdx";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/rdx";
  return {};
}

std::optional<std::vector<unsigned char>> load_binary(const std::string& key) {
  const std::string dir = binary_cache_dir();
  if (dir.empty()) return std::nullopt;
  std::ifstream in(entry_path(dir, key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string magic(kMagic.size(), '\0');
  std::uint64_t key_len = 0, bin_len = 0;
  in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
  in.read(reinterpret_cast<char*>(&key_len), sizeof key_len);
  if (!in || magic != kMagic || key_len != key.size()) return std::nullopt;
  std::string stored(key_len, '\0');
  in.read(stored.data(), static_cast<std::streamsize>(key_len));
  in.read(reinterpret_cast<char*>(&bin_len), sizeof bin_len);
  if (!in || stored != key || bin_len == 0 || bin_len > (std::uint64_t{1} << 30))
    return std::nullopt;
  std::vector<unsigned char> bin(bin_len);
  in.read(reinterpret_cast<char*>(bin.data()), static_cast<std::streamsize>(bin_len));
  if (!in) return std::nullopt;
  return bin;
}

void store_binary(const std::string& key, const std::vector<unsigned char>& binary) {
  const std::string dir = binary_cache_dir();
  if (dir.empty() || binary.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto path = entry_path(dir, key);
  // A name of its own per writer (contexts in several threads may store the same entry at once);
  // rename() then replaces the entry atomically.
  static std::atomic<std::uint64_t> writes{0};
  const auto tmp =
      path.string() + fmt::format(".{}.{}.tmp", static_cast<long>(::getpid()), writes.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;
    const std::uint64_t key_len = key.size(), bin_len = binary.size();
    out.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
    out.write(reinterpret_cast<const char*>(&key_len), sizeof key_len);
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    out.write(reinterpret_cast<const char*>(&bin_len), sizeof bin_len);
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(bin_len));
    if (!out) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

}  // namespace rdx::detail

namespace rdx {

std::string program_cache_dir() {
  return detail::binary_cache_dir();
}

std::uint64_t clear_program_cache() {
  const std::string dir = detail::binary_cache_dir();
  std::uint64_t removed = 0;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return 0;
  for (auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const auto name = e.path().filename().string();
    if (name.ends_with(".bin") || name.ends_with(".tmp"))
      if (std::filesystem::remove(e.path(), ec)) ++removed;
  }
  return removed;
}

}  // namespace rdx
