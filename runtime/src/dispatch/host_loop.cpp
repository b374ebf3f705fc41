// A small host input reduced on the calling thread (see host_loop.hpp): kLanes independent
// accumulators, which the compiler keeps in vector registers, combined pairwise, then the tail.
#include "dispatch/host_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/type_table.hpp"
#include "ops/operators.hpp"
#include "rdx/half.hpp"
#include "rdx/segmented.hpp"

namespace rdx::detail {
namespace {

// Lanes, as a blocked work-item's VW: enough for a 64-byte vector of f32.
constexpr std::size_t kLanes = 16;

// An element as the accumulator sees it: 16-bit floats through f32, as the kernels' to_acc; a
// float product marks an input infinity (float_prod.hpp).
template <Combine C, class A, class T>
A element(T x) {
  A v;
  if constexpr (is_half_v<T>)
    v = static_cast<A>(static_cast<float>(x));
  else
    v = static_cast<A>(x);
  if constexpr (C == Combine::Mul && std::is_floating_point_v<A>) v = prod_input(v);
  return v;
}

// Float min and max: lanes take `v < l ? v : l` (a NaN never enters), with a NaN seen, and a
// number seen, kept apart; the operator's NaN rule is applied once at the end: Min and Max give
// NaN where any element is one, MinNum and MaxNum where every element is (their identity).
template <Combine C, class A>
struct Extremes {
  static constexpr bool lowest = extreme_of(C) == Extreme::Lowest;
  static constexpr bool ignores_nan = nan_ignored(C);
  static constexpr A start =
      lowest ? std::numeric_limits<A>::infinity() : -std::numeric_limits<A>::infinity();
  static A take(A l, A v) { return lowest ? (v < l ? v : l) : (v > l ? v : l); }
  // A NaN (Min, Max) or a number (MinNum, MaxNum): what the NaN rule needs to know of.
  static bool sees(A v) { return ignores_nan ? v == v : v != v; }
  static A result(A r, bool seen) {
    return seen != ignores_nan ? std::numeric_limits<A>::quiet_NaN() : r;
  }
};

// Elements of type A itself: 16-byte vectors of the compiler's vector extension (GCC and clang;
// SSE2's min/max and compares, the baseline of x86-64), four in flight. A loop over lane arrays
// with these selects was left scalar by GCC 12 (-fopt-info-vec: "unsupported use in stmt").
template <Combine C, class A>
A fold_extreme_vectors(const A* x, std::uint64_t n) {
  using E = Extremes<C, A>;
  using I = std::conditional_t<sizeof(A) == 4, std::int32_t, std::int64_t>;
  typedef A V __attribute__((vector_size(16)));
  typedef I M __attribute__((vector_size(16)));
  constexpr std::size_t w = 16 / sizeof(A);
  V l[4];
  M seen[4];
  for (int k = 0; k < 4; ++k) {
    l[k] = V{} + E::start;
    seen[k] = M{};
  }
  std::uint64_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w)
    for (int k = 0; k < 4; ++k) {
      V v;
      std::memcpy(&v, x + i + k * w, sizeof v);
      if constexpr (E::lowest)
        l[k] = v < l[k] ? v : l[k];
      else
        l[k] = v > l[k] ? v : l[k];
      if constexpr (E::ignores_nan)
        seen[k] |= (v == v);
      else
        seen[k] |= (v != v);
    }
  A r = E::start;
  bool seen_any = false;
  for (int k = 0; k < 4; ++k)
    for (std::size_t j = 0; j < w; ++j) {
      r = E::take(r, l[k][j]);
      seen_any = seen_any || seen[k][j] != 0;
    }
  for (; i < n; ++i) {
    r = E::take(r, x[i]);
    seen_any = seen_any || E::sees(x[i]);
  }
  return E::result(r, seen_any);
}

template <Combine C, class A, class T>
A fold_extreme(const T* x, std::uint64_t n) {
  if constexpr (std::is_same_v<A, T>) {
    return fold_extreme_vectors<C>(x, n);
  } else {  // converted elements (16-bit floats, f32 into f64): one at a time
    using E = Extremes<C, A>;
    A r = E::start;
    bool seen = false;
    for (std::uint64_t i = 0; i < n; ++i) {
      const A v = element<C, A>(x[i]);
      r = E::take(r, v);
      seen = seen || E::sees(v);
    }
    return E::result(r, seen);
  }
}

template <Combine C, class A, class T>
A fold(const T* x, std::uint64_t n, A identity) {
  if constexpr (std::is_floating_point_v<A> && extreme_of(C) != Extreme::None)
    return fold_extreme<C, A>(x, n);
  A lane[kLanes];
  for (A& l : lane)
    l = identity;
  std::uint64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j)
      lane[j] = combine_as<C>(lane[j], element<C, A>(x[i + j]));
  for (std::size_t w = kLanes / 2; w > 0; w /= 2)
    for (std::size_t j = 0; j < w; ++j)
      lane[j] = combine_as<C>(lane[j], lane[j + w]);
  A r = lane[0];
  for (; i < n; ++i)
    r = combine_as<C>(r, element<C, A>(x[i]));
  return r;
}

