// Internal: the fixed-bin reproducible sum of Determinism AnyDevice (cl/binned_sum.cl computes it
// on the device): ReproBLAS's binned accumulator of fold 3 (Ahrens, Demmel and Nguyen,
// "Algorithms for Efficient Reproducible Floating Point Summation", ACM TOMS 2020), as CCCL's
// deterministic reduce and Barnes's C++ port (ReproducibleFloatingAccumulator) keep it.
//
// Bins k = 0 .. 18 (f32) or 50 (f64; ReproBLAS's go on to 20 and 51, below the normal range) split
// the exponent range into slices of W bits (f32: 13,
// f64: 40). A state keeps kBinnedFold consecutive bins from index I, the index of its largest
// element; bin i holds a primary p_i, a float in [2^e_i, 2^(e_i + 1)) around its base
// 1.5 * 2^e_i, and a carry c_i counting units of 2^(e_i - 2). An element x goes into the bins
// by rounding (x | 1) to each bin's grid in turn, the rest to the next bin: the rounding is
// fixed by x and the grid alone, so the bins hold the same value in any order, grid and split,
// and merging two states aligns them to the smaller index, dropping bins that fall off. After a
// renorm (the primaries back into [1.5, 1.75) * 2^e_i, the difference into the carries) the
// state is unique for its value: binned_exact turns it into exact digits, which round_exact
// rounds once (on the device: exact_round, the same bits).
//
// Pure: no OpenCL. The primaries of an f32 state are floats held in doubles (exactly).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "ops/exact_sum.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"

namespace rdx::detail {

// Whether a plan keeps fixed bins (a float sum under Determinism AnyDevice).
inline bool is_binned(const Plan& p) {
  return p.state == StateForm::Bins;
}

inline constexpr int kBinnedFold = 3;

struct BinnedSum {
  Type bin = Type::F32;                         // F32 or F64: the bins' type
  std::array<double, kBinnedFold> pri{};        // all 0: no element yet
  std::array<std::int64_t, kBinnedFold> car{};  // in units of 2^(e_i - 2)
  std::uint32_t flags = 0;                      // kExactNaN ... kExactNotNegZero
};

// The bins' type for a sum into `acc` (F32 or F64): the accumulator's own.
Type binned_bin_type(Type acc);

// An empty state of `bin` bins.
BinnedSum binned_zero(Type bin);

// y += x, states of one bin type (the merge of ReproBLAS's dbdbadd, then a renorm).
void add_binned(BinnedSum& y, const BinnedSum& x);

// One element into the state (update, deposit, renorm): the sequential reference the tests
// compare the device with. x is a value of the bin type (an f32 state takes floats only).
void deposit_binned(BinnedSum& s, double x);

// The state's value as exact digits of exact_layout(s.bin), with its flags.
ExactSum binned_exact(const BinnedSum& s);

// Whether s is a state deposits and merges of at most `count` elements can make: its index
// and primaries consistent, renormed, its carries within the count (Partial::from_bytes).
bool binned_valid(const BinnedSum& s, std::uint64_t count);

// Plan::depth of a fixed-bin sum of n elements into `acc`: the n term of ReproBLAS's bound on its
// error, n * 2^(W * (1 - fold)) * max|x| (Ahrens, Demmel and Nguyen, 2020), as a multiple of
// epsilon(acc) * sum|x| >= epsilon * max|x|, doubled, plus 9 for the rounding (one, correctly
// rounded from the bins' exact value: ReproBLAS's 7 * epsilon * |sum| covers its own conversion).
std::uint64_t binned_depth(Type acc, std::uint64_t n);

// The grid of the lowest bin, 2^binned_lowest_bit(bin) (f32: 2^-118, f64: 2^-1015): bits of
// elements below it are rounded away, so the bound above has an absolute part too, at most
// n * 2^binned_lowest_bit, which only elements near the subnormal range reach.
int binned_lowest_bit(Type bin);

// The build options of cl/binned_sum.cl: exact_cl_options(bin, round_into) (the digits of
// binned_round_out, and the bin type's layout) and BIN_W, the bins' width.
std::string binned_cl_options(Type bin, std::optional<Type> round_into);

// The state's words as a Partial keeps them: the primaries' bits (zero-extended), then the
// carries; and back.
std::array<std::int64_t, 2 * kBinnedFold> binned_words(const BinnedSum& s);
BinnedSum binned_of_words(Type bin, const std::int64_t* words, std::uint32_t flags);

}  // namespace rdx::detail
