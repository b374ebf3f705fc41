// Launcher of cl/atomic_global.cl and cl/atomic_local.cl (seed 001 steps 1 and 2), and which
// atomic each device gets: one hardware atomic per combine where the device has one, else a
// compare-exchange loop whose contention is bounded (cl/atomic_ops.h). argmin/argmax run in two
// passes (the extreme value, then its first index).
#include "core/format.hpp"

#include <algorithm>
#include <string>

#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "strategies/registry.hpp"

namespace rdx::detail {

namespace {

// NVIDIA's OpenCL compiles inline PTX: atom.global.add.f32/.f64 are CUDA's atomicAdd.
bool has_ptx_float_add(const DeviceInfo& dev) {
  return dev.compiles_ptx();
}

bool has_int64_extended(const DeviceInfo& dev) {
  return dev.has_extension("cl_khr_int64_extended_atomics");
}

// Work-items of the bounded grid per compute unit when the combine is a compare-exchange loop.
constexpr std::uint64_t kCasItemsPerCu = 32;

// Whether combining an `acc` value with `op` (argmin/argmax: their value pass) into a global word
// takes one hardware atomic on `dev`: the operator row's atomic (operators.hpp, which the
// definitions name as ATOMIC_FORM_*), where the device has it; the same cases as
// cl/atomic_ops.h's GLOBAL_NATIVE_COMBINE, and a kernel built with COMBINE_NATIVE where it has
// none fails to compile.
bool atomic_native(const DeviceInfo& dev, Type acc, Op op) {
  const Atomic form = atomic_of(op, acc);
  switch (form) {
    case Atomic::None:
      return false;
    case Atomic::Add:  // 32- and 64-bit integer adds are base atomics; floats: PTX
      return !is_float(acc) || has_ptx_float_add(dev);
    case Atomic::Min:  // floats: atomic_min/atomic_max of the order-preserving key
    case Atomic::Max:
    case Atomic::And:
    case Atomic::Or:
    case Atomic::Xor:
      return size_of(acc) != 8 || has_int64_extended(dev);
  }
  throw ArgumentError(detail::format("atomic form {}", static_cast<int>(form)));  // not an Atomic
}

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

}  // namespace

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

namespace {

// The launches of either file; kernels are named <prefix>_init, _values, _indices, _finish.
// `bounded_loop`: where the combine is a compare-exchange loop, _values runs over the bounded grid
// (each work-item a grid-stride run, then one loop) instead of one work-item per element.
Outcome run_atomic(Exec& ex, const cl::Buffer& in, std::uint64_t n, const std::string& file,
                   const std::string& prefix, bool bounded_loop) {
  const Plan& p = ex.plan;
  const DeviceInfo& dev = ex.ctx.info;
  const bool indexed = !ex.user && is_index_op(p.op);
  // Indices up to 2^32 - 2 fit a 32-bit word (all ones: no index yet); larger ones need 64 bits.
  const bool idx64 = indexed && n > 0xFFFFFFFFull;
  if (idx64 && !dev.int64_atomics)
    throw UnsupportedError(detail::format(
        "{}: argmin/argmax over 2^32 or more elements needs cl_khr_int64_base_atomics",
        p.strategy));
  // A user's state: a compare-exchange loop (cl/atomic_ops.h).
  const bool native = !ex.user && atomic_native(dev, p.acc, p.op);
  const std::string extra =
      detail::format("-DCOMBINE_NATIVE={}{}{}{}", native ? 1 : 0, idx64 ? " -DIDX64" : "",
                     has_int64_extended(dev) ? " -DRDX_INT64_EXT" : "",
                     has_ptx_float_add(dev) ? " -DRDX_PTX_FLOAT_ADD" : "");
  const cl::Buffer acc = ex.buffer(8), best = ex.buffer(8);  // the accumulator and index words
  const States out = ex.states(1);

  Kernel init = ex.kernel(file, (prefix + "_init").c_str(), extra);
  ex.args(init, acc, best);
  ex.launch(init, 1, 1);
  Kernel values = ex.kernel(file, (prefix + "_values").c_str(), extra);
  ex.args(values, in, n, acc);
  const std::uint64_t items =
      native || !bounded_loop
          ? n
          : std::min<std::uint64_t>(n,
                                    kCasItemsPerCu * std::max<std::uint32_t>(dev.compute_units, 1));
  ex.launch(values, items, values.wg);
  if (indexed) {
    Kernel indices = ex.kernel(file, (prefix + "_indices").c_str(), extra);
    ex.args(indices, in, n, acc, best);
    ex.launch(indices, n, indices.wg);
  }
  Kernel finish = ex.kernel(file, (prefix + "_finish").c_str(), extra);
  ex.args(finish, in, acc, best, out.values, out.indices);
  ex.launch(finish, 1, 1);
  return ex.read(out);
}

}  // namespace

Outcome run_atomic_global(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  return run_atomic(ex, in, n, "atomic_global.cl", "ag", true);
}

Outcome run_atomic_local(Exec& ex, const cl::Buffer& in, std::uint64_t n) {
  // Its loop already runs once per group in global memory.
  return run_atomic(ex, in, n, "atomic_local.cl", "al", false);
}

StrategyDef strategy_atomic_global() {
  return {{101,
           {"atomic_global", "atomic_global.cl", "001 (A Study in Reduction) step 1: AtomicGlobal",
            "every work-item combines its element into one global accumulator with an atomic"},
           atomic_depth,
           atomic_unsupported,
           atomic_global_form,
           1,
           {},
           nullptr,
           atomic_user_unsupported},
          run_atomic_global};
}

StrategyDef strategy_atomic_local() {
  return {{102,
           {"atomic_local", "atomic_local.cl", "001 (A Study in Reduction) step 2: AtomicShared",
            "atomics into one local accumulator per work-group, then one global atomic per group"},
           atomic_depth,
           atomic_unsupported,
           atomic_local_form,
           1,
           {},
           nullptr,
           atomic_user_unsupported},
          run_atomic_local};
}

}  // namespace rdx::detail