// The first index of the extreme m (the first NaN where m is NaN): argmin/argmax's state, as
// fast.cl's indexed_block_state finds it.
template <Combine C, class A, class T>
std::uint64_t first_index_of(const T* x, std::uint64_t n, A m) {
  const auto is_m = [m](A v) {
    if constexpr (std::is_floating_point_v<A>)
      return std::isnan(m) ? v != v : v == m;
    else
      return v == m;
  };
  std::uint64_t i = 0;
  if constexpr (std::is_same_v<A, T>) {  // 16 bytes at once, then the element within them
    typedef A V __attribute__((vector_size(16)));
    constexpr std::size_t w = 16 / sizeof(A);
    bool nan_m = false;
    if constexpr (std::is_floating_point_v<A>) nan_m = std::isnan(m);
    for (; i + w <= n; i += w) {
      V v;
      std::memcpy(&v, x + i, sizeof v);
      const auto hit = nan_m ? (v != v) : (v == m);
      bool any = false;
      for (std::size_t j = 0; j < w; ++j)
        any = any || hit[j] != 0;
      if (any) break;
    }
  }
  for (; i < n; ++i)
    if (is_m(element<C, A>(x[i]))) return i;
  return 0;  // not reached: m is one of the elements
}

template <class T, class A>
Result run_typed(const Plan& plan, const T* x, std::uint64_t n) {
  const OpRow& row = op_row(plan.op);
  Result r;
  visit_combine(row.combine, [&](auto c) {
    constexpr Combine C = decltype(c)::value;
    if constexpr (std::is_floating_point_v<A> &&
                  (C == Combine::And || C == Combine::Or || C == Combine::Xor)) {
      throw std::logic_error("run_host_loop: a bitwise operator on floats");  // make_plan refuses
    } else {
      const A v = fold<C, A>(x, n, identity_value<A>(plan.op));
      r.value = Scalar::of(v);
      if (row.indexed) r.index = first_index_of<C, A>(x, n, v);
    }
  });
  r.plan = plan;
  r.plan.params.set("host_loop", 1);
  return r;
}

// Whether a later element e takes the first extreme's place from c: argmin/argmax's rule
// (combine_states) for a state that comes after: NaN wins over a number (MinNum, MaxNum: loses),
// then a strictly more extreme value; a tie keeps the first.
template <Combine C, class A>
bool beats(A e, A c) {
  constexpr bool lowest = extreme_of(C) == Extreme::Lowest;
  const bool more = lowest ? e < c : e > c;
  if constexpr (std::is_floating_point_v<A>) {
    if constexpr (nan_ignored(C))
      return more || (c != c && e == e);
    else
      return more || (e != e && c == c);
  } else {
    return more;
  }
}

