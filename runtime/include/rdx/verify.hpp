// Checking librdx against the host: a sequential reference, the float error bound, data
// generators, and the one table of cases that both the test suite and `clrdx verify` run.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdx/context.hpp"
#include "rdx/plan.hpp"
#include "rdx/segmented.hpp"
#include "rdx/stats.hpp"
#include "rdx/types.hpp"

namespace rdx {

struct Result;

// Sequential host reduction, independent of the kernels: integers wrap in the accumulator; float
// sums are compensated (Neumaier) in long double, float products are taken in long double.
struct Reference {
  Scalar value;                        // in the accumulator type
  std::optional<std::uint64_t> index;  // argmin/argmax
  long double exact = 0;               // floats: the sum or product before rounding to acc
  long double abs_sum = 0;             // floats: sum of |x|, for the error bound
};
// acc: the accumulator; an f16 or bf16 acc stands for f32, their default accumulator.
Reference reference_reduce(Type type, Type acc, Op op, const void* data, std::uint64_t n);

// Integers, min, max, argmin, argmax, and, or, xor: exact. Float sums: |got - exact| <=
// (depth + 1) * epsilon(acc) * sum|x| (depth from the plan: the longest chain of additions);
// float products: relative error <= n * epsilon(acc). NaN must match NaN, inf the same inf.
// Returns "" when the result passes, else what is wrong.
std::string check_result(const Plan& plan, const Scalar& value,
                         const std::optional<std::uint64_t>& index, const Reference& ref);

// Generated input for clrdx reduce and bench: "ones", "iota" (element i = i), "mod:K"
// (element i = i % K), "random" (integers: uniform bits; floats: uniform in [0, 1)) or "wide"
// (integers: uniform bits; floats: random signs, significands of the type's digits in [1, 2),
// and exponents, each of the range equally likely; subnormals rounded). "wide"'s
// exponents run from the smallest subnormal's to the largest finite value's, or to 33 below the
// largest exponent of the sum's accumulator where that is lower, so that a sum of up to 2^31
// elements stays finite: f16 (summed in f32) spans its whole range, 2^-24 to 2^15; bf16 and f32
// (summed in f32, of their own range, where two elements near the top would overflow) reach
// 2^95, f64 2^991.
// Throws ArgumentError for an unknown pattern. Returns n * size_of(type) bytes.
std::vector<unsigned char> generate(Type type, std::string_view pattern, std::uint64_t n,
                                    std::uint64_t seed = 1);

// Test data kinds: random values suited to the operator, one constant, or small integers
// (many ties for argmin/argmax, exact float sums).
enum class Pattern { Random, Constant, Small };
std::string_view name(Pattern p);
std::vector<unsigned char> make_case_data(Type type, Op op, Pattern p, std::uint64_t n,
                                          std::uint64_t seed);

struct Case {
  Type type;
  Op op;
  std::uint64_t n;
  Pattern pattern;
  std::uint64_t seed;
};

// Sizes around every boundary for work-group size wg: 0, 1, 2, 3, wg-1, wg, wg+1, 2^k +- 1,
// primes, wg*wg +- 1, and `random_sizes` random ones up to max_n (seeded by seed).
std::vector<std::uint64_t> case_sizes(std::size_t wg, std::uint64_t max_n, int random_sizes,
                                      std::uint64_t seed);

// A composite (rdx/stats.hpp) of n >= 1 random elements of `type` (seeds seed and seed + 1 for
// dot's two inputs) run on ctx with opts (its strategy) against a long double host reference;
// "" when it passes, else what is wrong. Exact for minmax, count and integer dot.
std::string check_stat(Context& ctx, Stat s, Type type, std::uint64_t n, std::uint64_t seed,
                       const Options& opts = {});
// A composite's result r over the n >= 1 elements of `type` at x (and y, dot's second input)
// against the same host reference: "" when it passes, else what is wrong.
std::string check_stat_result(const StatResult& r, Stat s, Type type, const void* x, const void* y,
                              std::uint64_t n);

// Whether the built-in operator op on type has a user's reduction that computes the same:
// Reduction::transform(op, type, "x") (not argmin or argmax, not a float product).
bool transform_matches_builtin(Op op, Type type);

// The built-in operator op as a user's reduction, Reduction::transform(op, type, "x"), over n >= 1
// elements of make_case_data's Random pattern (seeded by seed) on ctx with opts, against the
// built-in's host reference (reference_reduce, check_result): "" when it passes. ArgumentError
// where transform_matches_builtin is false.
std::string check_transform(Context& ctx, Op op, Type type, std::uint64_t n, std::uint64_t seed,
                            const Options& opts = {});

// A segmented result against reference_reduce of each segment (of the host data the call
// reduced): "" when every segment passes, else the first one that does not. An empty segment must
// give the empty segment's value (rdx/segmented.hpp).
std::string check_segments(const SegmentedResult& r, const void* data,
                           std::span<const std::uint64_t> offsets);
std::string check_axis(const SegmentedResult& r, const void* data,
                       std::span<const std::uint64_t> shape, std::size_t axis);
// rdx::reduce_axes of the view v over `axes`: each result against the reference of the elements
// found by walking v's indexes one by one (not the library's merged form).
std::string check_axes(const SegmentedResult& r, const void* data, const View& v,
                       std::span<const std::int64_t> axes);

// Offsets around the boundaries of the segmented kernels for work-group size wg: no segments,
// empty segments, length 1, wg - 1 .. wg + 1, many short ones, one huge one among tiny ones, a
// power-law mix (seeded). And N-D shapes (1-D to 4-D) with axes of length 0 and 1.
std::vector<std::vector<std::uint64_t>> segment_layouts(std::size_t wg, std::uint64_t seed);
std::vector<std::vector<std::uint64_t>> axis_shapes();

// Every type (f64 only when fp64) x every operator it allows x case_sizes x patterns; the
// large random size runs with the Random pattern only, to keep the suite quick on slow CPUs.
std::vector<Case> verify_cases(std::size_t wg, bool fp64, std::uint64_t max_n, std::uint64_t seed);

}  // namespace rdx
