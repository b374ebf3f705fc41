// Reads an opened input in blocks on a thread of its own, at most a fixed number of blocks ahead
// of the consumer, so memory stays bounded whatever the file's size and reading overlaps the
// consumer's work.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "input.hpp"

namespace clrdx {

class BlockReader {
 public:
  // block_bytes: a multiple of 8, so that every block but the last holds whole elements.
  BlockReader(InputFile file, std::size_t block_bytes, std::size_t blocks);
  // Stops the reader thread (it may be blocked in a read of one block) and joins it.
  ~BlockReader();
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;

  // The next block of data, in file order, valid until the following call; empty at the end of
  // the data. Throws what went wrong while reading (a read error, a file whose data turns out
  // not to be what its header or size promised) once the blocks before it have been taken.
  std::span<const unsigned char> next();

  const InputFile& file() const { return file_; }

  // When the reader thread reached the end of the data (or failed); none while it is reading.
  std::optional<std::chrono::steady_clock::time_point> read_end();

 private:
  void run();
  void read_all();

  InputFile file_;
  const std::size_t block_;
  std::vector<std::unique_ptr<unsigned char[]>> buffers_;  // allocated when first filled
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> free_;                            // buffers the reader may fill
  std::deque<std::pair<std::size_t, std::size_t>> filled_;  // (buffer, bytes) in file order
  bool done_ = false, stop_ = false;
  std::chrono::steady_clock::time_point end_time_;  // set with done_
  std::exception_ptr error_;                        // after the filled blocks
  std::size_t held_ = SIZE_MAX;                     // the buffer next() last returned
  std::thread thread_;
};

}  // namespace clrdx
