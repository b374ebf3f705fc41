// Internal: the start line of a device group's parts (api/multi.cpp). Each part runs on a thread of
// its own; before the first blocking wait for a result, a part's thread waits until every part
// has enqueued its work (or ended).
#pragma once
#include <cstddef>
#include <latch>

namespace rdx::detail {

class WaitGate {
 public:
  explicit WaitGate(std::ptrdiff_t parts) : latch_(parts) {}
  WaitGate(const WaitGate&) = delete;
  WaitGate& operator=(const WaitGate&) = delete;

  // On a part's thread, before its work: this thread passes `gate` (null: none).
  static void enter(WaitGate* gate);
  // Before a blocking wait for the device (Exec's reads): on the first call since enter(),
  // arrives and waits for every part; otherwise nothing.
  static void before_wait();
  // At a part's end, however it ends: arrives if this thread has not.
  static void leave();

 private:
  std::latch latch_;
};

}  // namespace rdx::detail
