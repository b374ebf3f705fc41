// Progress of a long streaming reduction on stderr: nothing for short inputs; for a large input
// (or one running for more than a couple of seconds) a line about once a second, with bytes
// done, the total, the percentage and the rate, and a last line when it is done.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace clrdx {

class Progress {
 public:
  // Inputs of at least this many bytes report from the start.
  static constexpr std::uint64_t kLargeBytes = std::uint64_t{1} << 30;
  // Smaller ones (and those of unknown size) once they have run this long.
  static constexpr double kSlowSeconds = 2.0;

  // total: the input's bytes, 0 when unknown (a pipe).
  explicit Progress(std::uint64_t total, std::FILE* out = stderr);
  // `done` bytes are through; prints a line when one is due.
  void update(std::uint64_t done);
  // Prints the last line, when any line was due at all.
  void finish(std::uint64_t done);

 private:
  using Clock = std::chrono::steady_clock;
  double elapsed() const;
  void print(std::uint64_t done, bool last);

  std::uint64_t total_;
  std::FILE* out_;
  Clock::time_point start_;
  double last_ = 0;  // elapsed seconds at the last line
  bool active_;
};

}  // namespace clrdx
