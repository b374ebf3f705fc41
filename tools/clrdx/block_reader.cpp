#include "block_reader.hpp"

#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <cstring>

#include "rdx/errors.hpp"

namespace clrdx {

BlockReader::BlockReader(InputFile file, std::size_t block_bytes, std::size_t blocks)
    : file_(std::move(file)), block_(block_bytes), buffers_(std::max<std::size_t>(blocks, 2)) {
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    free_.push_back(i);
  thread_ = std::thread([this] { run(); });
}

BlockReader::~BlockReader() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

std::span<const unsigned char> BlockReader::next() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (held_ != SIZE_MAX) {
    free_.push_back(std::exchange(held_, SIZE_MAX));
    changed_.notify_all();
  }
  changed_.wait(lock, [&] { return !filled_.empty() || done_; });
  if (!filled_.empty()) {
    const auto [buffer, bytes] = filled_.front();
    filled_.pop_front();
    held_ = buffer;
    return {buffers_[buffer].get(), bytes};
  }
  if (error_) std::rethrow_exception(error_);
  return {};
}

std::optional<std::chrono::steady_clock::time_point> BlockReader::read_end() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!done_) return std::nullopt;
  return end_time_;
}

void BlockReader::run() {
  std::exception_ptr error;
  try {
    read_all();
  } catch (...) {
    error = std::current_exception();
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    done_ = true;
    end_time_ = std::chrono::steady_clock::now();
  }
  changed_.notify_all();
}

void BlockReader::read_all() {
  std::uint64_t total = 0;    // data bytes read so far
  std::size_t head_used = 0;  // bytes of file_.head handed out (read while opening the file)
  for (;;) {
    std::size_t buffer = 0;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || !free_.empty(); });
      if (stop_) return;
      buffer = free_.front();
      free_.pop_front();
    }
    // Not value-initialised: only the bytes read are ever touched (and count as resident).
    auto& buf = buffers_[buffer];
    if (!buf) buf = std::make_unique_for_overwrite<unsigned char[]>(block_);
    // A range of the data (InputFile::part) ends at its last byte, never read past.
    const std::size_t want =
        file_.part
            ? static_cast<std::size_t>(std::min<std::uint64_t>(block_, *file_.data_bytes - total))
            : block_;
    std::size_t n = std::min(want, file_.head.size() - head_used);
    std::memcpy(buf.get(), file_.head.data() + head_used, n);
    head_used += n;
    if (n < want) n += read_full(file_.fd, buf.get() + n, want - n, file_.path);
    total += n;
    const bool end = n < block_ || (file_.part && total == *file_.data_bytes);
    if (end) {
      // Checked again at the end: pipes are only checked here, and a file may change while read.
      file_.check_data_size(total);
      if (file_.data_bytes && total != *file_.data_bytes)
        throw rdx::ArgumentError(
            rdx::detail::format("{} changed while being read: {} bytes, then {}",
                                rdx::detail::printable(file_.path), *file_.data_bytes, total));
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (n)
        filled_.emplace_back(buffer, n);
      else
        free_.push_back(buffer);
    }
    changed_.notify_all();
    if (end) return;
  }
}

}  // namespace clrdx
