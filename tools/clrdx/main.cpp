// clrdx: list devices and strategies, reduce a file or generated data, verify every strategy
// against the host reference, benchmark strategies and devices side by side.
// Exit codes: 0 success, 1 OpenCL or run-time failure, 2 usage or bad input.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <system_error>

#include "app.hpp"
#include "commands.hpp"
#include "failure.hpp"
#include "rdx/rdx.hpp"

namespace {

// A closed standard descriptor would be taken by the next file opened (a kernel cache entry, the
// tuning file), and the output meant for it would land in that file. Each closed one is held by
// /dev/null opened read-only, so writes to it fail (EBADF) as they would have.
void hold_closed_standard_descriptors() {
  for (int fd = 0; fd <= 2; ++fd)
    if (::fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      const int held = ::open("/dev/null", O_RDONLY);
      if (held >= 0 && held != fd) {
        ::dup2(held, fd);
        ::close(held);
      }
    }
}

// The reason of the first write to standard output that failed (0: none did). Set when it fails,
// since later calls may change errno and C's stdio keeps only an error flag.
int stdout_write_error = 0;

void note_stdout_error() {
  if (!stdout_write_error) stdout_write_error = errno ? errno : EIO;
}

// std::cout's buffer while clrdx runs: writes through C's stdout like the standard one (so its
// output stays in order with fmt::print's), and notes the reason of a failed write.
class CheckedStdoutBuf : public std::streambuf {
 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    errno = 0;
    if (std::fputc(c, stdout) != EOF) return c;
    note_stdout_error();
    return traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    errno = 0;
    const std::size_t written = std::fwrite(s, 1, static_cast<std::size_t>(n), stdout);
    if (written < static_cast<std::size_t>(n)) note_stdout_error();
    return static_cast<std::streamsize>(written);
  }
  int sync() override {
    errno = 0;
    if (std::fflush(stdout) == 0) return 0;
    note_stdout_error();
    return -1;
  }
};

// Puts CheckedStdoutBuf under std::cout for its lifetime.
class CheckedStdout {
 public:
  CheckedStdout() : previous_(std::cout.rdbuf(&buf_)) {}
  ~CheckedStdout() { std::cout.rdbuf(previous_); }
  CheckedStdout(const CheckedStdout&) = delete;
  CheckedStdout& operator=(const CheckedStdout&) = delete;

 private:
  CheckedStdoutBuf buf_;
  std::streambuf* previous_;
};

// Flushes what is left of standard output and checks that all of it was written (a full disk,
// /dev/full, a closed descriptor): the exit code of the command, or, when its output was lost,
// 1 (unless the command failed otherwise) and one line saying why.
int finish_stdout(int code) {
  std::cout.flush();
  errno = 0;
  if (std::fflush(stdout) != 0) note_stdout_error();
  if (std::ferror(stdout) || !std::cout.good()) note_stdout_error();
  if (!stdout_write_error) return code;
  std::cerr << "clrdx: cannot write to standard output: " << std::strerror(stdout_write_error)
            << "\n";
  return code == 0 ? 1 : code;
}

int run(int argc, char** argv) {
  try {
    clrdx::App app;
    const clrdx::ParseResult parsed = app.parse(argc, argv);
    switch (parsed.kind) {
      case clrdx::ParseResult::Kind::Info:  // --help, --version
        std::cout << parsed.text;
        return 0;
      case clrdx::ParseResult::Kind::Error:
        std::cerr << "clrdx: " << parsed.text << " (see clrdx --help)\n";
        return 2;
      case clrdx::ParseResult::Kind::Run:
        break;
    }
    app.validate(*parsed.command);  // bad values are refused before any OpenCL work
    return parsed.command->run(app);
  } catch (const std::system_error& e) {
    // rdx::detail::print (core/format.hpp), as fmt::print, throws this when standard output fails
    // while the command prints; main reports it (finish_stdout).
    if (!std::ferror(stdout)) {
      std::cerr << "clrdx: " << e.what() << "\n";
    } else if (!stdout_write_error) {
      errno = e.code().value();
      note_stdout_error();
    }
    return 1;
  } catch (...) {
    const clrdx::Failure f = clrdx::failure_of(std::current_exception());
    std::cerr << "clrdx: " << f.line << "\n";
    return f.code;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that closes the pipe early (clrdx ... | head -1) ends clrdx quietly by SIGPIPE, as
  // it ends most Unix tools, whatever disposition clrdx inherited (docs/cli.md, Exit codes).
  // Every other failed write to standard output is exit 1 with a message (finish_stdout).
  std::signal(SIGPIPE, SIG_DFL);
  hold_closed_standard_descriptors();
  const CheckedStdout checked;
  return finish_stdout(run(argc, argv));
}
