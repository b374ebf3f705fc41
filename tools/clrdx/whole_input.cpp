// Whole inputs for the reductions that take them at once (see whole_input.hpp).
#include "whole_input.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/format.hpp"
#include "core/text.hpp"

#include <cerrno>
#include <cstring>

#include "rdx/errors.hpp"

namespace clrdx {
namespace {

// A mapped file that another process truncates makes reading past its new end raise SIGBUS:
// one clear line and exit 1 instead of a crash.
void on_sigbus(int) {
  static const char kMessage[] =
      "clrdx: reading a mapped input file failed (it became shorter, or an I/O error)\n";
  [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(1);
}

}  // namespace

// A regular file's data mapped read-only (the page cache holds it, so an input larger than
// memory works); unmapped by the destructor.
class Mapping {
 public:
  Mapping(const InputFile& f, std::uint64_t data_bytes) {
    // The data starts where the file's read position is, less what the format check read.
    const off_t pos = ::lseek(f.fd, 0, SEEK_CUR);
    if (pos < 0)
      throw rdx::Error(rdx::detail::format("cannot read {}: {}", rdx::detail::printable(f.path),
                                           std::strerror(errno)));
    if (static_cast<std::uint64_t>(pos) < f.head.size())
      throw rdx::Error(rdx::detail::format("cannot read {}: its position is before its data",
                                           rdx::detail::printable(f.path)));
    const std::uint64_t offset = static_cast<std::uint64_t>(pos) - f.head.size();
    size_ = offset + data_bytes;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (p == MAP_FAILED)
      throw rdx::Error(rdx::detail::format("cannot map {}: {}", rdx::detail::printable(f.path),
                                           std::strerror(errno)));
    base_ = static_cast<unsigned char*>(p);
    struct sigaction sa {};
    sa.sa_handler = on_sigbus;
    ::sigaction(SIGBUS, &sa, nullptr);
    ::madvise(base_, size_, MADV_SEQUENTIAL);
    data_ = base_ + offset;
  }
  ~Mapping() { ::munmap(base_, size_); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  const unsigned char* data() const { return data_; }

 private:
  unsigned char* base_ = nullptr;
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

const unsigned char* Loaded::data() const {
  return mapped ? mapped->data() : owned.data();
}

Loaded load_file(const std::string& path, std::optional<rdx::Type> type, bool raw_default) {
  InputFile f = open_input(path, type, raw_default);
  Loaded l(f.type);
  struct stat st {};
  if (f.data_bytes && *f.data_bytes > 0 && ::fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode)) {
    f.check_data_size(*f.data_bytes);
    l.bytes = *f.data_bytes;
    try {
      l.mapped = std::make_shared<Mapping>(f, l.bytes);
      l.shape = f.npy ? f.npy_shape : std::vector<std::uint64_t>{l.count()};
      return l;
    } catch (const rdx::Error&) {  // a file system without mmap: read it as a pipe is read
      l.bytes = 0;
    }
  }
  l.owned.assign(f.head.begin(), f.head.end());
  constexpr std::size_t kStep = std::size_t{16} << 20;
  for (;;) {
    const std::size_t at = l.owned.size();
    l.owned.resize(at + kStep);
    const std::size_t got = read_full(f.fd, l.owned.data() + at, kStep, path);
    l.owned.resize(at + got);
    if (got < kStep) break;
  }
  f.check_data_size(l.owned.size());
  l.bytes = l.owned.size();
  l.shape = f.npy ? f.npy_shape : std::vector<std::uint64_t>{l.count()};
  return l;
}

}  // namespace clrdx
