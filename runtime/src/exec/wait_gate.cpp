#include "exec/wait_gate.hpp"

namespace rdx::detail {
namespace {

thread_local WaitGate* current = nullptr;

}  // namespace

void WaitGate::enter(WaitGate* gate) {
  current = gate;
}

void WaitGate::before_wait() {
  if (WaitGate* g = current) {
    current = nullptr;
    g->latch_.arrive_and_wait();
  }
}

void WaitGate::leave() {
  if (WaitGate* g = current) {
    current = nullptr;
    g->latch_.count_down();
  }
}

}  // namespace rdx::detail
