// Internal: var and std under Determinism AnyDevice and Exact, from the exact sums of x and of x^2
// (cl/exact_sum.cl through ops/exact_sum.hpp): (n * sum(x^2) - sum(x)^2) / n^2 in big integers,
// rounded once. Pure: no OpenCL.
#pragma once
#include <cstdint>
#include <span>

#include "ops/exact_sum.hpp"

namespace rdx::detail {

// The population variance of n elements, or with `root` its square root, correctly rounded (to
// nearest, ties to even) in acc (F32 or F64), from s1, the exact sum of the elements in t1's
// layout (F32 or F64), and s2, exact sums in F64's layout whose total is the sum of their squares.
// NaN for n == 0 or when s1 saw a NaN or an infinity; +inf when only s2 did (a square
// overflowed); a variance beyond acc's range is +inf.
Scalar exact_variance(const ExactSum& s1, Type t1, std::span<const ExactSum> s2, std::uint64_t n,
                      Type acc, bool root);

}  // namespace rdx::detail
