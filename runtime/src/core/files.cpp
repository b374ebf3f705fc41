#include "core/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/format.hpp"
#include "core/text.hpp"

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

// What a node that is not a regular file is, for a refusal's message.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void refuse(const std::string& path, mode_t mode) {
  throw ArgumentError(detail::format(
      "cannot write {}: it is {}, which is never replaced; name a regular file or a new one",
      printable(path), kind_of(mode)));
}

}  // namespace

std::string link_target(const std::string& path) {
  std::string p = path;
  for (int hop = 0; hop < 40; ++hop) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    std::string to(4096, '\0');
    const ssize_t n = ::readlink(p.c_str(), to.data(), to.size());
    if (n < 0 || static_cast<std::size_t>(n) == to.size()) return p;
    to.resize(static_cast<std::size_t>(n));
    if (to.front() != '/') {
      const auto slash = p.rfind('/');
      if (slash != std::string::npos) to = p.substr(0, slash + 1) + to;
    }
    p = to;
  }
  throw ArgumentError(detail::format("cannot write {}: {}", printable(path), reason(ELOOP)));
}

namespace {

// For Existing::follow: the file to replace (links followed) and its mode (0644 when new).
// Throws ArgumentError for what is never replaced, Error for a path that cannot be looked at.
std::string follow(const std::string& path, mode_t& mode) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) refuse(path, st.st_mode);
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    throw ArgumentError(detail::format("cannot write {}: {}", printable(path), reason(errno)));
  }
  return link_target(path);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

void check_writable(const std::string& path) {
  mode_t mode = 0644;
  const std::string dir = folder_of(follow(path, mode));
  struct stat st {};
  int err = 0;
  if (::stat(dir.c_str(), &st) != 0)
    err = errno;
  else if (!S_ISDIR(st.st_mode))
    err = ENOTDIR;
  else if (::access(dir.c_str(), W_OK) != 0)
    err = errno;
  if (err) throw ArgumentError(detail::format("cannot write {}: {}", printable(path), reason(err)));
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

void write_file_atomically(const std::string& path, std::string_view bytes, Existing existing) {
  mode_t mode = 0644;
  std::string dest = path;
  if (existing == Existing::follow) {
    dest = follow(path, mode);
  } else if (struct stat st{}; ::lstat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw Error(detail::format("cannot write {}: {}", printable(path), reason(EISDIR)));
    if (S_ISREG(st.st_mode)) mode = st.st_mode & 07777;
  }
  // A name of its own per writer: several threads or processes may write the same file at once,
  // and rename() then replaces it atomically with one complete version.
  static std::atomic<unsigned long> writes{0};
  const std::string tmp =
      detail::format("{}.{}.{}.tmp", dest, static_cast<long>(::getpid()), writes.fetch_add(1));
  Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)};
  if (f.fd < 0) throw Error(detail::format("cannot write {}: {}", printable(path), reason(errno)));
  auto fail = [&](int err) {
    if (f.fd >= 0) ::close(f.fd);
    f.fd = -1;
    ::unlink(tmp.c_str());
    throw Error(detail::format("cannot write {}: {}", printable(path), reason(err)));
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
  if (::rename(tmp.c_str(), dest.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw Error(detail::format("cannot replace {}: {}", printable(path), reason(err)));
  }
}

std::optional<std::string> read_regular_file(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (f.fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw Error(detail::format("cannot read {}: {}", printable(path), reason(errno)));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    throw Error(detail::format("cannot read {}: {}", printable(path), reason(errno)));
  if (!S_ISREG(st.st_mode))
    throw Error(detail::format("cannot read {}: not a regular file", printable(path)));
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    const ssize_t r = ::read(f.fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw Error(detail::format("cannot read {}: {}", printable(path), reason(errno)));
    }
    if (r == 0) break;
    out.append(buf, static_cast<std::size_t>(r));
  }
  return out;
}

}  // namespace rdx::detail
