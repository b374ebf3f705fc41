// Internal: the start line of a device group's parts (api/multi.cpp). Each part runs on a thread of
// its own; before the first blocking wait for a result, a part's thread waits until every part
// has enqueued its work (or ended). On two H200s, host data of 2^30 f32 split over both went from
// a median 1.57x one device to 1.78x with it (docs/multidevice.md): a thread waiting for one
// device no longer runs beside another thread's copy to the other.
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
  // For `parts` parts whose threads never started (a failed launch): arrives in their place.
  void abandon(std::ptrdiff_t parts) { latch_.count_down(parts); }

 private:
  std::latch latch_;
};

}  // namespace rdx::detail
