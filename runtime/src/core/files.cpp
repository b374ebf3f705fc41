#include "core/files.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "rdx/errors.hpp"

namespace rdx::detail {
namespace {

std::string reason(int err) {
  return std::strerror(err);
}

// Closes fd on every path out of a scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  // close() once, reporting its error (a deferred write error shows up here on some systems).
  int close_checked() {
    const int r = ::close(fd);
    fd = -1;
    return r;
  }
};

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  // A name of its own per writer: several threads or processes may write the same file at once,
  // and rename() then replaces it atomically with one complete version.
  static std::atomic<unsigned long> writes{0};
  const std::string tmp =
      fmt::format("{}.{}.{}.tmp", path, static_cast<long>(::getpid()), writes.fetch_add(1));
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) mode = st.st_mode & 07777;
  Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)};
  if (f.fd < 0) throw Error(fmt::format("cannot write {}: {}", path, reason(errno)));
  auto fail = [&](int err) {
    if (f.fd >= 0) ::close(f.fd);
    f.fd = -1;
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot write {}: {}", path, reason(err)));
  };
  if (mode != 0644 && ::fchmod(f.fd, mode) != 0) fail(errno);
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t w = ::write(f.fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    if (w == 0) fail(EIO);
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::fsync(f.fd) != 0 && errno != EINVAL && errno != EROFS) fail(errno);
  if (f.close_checked() != 0) fail(errno);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw Error(fmt::format("cannot replace {}: {}", path, reason(err)));
  }
}

std::optional<std::string> read_regular_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw Error(fmt::format("cannot read {}: {}", path, reason(errno)));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) throw Error(fmt::format("cannot read {}: {}", path, reason(errno)));
  if (!S_ISREG(st.st_mode)) throw Error(fmt::format("cannot read {}: not a regular file", path));
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t r = ::read(f.fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw Error(fmt::format("cannot read {}: {}", path, reason(errno)));
    }
    if (r == 0) break;
    out.append(buf, static_cast<std::size_t>(r));
  }
  return out;
}

}  // namespace rdx::detail
