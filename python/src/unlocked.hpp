// The GIL released while librdx works, and the interpreter's exit with daemon threads inside such
// work. Python stops a daemon thread that wants the GIL back after finalization has begun with
// pthread_exit, whose unwinding through a C++ frame that may not throw (a destructor, nanobind's
// dispatch) ends the process in std::terminate. So at exit (rdx/_devices.py, atexit, only where
// daemon threads are alive) begin_exit() is called, the main thread waits until no call is in
// librdx, and from then on a thread other than the main one that enters or leaves librdx's work
// is parked, never returning, instead of taking the GIL.
#pragma once
#include <Python.h>

#include <cstdint>

namespace rdxpy {

// The GIL released for the object's lifetime (under the GIL when made).
class Unlocked {
 public:
  Unlocked();
  ~Unlocked();
  Unlocked(const Unlocked&) = delete;
  Unlocked& operator=(const Unlocked&) = delete;

 private:
  PyThreadState* state_ = nullptr;
};

void begin_exit();               // under the GIL, by the thread that finalizes
std::int64_t calls_in_librdx();  // calls inside an Unlocked region, not parked

}  // namespace rdxpy