// The axis form's columns (inner > 1): the rows taken in order, each column's state combined with
// its element of the row (a loop over neighbouring columns, which the compiler can vectorise);
// argmin/argmax keep each column's first extreme (beats). Every segment has `length`
// elements, at least 1.
template <Combine C, class A, class T>
void column_states(Op op, const T* x, const HostSegments& s, A* values, std::uint64_t* indices) {
  const std::uint64_t inner = s.inner, outer = s.segments / inner;
  for (std::uint64_t o = 0; o < outer; ++o) {
    const T* slice = x + o * s.length * inner;
    A* v = values + o * inner;
    if (!op_row(op).indexed) {
      const A id = identity_value<A>(op);
      for (std::uint64_t j = 0; j < inner; ++j)
        v[j] = id;
      for (std::uint64_t l = 0; l < s.length; ++l)
        for (std::uint64_t j = 0; j < inner; ++j)
          v[j] = combine_as<C>(v[j], element<C, A>(slice[l * inner + j]));
      continue;
    }
    std::uint64_t* at = indices + o * inner;
    for (std::uint64_t j = 0; j < inner; ++j) {
      v[j] = element<C, A>(slice[j]);
      at[j] = 0;
    }
    for (std::uint64_t l = 1; l < s.length; ++l)
      for (std::uint64_t j = 0; j < inner; ++j) {
        const A e = element<C, A>(slice[l * inner + j]);
        if (beats<C>(e, v[j])) {
          v[j] = e;
          at[j] = l;
        }
      }
  }
}

// The element offsets of a C-order walk over `shape` with `strides` (the odometer's digits).
std::vector<std::int64_t> walk_offsets(const std::vector<std::uint64_t>& shape,
                                       const std::vector<std::int64_t>& strides,
                                       std::uint64_t count) {
  std::vector<std::int64_t> at(count);
  std::vector<std::uint64_t> digit(shape.size(), 0);
  std::int64_t here = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    at[k] = here;
    for (std::size_t d = shape.size(); d-- > 0;) {  // the last digit first
      here += strides[d];
      if (++digit[d] < shape[d]) break;
      here -= static_cast<std::int64_t>(shape[d]) * strides[d];
      digit[d] = 0;
    }
  }
  return at;
}

// The view form: each segment's elements gathered through the view's addresses, then folded as a
// whole input's (every segment has v.length elements, at least 1).
template <Combine C, class A, class T>
void view_states(Op op, const T* x, const ViewForm& v, unsigned char* values,
                 std::uint64_t* indices) {
  const std::vector<std::int64_t> kept = walk_offsets(v.kept_shape, v.kept_strides, v.segments);
  // A value's segment is walked in memory order (the reduced axes by falling |stride|), an index's
  // in C order (its positions count so).
  std::vector<std::uint64_t> shape = v.reduced_shape;
  std::vector<std::int64_t> strides = v.reduced_strides;
  if (!op_row(op).indexed) {
    std::vector<std::size_t> order(shape.size());
    for (std::size_t d = 0; d < order.size(); ++d)
      order[d] = d;
    const auto mag = [&](std::size_t d) { return std::abs(v.reduced_strides[d]); };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return mag(a) > mag(b); });
    for (std::size_t d = 0; d < order.size(); ++d) {
      shape[d] = v.reduced_shape[order[d]];
      strides[d] = v.reduced_strides[order[d]];
    }
  }
  const A id = identity_value<A>(op);
  if (!op_row(op).indexed && !shape.empty() && strides.back() == 1) {
    // The innermost axis in memory order is contiguous: each of its runs folded in place, as a
    // whole input is, and the runs combined in order (no gather).
    const std::uint64_t run = shape.back();
    shape.pop_back();
    strides.pop_back();
    const std::vector<std::int64_t> runs = walk_offsets(shape, strides, v.length / run);
    for (std::uint64_t r = 0; r < v.segments; ++r) {
      const T* base = x + static_cast<std::int64_t>(v.offset) + kept[r];
      A value = id;
      for (const std::int64_t at : runs)
        value = combine_as<C>(value, fold<C, A>(base + at, run, id));
      std::memcpy(values + r * sizeof(A), &value, sizeof(A));
    }
    return;
  }
  const std::vector<std::int64_t> reduced = walk_offsets(shape, strides, v.length);
  std::vector<T> segment(v.length);
  for (std::uint64_t r = 0; r < v.segments; ++r) {
    const T* base = x + static_cast<std::int64_t>(v.offset) + kept[r];
    for (std::uint64_t k = 0; k < v.length; ++k)
      segment[k] = base[reduced[k]];
    const A value = fold<C, A>(segment.data(), v.length, id);
    std::memcpy(values + r * sizeof(A), &value, sizeof(A));
    if (op_row(op).indexed) indices[r] = first_index_of<C, A>(segment.data(), v.length, value);
  }
}

