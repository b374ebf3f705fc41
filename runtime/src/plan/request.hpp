// The checks every plan makes of a request, whatever runs it: the operator against the type, the
// accumulator, fp64, and the work-group size. Pure.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "rdx/device_info.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

bool is_pow2(std::size_t x);
std::size_t floor_pow2(std::size_t x);

// The accumulator of a request (the element type, or `requested` when it widens); throws
// ArgumentError for an operator the type does not allow or an accumulator that does not hold the
// result, UnsupportedError for f64 on a device without fp64.
Type checked_acc(const DeviceInfo& dev, Type type, Op op, const std::optional<Type>& requested);

// `requested` (0: the default, 256 or the device's maximum when smaller) checked against the
// device (a power of two up to its maximum); ArgumentError otherwise.
std::size_t checked_work_group(const DeviceInfo& dev, std::size_t requested);

// Elements of `type` that fit the device's largest single allocation (1 GiB on PoCL here), a
// multiple of 4096: host inputs beyond it are reduced in passes.
std::uint64_t max_alloc_elements(const DeviceInfo& dev, Type type);

// n * size_of(type), or ArgumentError when that overflows 64 bits.
std::uint64_t byte_size(Type type, std::uint64_t n);

// Whether the request leaves the strategy to the plan (Options::strategy "auto" or empty).
bool auto_strategy(const Options& opts);

// What Options::determinism makes of an operator on `type` elements into `acc`: true for a
// float sum of float elements under AnyDevice or Exact (the exact accumulator, cl/exact_sum.cl);
// false where the level needs nothing more (RunToRun, and operators whose result does not depend
// on the order). UnsupportedError for float products and float sums of integer elements.
bool exact_form(Determinism d, Type type, Type acc, Op op);

}  // namespace rdx::detail
