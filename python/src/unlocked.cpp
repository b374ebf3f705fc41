// Unlocked and the exit with daemon threads (unlocked.hpp).
#include "unlocked.hpp"

#include <atomic>
#include <chrono>
#include <thread>

namespace rdxpy {
namespace {

std::atomic<bool> exiting{false};
std::atomic<std::int64_t> in_librdx{0};
std::thread::id finalizing_thread;  // written before `exiting` is set, read after

bool parks() {
  return exiting.load() && std::this_thread::get_id() != finalizing_thread;
}

// A daemon thread at exit: it waits, without the GIL, until the process ends.
[[noreturn]] void park() {
  for (;;)
    std::this_thread::sleep_for(std::chrono::hours(1));
}

}  // namespace

Unlocked::Unlocked() {
  if (parks()) {
    PyEval_SaveThread();
    park();
  }
  in_librdx.fetch_add(1);
  state_ = PyEval_SaveThread();
}

Unlocked::~Unlocked() {
  if (parks()) {
    in_librdx.fetch_sub(1);
    park();
  }
  // Exit has not begun, or it waits for this call: the GIL is taken back before the finalizing
  // thread goes on.
  PyEval_RestoreThread(state_);
  in_librdx.fetch_sub(1);
}

void begin_exit() {
  finalizing_thread = std::this_thread::get_id();
  exiting.store(true);
}

std::int64_t calls_in_librdx() {
  return in_librdx.load();
}

}  // namespace rdxpy