template <class T, class A>
bool segments_typed(Op op, const T* x, const HostSegments& s, unsigned char* values,
                    std::uint64_t* indices) {
  const OpRow& row = op_row(op);
  bool ran = true;
  visit_combine(row.combine, [&](auto c) {
    constexpr Combine C = decltype(c)::value;
    if constexpr (std::is_floating_point_v<A> && (C == Combine::And || C == Combine::Or ||
                                                  C == Combine::Xor || C == Combine::Mul)) {
      ran = false;  // bitwise: refused by the plan; products: marked infinities
    } else {
      const bool by_offsets = !s.offsets.empty();
      if (s.view) {
        view_states<C, A>(op, x, *s.view, values, indices);
        return;
      }
      if (!by_offsets && s.inner > 1 && s.length > 0) {
        std::vector<A> v(s.segments);
        column_states<C, A>(op, x, s, v.data(), indices);
        std::memcpy(values, v.data(), v.size() * sizeof(A));
        return;
      }
      const A id = identity_value<A>(op);
      const A empty = row.indexed ? A(0) : identity(op, type_of<A>()).template as<A>();
      for (std::uint64_t k = 0; k < s.segments; ++k) {
        const std::uint64_t count = by_offsets ? s.offsets[k + 1] - s.offsets[k] : s.length;
        A v = empty;
        std::uint64_t at = kEmptySegmentIndex;
        if (count) {
          const T* first = x + (by_offsets ? s.offsets[k] : k * s.length);  // inner is 1
          v = fold<C, A>(first, count, id);
          if (row.indexed) at = first_index_of<C, A>(first, count, v);
        }
        std::memcpy(values + k * sizeof(A), &v, sizeof(A));
        if (row.indexed) indices[k] = at;
      }
    }
  });
  return ran;
}

}  // namespace

bool run_host_segments(Op op, Type type, Type acc, const void* data, const HostSegments& s,
                       unsigned char* values, std::uint64_t* indices) {
  return visit_type(type, [&](auto t) {
    using T = decltype(t);
    using C = std::conditional_t<is_half_v<T>, float, T>;
    using Wide =
        std::conditional_t<std::is_floating_point_v<C>, double,
                           std::conditional_t<std::is_signed_v<C>, std::int64_t, std::uint64_t>>;
    const T* x = static_cast<const T*>(data);
    if (acc == type_of<C>()) return segments_typed<T, C>(op, x, s, values, indices);
    if (acc == type_of<Wide>()) return segments_typed<T, Wide>(op, x, s, values, indices);
    if constexpr (std::is_integral_v<T>) {  // integers into a float (mean's sums)
      if (acc == Type::F64) return segments_typed<T, double>(op, x, s, values, indices);
      if (acc == Type::F32) return segments_typed<T, float>(op, x, s, values, indices);
    }
    return false;
  });
}

std::optional<Result> run_host_loop(const Plan& plan, const void* data, std::uint64_t n) {
  return visit_type(plan.type, [&](auto t) -> std::optional<Result> {
    using T = decltype(t);
    using C = std::conditional_t<is_half_v<T>, float, T>;  // the computed type
    using Wide =
        std::conditional_t<std::is_floating_point_v<C>, double,
                           std::conditional_t<std::is_signed_v<C>, std::int64_t, std::uint64_t>>;
    const T* x = static_cast<const T*>(data);
    if (plan.acc == type_of<C>()) return run_typed<T, C>(plan, x, n);
    if (plan.acc == type_of<Wide>()) return run_typed<T, Wide>(plan, x, n);
    if constexpr (std::is_integral_v<T>) {  // integers into a float (mean's f64 sum)
      if (plan.acc == Type::F64) return run_typed<T, double>(plan, x, n);
      if (plan.acc == Type::F32) return run_typed<T, float>(plan, x, n);
    }
    return std::nullopt;
  });
}

}  // namespace rdx::detail
