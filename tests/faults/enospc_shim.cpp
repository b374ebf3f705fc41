/* Test-only: makes a file system look full. Preloaded (LD_PRELOAD) into clrdx, it fails the calls
 * on a file descriptor whose path (the target of /proc/self/fd/N) contains $RDX_ENOSPC_MATCH with
 * ENOSPC, as a full disk does: write, writev, pwrite ("write"), fsync, fdatasync ("fsync") and
 * close ("close", after really closing it, as a file system that reports a deferred write error
 * there, e.g. NFS). $RDX_ENOSPC_ON names the kinds that fail (a comma list; default: all three).
 * Other descriptors, and every call while $RDX_ENOSPC_MATCH is unset or empty, go to the C
 * library. A real full disk needs root (a small mounted image) on a shared machine, so this is how
 * the tests reach the write-error paths. Calls made inside the C library (stdio's own writes) are
 * not seen: standard output is tested against /dev/full instead. */
#include <dlfcn.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// Whether calls of this kind ("write", "fsync", "close") on fd are to fail.
bool full(const char* kind, int fd) {
  const char* match = std::getenv("RDX_ENOSPC_MATCH");
  if (!match || !*match) return false;
  const char* on = std::getenv("RDX_ENOSPC_ON");
  if (on && *on && !std::strstr(on, kind)) return false;
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char target[4096];
  const int saved = errno;
  const ssize_t n = ::readlink(link, target, sizeof target - 1);
  errno = saved;
  if (n <= 0) return false;
  target[n] = '\0';
  return std::strstr(target, match) != nullptr;
}

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

int no_space() {
  errno = ENOSPC;
  return -1;
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void* buf, size_t n) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t)>("write");
  if (full("write", fd)) return no_space();
  return real(fd, buf, n);
}

ssize_t writev(int fd, const struct iovec* iov, int count) {
  static const auto real = next<ssize_t (*)(int, const struct iovec*, int)>("writev");
  if (full("write", fd)) return no_space();
  return real(fd, iov, count);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t, off_t)>("pwrite");
  if (full("write", fd)) return no_space();
  return real(fd, buf, n, offset);
}

ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t offset) {
  static const auto real = next<ssize_t (*)(int, const void*, size_t, off64_t)>("pwrite64");
  if (full("write", fd)) return no_space();
  return real(fd, buf, n, offset);
}

int fsync(int fd) {
  static const auto real = next<int (*)(int)>("fsync");
  if (full("fsync", fd)) return no_space();
  return real(fd);
}

int fdatasync(int fd) {
  static const auto real = next<int (*)(int)>("fdatasync");
  if (full("fsync", fd)) return no_space();
  return real(fd);
}

int close(int fd) {
  static const auto real = next<int (*)(int)>("close");
  const bool fail = full("close", fd);  // before closing: the path is read from the descriptor
  const int r = real(fd);
  return r == 0 && fail ? no_space() : r;
}

}  // extern "C"
