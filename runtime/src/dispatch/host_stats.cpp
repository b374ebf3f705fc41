// The composites of a small host input on the calling thread (host_stats.hpp). Each loop keeps
// kLanes independent accumulators, as dispatch/host_loop.cpp does, so that the compiler can put
// them in vector registers; the lanes are combined pairwise at the end.
#include "dispatch/host_stats.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/type_table.hpp"
#include "ops/operators.hpp"
#include "ops/stats.hpp"
#include "rdx/half.hpp"

namespace rdx::detail {
namespace {

constexpr std::size_t kLanes = 16;

// An element as a statistic's map sees it: 16-bit floats through f32, then into A.
template <class A, class T>
A as_acc(T x) {
  if constexpr (is_half_v<T>)
    return static_cast<A>(static_cast<float>(x));
  else
    return static_cast<A>(x);
}

template <class T>
bool is_nan(T x) {
  if constexpr (is_half_v<T>)
    return std::isnan(static_cast<float>(x));
  else if constexpr (std::is_floating_point_v<T>)
    return std::isnan(x);
  else
    return false;
}

// The lanes' sum, pairwise.
template <class A>
A lanes_total(std::array<A, kLanes>& lane) {
  for (std::size_t w = kLanes / 2; w > 0; w /= 2)
    for (std::size_t j = 0; j < w; ++j)
      lane[j] = combine_as<Combine::Add>(lane[j], lane[j + w]);
  return lane[0];
}

// sum over i of f(x[i]) in A (f gives A; integers wrap as the kernels' sums).
template <class A, class T, class F>
A lane_sum(const T* x, std::uint64_t n, F f) {
  std::array<A, kLanes> lane{};
  std::uint64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j)
      lane[j] = combine_as<Combine::Add>(lane[j], f(x[i + j]));
  A r = lanes_total(lane);
  for (; i < n; ++i)
    r = combine_as<Combine::Add>(r, f(x[i]));
  return r;
}

// How many elements are not 0 (NaN is not 0): count's, any's and all's state.
template <class T>
std::uint64_t nonzero(const T* x, std::uint64_t n) {
  using C = std::conditional_t<is_half_v<T>, float, T>;
  return lane_sum<std::uint64_t>(x, n, [](T v) { return std::uint64_t{as_acc<C>(v) != C(0)}; });
}

// Whether an element counts: every one, or (Nan) the numbers.
template <bool Nan, class T>
bool taken(T v) {
  return !Nan || !is_nan(v);
}

// Var's state (moments_fields' n, mh, ml, v) by two passes in double: the mean of the numbers
// (Nan: NaN elements left out), then the mean of the squared deviations, each deviation scaled by
// 2^-h first (v is the variance times 2^-2h, as the kernels keep it). A sum of finite elements
// beyond double's range is taken again with the elements scaled by 2^-h.
template <class A, bool Nan, class T>
std::vector<Scalar> moments(const T* x, std::uint64_t n, int h) {
  std::uint64_t m = n;
  if constexpr (Nan)
    m = lane_sum<std::uint64_t>(x, n, [](T v) { return std::uint64_t{!is_nan(v)}; });
  const auto sum = [&](double scale) {
    return lane_sum<double>(
        x, n, [scale](T v) { return taken<Nan>(v) ? as_acc<double>(v) * scale : 0.0; });
  };
  double mean = m ? sum(1.0) / static_cast<double>(m) : 0.0;
  if (!std::isfinite(mean) && m) {
    const double scaled = sum(std::ldexp(1.0, -h));
    if (std::isfinite(scaled)) mean = std::ldexp(scaled / static_cast<double>(m), h);
  }
  double v = 0;
  if (m && std::isfinite(mean)) {
    const double sc = std::ldexp(1.0, -h);
    v = lane_sum<double>(x, n,
                         [mean, sc](T e) {
                           const double d = (as_acc<double>(e) - mean) * sc;
                           return taken<Nan>(e) ? d * d : 0.0;
                         }) /
        static_cast<double>(m);
  }
  const A mh = static_cast<A>(mean);
  const A ml = std::isfinite(mean) ? static_cast<A>(mean - static_cast<double>(mh)) : A(0);
  return {Scalar::of(m), Scalar::of(mh), Scalar::of(ml), Scalar::of(static_cast<A>(v))};
}

// The type an accumulator's sums wrap in: integers' unsigned twin, floats themselves.
template <class A, bool = std::is_integral_v<A>>
struct Wrapping {
  using type = A;
};
template <class A>
struct Wrapping<A, true> {
  using type = std::make_unsigned_t<A>;
};

// The sum of the products x[i] y[i] in A; integers wrap, as the kernels' (in unsigned arithmetic,
// the same bits).
template <class A, class T>
A dot(const T* x, const T* y, std::uint64_t n) {
  using W = typename Wrapping<A>::type;
  // Products of integers narrower than int in unsigned int: promoted to int they could overflow.
  using P = std::conditional_t<std::is_integral_v<A> && (sizeof(A) < 4), std::uint32_t, W>;
  const auto product = [](T a, T b) {
    return static_cast<W>(static_cast<P>(static_cast<W>(as_acc<A>(a))) *
                          static_cast<P>(static_cast<W>(as_acc<A>(b))));
  };
  std::array<W, kLanes> lane{};
  std::uint64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t j = 0; j < kLanes; ++j)
      lane[j] = static_cast<W>(lane[j] + product(x[i + j], y[i + j]));
  for (std::size_t w = kLanes / 2; w > 0; w /= 2)
    for (std::size_t j = 0; j < w; ++j)
      lane[j] = static_cast<W>(lane[j] + lane[j + w]);
  W r = lane[0];
  for (; i < n; ++i)
    r = static_cast<W>(r + product(x[i], y[i]));
  return static_cast<A>(r);
}

