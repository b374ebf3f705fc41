// Progress of a long streaming reduction on stderr: nothing for short inputs; for a large input
// (or one whose reading runs for more than a couple of seconds) a line about once a second, with
// bytes done, the total, the percentage and the rate, and a last line when it is done. Only the
// reading counts: an input read in full before a line was due prints nothing, however long the
// kernel build or the reduction after it takes.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace clrdx {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  // Inputs of at least this many bytes report from the start.
  static constexpr std::uint64_t kLargeBytes = std::uint64_t{1} << 30;
  // Smaller ones (and those of unknown size) once their reading has run this long.
  static constexpr double kSlowSeconds = 2.0;

  // total: the input's bytes, 0 when unknown (a pipe). Reading starts now.
  explicit Progress(std::uint64_t total, std::FILE* out = stderr);
  // `done` bytes are through; read_end: when the reader reached the end of the input, if it has.
  // Prints a line when one is due.
  void update(std::uint64_t done, std::optional<Clock::time_point> read_end);
  // Prints the last line, when the input is large or its reading took kSlowSeconds or more.
  void finish(std::uint64_t done, std::optional<Clock::time_point> read_end);

 private:
  double elapsed() const;
  // Seconds of reading: up to read_end when the reader is done, else up to now.
  double reading(std::optional<Clock::time_point> read_end) const;
  void print(std::uint64_t done, bool last);

  std::uint64_t total_;
  std::FILE* out_;
  Clock::time_point start_;
  double last_ = 0;  // elapsed seconds at the last line
  bool active_;
};

}  // namespace clrdx
