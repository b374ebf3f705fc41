// The test suite's matrices of (type, operator) pairs per strategy (test policy: the suite's,
// not librdx's; clrdx verify runs every pair).
#pragma once
#include <cstddef>
#include <string_view>

#include "rdx/types.hpp"

namespace rdx::test {

// Which (type, operator) pairs a strategy runs with in the test suite. Kernel builds dominate its
// time (PoCL compiles each type x operator x strategy separately), so:
//  - Full: every pair (what `clrdx verify` runs).
//  - Covering: the operator and type code is shared (cl/common.h), and most strategies' own code
//    depends on the layout of the reduction, not on the pair. Strategies whose code does depend on
//    it run every pair: localtree (the reference tree), fast_strided and fast_blocked (auto: vector
//    widths per type), atomic_global and atomic_local (one atomic or compare-exchange per type
//    width and operator). The others run every type with sum, i32 and f32 with the operators that
//    change the state's shape (argmin/argmax carry an index) or its float rules, and one more type
//    per operator, rotated by the strategy's position (`position` in strategies()), so that across
//    strategies every pair still runs.
//  - Barriers: what the quick tier runs, and the strategies under a second PoCL work-group method,
//    which changes how work-items are looped around barriers but nothing that depends on the type:
//    i32 sum and xor (plain and bitwise), and every operator on f32 (float rules, products and
//    the indexed argmin/argmax) but nanmin, nanmax and nanargmin (nanargmax stands for the
//    NaN-ignoring family): 9 pairs, the f32 ones those that the semantics test of every
//    strategy (test_api.cpp) builds too.
enum class Coverage { Full, Covering, Barriers };
bool pair_in_matrix(Coverage c, std::string_view strategy, std::size_t position, Type t, Op op);

// Whether this run is the quick tier's (RDX_TEST_TIER=quick, set by its entries in
// tests/CMakeLists.txt): the API tests whose cross products build the most kernels then run a
// part that still reaches every strategy and form, and an entry of the full tier runs them
// whole (docs/testing.md lists which). Unset: whole.
bool quick_tier();

}  // namespace rdx::test