template <class A, class T>
std::optional<std::vector<Scalar>> fields_of(Stat s, std::span<const Array> inputs,
                                             std::uint64_t n) {
  const T* x = static_cast<const T*>(inputs[0].data);
  switch (s) {
    case Stat::Count:
    case Stat::Any:
    case Stat::All:
      return std::vector<Scalar>{Scalar::of(nonzero(x, n))};
    case Stat::NanSum:
      return std::vector<Scalar>{
          Scalar::of(lane_sum<A>(x, n, [](T v) { return is_nan(v) ? A(0) : as_acc<A>(v); }))};
    case Stat::NanMean:
      if constexpr (!std::is_floating_point_v<A>) return std::nullopt;
      return std::vector<Scalar>{
          Scalar::of(lane_sum<A>(x, n, [](T v) { return is_nan(v) ? A(0) : as_acc<A>(v); })),
          Scalar::of(lane_sum<std::uint64_t>(x, n, [](T v) { return std::uint64_t{!is_nan(v)}; }))};
    case Stat::Var:
    case Stat::Std:
    case Stat::NanVar:
    case Stat::NanStd:
      if constexpr (!std::is_floating_point_v<A>) {
        return std::nullopt;
      } else {
        const int h = std::is_same_v<A, double> ? 32 : 0;
        return skips_nan(s) ? moments<A, true>(x, n, h) : moments<A, false>(x, n, h);
      }
    case Stat::Dot:
      if (inputs[1].type != inputs[0].type) return std::nullopt;
      return std::vector<Scalar>{Scalar::of(dot<A>(x, static_cast<const T*>(inputs[1].data), n))};
    case Stat::Mean:
    case Stat::MinMax:
    case Stat::Norm2:
    case Stat::NanProd:
      return std::nullopt;
  }
  return std::nullopt;
}

