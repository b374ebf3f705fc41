#include "progress.hpp"

#include "core/format.hpp"

namespace clrdx {
namespace {

std::string bytes_text(double b) {
  if (b < 1024) return rdx::detail::format("{:.0f} B", b);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  for (b /= 1024; b >= 1024 && u < 3; ++u)
    b /= 1024;
  return rdx::detail::format("{:.2f} {}", b, units[u]);
}

}  // namespace

Progress::Progress(std::uint64_t total, std::FILE* out)
    : total_(total), out_(out), start_(Clock::now()), active_(total >= kLargeBytes) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

double Progress::reading(std::optional<Clock::time_point> read_end) const {
  return read_end ? std::chrono::duration<double>(*read_end - start_).count() : elapsed();
}

void Progress::update(std::uint64_t done, std::optional<Clock::time_point> read_end) {
  if (!active_ && reading(read_end) >= kSlowSeconds) active_ = true;
  // All through: the last line follows once the reduction finishes.
  if (active_ && elapsed() - last_ >= 1.0 && !(total_ && done >= total_)) print(done, false);
}

void Progress::finish(std::uint64_t done, std::optional<Clock::time_point> read_end) {
  // Time spent after the last byte was read (a kernel build, the last reduction) never makes a
  // small input report.
  if (active_ || reading(read_end) >= kSlowSeconds) print(done, true);
}

void Progress::print(std::uint64_t done, bool last) {
  const double t = elapsed();
  last_ = t;
  const double rate = t > 0 ? static_cast<double>(done) / t : 0.0;
  std::string line = rdx::detail::format("clrdx: {} {}", last ? "reduced" : "reducing",
                                         bytes_text(static_cast<double>(done)));
  if (total_)
    line += rdx::detail::format(" of {} ({:.0f}%)", bytes_text(static_cast<double>(total_)),
                                100.0 * static_cast<double>(done) / static_cast<double>(total_));
  line += rdx::detail::format(", {}/s", bytes_text(rate));
  if (last) line += rdx::detail::format(", in {:.1f} s", t);
  rdx::detail::print(out_, "{}\n", line);
  std::fflush(out_);
}

}  // namespace clrdx
