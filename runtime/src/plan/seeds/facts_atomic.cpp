// The facts of atomic_global and atomic_local (seed 001 steps 1 and 2): which atomic each device
// gets (plan/strategy_shapes.hpp's atomic_native, which the launcher strategies/seeds/atomic.cpp
// builds its kernels with), their depth and their forms.
#include "core/format.hpp"

#include <string>

#include "plan/strategy_facts.hpp"
#include "plan/strategy_shapes.hpp"

namespace rdx::detail {
namespace {

// What takes a compare-exchange loop on `dev` (atomic_native's false cases).
std::string loop_cases(const DeviceInfo& dev) {
  return std::string("products") + (has_ptx_float_add(dev) ? "" : ", float sums") +
         (has_int64_extended(dev) ? "" : ", 64-bit min/max/and/or/xor");
}

std::string native_cases(const DeviceInfo& dev) {
  return std::string("integer sums, min/max (floats: atomic_min/max of ordered bits)") +
         (has_int64_extended(dev) ? "" : " up to 32 bits") + ", bitwise ops" +
         (has_ptx_float_add(dev) ? ", float sums (PTX atom.global.add)" : "");
}

// Atomics combine in an arbitrary order: a chain through every element, plus the identity the
// accumulator starts from and, for atomic_local, the step from group to global accumulator.
std::uint64_t atomic_depth(const Plan& p, const DeviceInfo&) {
  return p.n + 2;
}

// 64-bit accumulators need 64-bit atomics; 8- to 32-bit ones live in a 32-bit word.
std::string atomic_unsupported(const DeviceInfo& dev, Type, Type acc, Op) {
  if (size_of(acc) == 8 && !dev.int64_atomics)
    return "a 64-bit accumulator needs cl_khr_int64_base_atomics";
  return {};
}

// A user's state is one atomic word, combined with a compare-exchange loop.
std::string atomic_user_unsupported(const DeviceInfo& dev, std::size_t state_bytes) {
  if (state_bytes != 4 && state_bytes != 8)
    return detail::format(
        "its state is one atomic word of 4 or 8 bytes, and this reduction's state has {}",
        state_bytes);
  if (state_bytes == 8 && !dev.int64_atomics)
    return "a state of 8 bytes needs cl_khr_int64_base_atomics";
  return {};
}

std::string atomic_global_form(const DeviceInfo& dev) {
  return detail::format(
      "one atomic per element: {}; {}: a compare-exchange loop once per work-item of a grid of "
      "{} x CUs, after a grid-stride run",
      native_cases(dev), loop_cases(dev), kCasItemsPerCu);
}

std::string atomic_local_form(const DeviceInfo& dev) {
  return detail::format(
      "one global atomic per group: {}; {}: a compare-exchange loop (in local memory too, "
      "for products and float sums)",
      native_cases(dev), loop_cases(dev));
}

}  // namespace

StrategyFacts facts_atomic_global() {
  return {
      101,
      {"atomic_global", "seeds/atomic_global.cl", "001 (A Study in Reduction) step 1: AtomicGlobal",
       "every work-item combines its element into one global accumulator with an atomic"},
      atomic_depth,
      atomic_unsupported,
      atomic_global_form,
      1,
      {},
      nullptr,
      atomic_user_unsupported};
}

StrategyFacts facts_atomic_local() {
  return {
      102,
      {"atomic_local", "seeds/atomic_local.cl", "001 (A Study in Reduction) step 2: AtomicShared",
       "atomics into one local accumulator per work-group, then one global atomic per group"},
      atomic_depth,
      atomic_unsupported,
      atomic_local_form,
      1,
      {},
      nullptr,
      atomic_user_unsupported};
}

}  // namespace rdx::detail