// Every segment's fields, segment k's elements first gathered where they are not contiguous (the
// axis form's columns); nullopt as fields_of.
template <class A, class T>
std::optional<SegmentedStates> segment_fields(Stat s, const T* x, const SegmentedPlan& p,
                                              std::span<const std::uint64_t> offsets,
                                              std::span<const Type> types) {
  SegmentedStates out;
  out.types.assign(types.begin(), types.end());
  out.fields.resize(types.size());
  for (std::size_t f = 0; f < types.size(); ++f)
    out.fields[f].resize(p.segments * size_of(types[f]));
  std::vector<T> column;
  for (std::uint64_t k = 0; k < p.segments; ++k) {
    const bool by_offsets = p.form() == SegmentedForm::Offsets;
    const std::uint64_t count = by_offsets ? offsets[k + 1] - offsets[k] : p.length;
    const T* first = x + (by_offsets ? offsets[k] : k / p.inner * p.length * p.inner + k % p.inner);
    if (!by_offsets && p.inner > 1) {
      column.resize(count);
      for (std::uint64_t l = 0; l < count; ++l)
        column[l] = first[l * p.inner];
      first = column.data();
    }
    const Array one[] = {{type_of<T>(), first}};
    const std::optional<std::vector<Scalar>> f = fields_of<A, T>(s, one, count);
    if (!f || f->size() != types.size()) return std::nullopt;
    for (std::size_t j = 0; j < types.size(); ++j) {
      if ((*f)[j].type != types[j]) return std::nullopt;
      std::memcpy(out.fields[j].data() + k * size_of(types[j]), &(*f)[j].bits,
                  size_of(types[j]));  // little-endian
    }
  }
  out.plan = p;
  out.plan.host_loop = true;
  return out;
}

}  // namespace

std::optional<SegmentedStates> run_host_stat_segments(Stat s, Type acc, const Array& in,
                                                      const SegmentedPlan& p,
                                                      std::span<const std::uint64_t> offsets,
                                                      std::span<const Type> types) {
  if (s == Stat::Dot || p.form() == SegmentedForm::View || p.segments == 0 ||
      p.segments > kMostHostStatSegments || !in.data)
    return std::nullopt;  // dot reads two inputs
  if (p.form() == SegmentedForm::Offsets) {
    for (std::uint64_t k = 0; k < p.segments; ++k)
      if (offsets[k + 1] == offsets[k]) return std::nullopt;
  } else if (p.length == 0) {
    return std::nullopt;
  }
  if (acc != Type::U8 && acc != Type::U64 && computed_type_of(acc) != acc) return std::nullopt;
  return visit_type(in.type, [&](auto t) {
    using T = decltype(t);
    const Type a = s == Stat::Any || s == Stat::All ? Type::U64 : acc;  // their state is count's
    return visit_type(a, [&](auto z) -> std::optional<SegmentedStates> {
      using A = decltype(z);
      if constexpr (is_half_v<A>)
        return std::nullopt;
      else
        return segment_fields<A, T>(s, static_cast<const T*>(in.data), p, offsets, types);
    });
  });
}

std::optional<StateResult> run_host_stat(Stat s, Type acc, std::span<const Array> inputs,
                                         std::uint64_t n, const Plan& plan) {
  if (acc != Type::U8 && acc != Type::U64 && computed_type_of(acc) != acc) return std::nullopt;
  std::optional<std::vector<Scalar>> fields = visit_type(inputs[0].type, [&](auto t) {
    using T = decltype(t);
    const Type a = s == Stat::Any || s == Stat::All ? Type::U64 : acc;  // their state is count's
    return visit_type(a, [&](auto z) -> std::optional<std::vector<Scalar>> {
      using A = decltype(z);
      if constexpr (is_half_v<A>)
        return std::nullopt;
      else
        return fields_of<A, T>(s, inputs, n);
    });
  });
  if (!fields) return std::nullopt;
  StateResult r;
  r.fields = std::move(*fields);
  r.plan = plan;
  r.plan.acc = acc;
  r.plan.params.set("host_loop", 1);
  return r;
}

}  // namespace rdx::detail
