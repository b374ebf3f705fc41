// The composites (rdx/stats.hpp) against host references computed without librdx's kernels:
// long double two-pass mean and variance, long double sums of squares and products, exact
// counts and extremes (see rdx::check_stat in rdx/verify.hpp). The nan* forms run on data with
// NaN at every fifth element (floats), checked against the same references over the numbers.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ops/stats.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"
#include "rdx/stats.hpp"
#include "rdx/types.hpp"
#include "rdx/verify.hpp"

namespace rdx {
namespace {

template <class T>
std::string check_typed(const StatResult& r, Stat s, const T* x, const T* y, std::uint64_t n) {
  const Type acc = r.value.type;
  const long double eps = acc == Type::F32 ? std::numeric_limits<float>::epsilon()
                                           : std::numeric_limits<double>::epsilon();
  auto within = [&](long double got, long double want, long double tol) -> std::string {
    if (std::isnan(static_cast<double>(want)) && std::isnan(static_cast<double>(got))) return "";
    if (std::fabs(got - want) <= tol) return "";
    return fmt::format("got {}, want {} (tolerance {})", static_cast<double>(got),
                       static_cast<double>(want), static_cast<double>(tol));
  };
  // The elements a nan* form reads (the numbers), and m, their count; every element otherwise.
  std::vector<T> kept;
  for (std::uint64_t i = 0; i < n; ++i)
    if (!(detail::skips_nan(s) && std::isnan(static_cast<double>(x[i])))) kept.push_back(x[i]);
  const std::uint64_t m = kept.size();
  long double sum = 0, abs_sum = 0;
  for (const T v : kept) {
    sum += static_cast<long double>(v);
    abs_sum += std::fabs(static_cast<long double>(v));
  }
  const long double mean = m ? sum / m : 0;
  const long double nan = std::numeric_limits<long double>::quiet_NaN();
  switch (s) {
    case Stat::MinMax: {
      const std::uint64_t lo = std::min_element(x, x + n) - x, hi = std::max_element(x, x + n) - x;
      if (r.value.as<T>() != x[lo] || *r.index != lo || r.max->as<T>() != x[hi] ||
          *r.max_index != hi)
        return fmt::format("got {} at {}, {} at {}; want {} at {}, {} at {}", r.value.to_string(),
                           *r.index, r.max->to_string(), *r.max_index,
                           Scalar::of(x[lo]).to_string(), lo, Scalar::of(x[hi]).to_string(), hi);
      return "";
    }
    case Stat::Mean:
    case Stat::NanMean:
      return within(r.value.as<long double>(), m ? mean : nan, 4 * m * eps * (m ? abs_sum / m : 0));
    case Stat::Var:
    case Stat::Std:
    case Stat::NanVar:
    case Stat::NanStd: {
      long double m2 = 0;
      for (const T v : kept)
        m2 += (v - mean) * (v - mean);
      const long double var = m ? m2 / m : nan;
      // Chan's merge: a few roundings of acc per level, relative to the spread and the mean.
      const long double scale = var + (mean * mean) * 4 * eps;
      const long double tol = 8 * eps * (std::log2(static_cast<long double>(n)) + 8) * scale;
      if (s == Stat::Var || s == Stat::NanVar) return within(r.value.as<long double>(), var, tol);
      return within(r.value.as<long double>(), std::sqrt(var), std::sqrt(tol) + 8 * eps);
    }
    case Stat::Norm2: {
      long double sq = 0;
      for (std::uint64_t i = 0; i < n; ++i)
        sq += static_cast<long double>(x[i]) * x[i];
      const long double want = std::sqrt(sq);
      return within(r.value.as<long double>(), want, (n + 4) * eps * want);
    }
    case Stat::Dot: {
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        using M = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;
        U d = 0;
        for (std::uint64_t i = 0; i < n; ++i)
          d = static_cast<U>(d + static_cast<U>(M(U(x[i])) * M(U(y[i]))));
        if (r.value.as<T>() != static_cast<T>(d))
          return fmt::format("got {}, want {}", r.value.to_string(),
                             Scalar::of(static_cast<T>(d)).to_string());
        return "";
      } else {
        long double d = 0, abs_d = 0;
        // Products in the element type, as the kernel forms them; a 16-bit float's in f32.
        using P = std::conditional_t<is_half_v<T>, float, T>;
        for (std::uint64_t i = 0; i < n; ++i) {
          const long double p = static_cast<long double>(P(P(x[i]) * P(y[i])));
          d += p;
          abs_d += std::fabs(p);
        }
        return within(r.value.as<long double>(), d, (n + 1) * eps * abs_d);
      }
    }
    case Stat::NanSum:
    case Stat::NanProd: {
      const bool product = s == Stat::NanProd;
      if constexpr (std::is_integral_v<T>) {  // wraps in T, as sum and prod do
        using U = std::make_unsigned_t<T>;
        using M = std::conditional_t<(sizeof(T) <= 4), std::uint32_t, std::uint64_t>;
        U d = product ? 1 : 0;
        for (const T v : kept)
          d = product ? static_cast<U>(M(d) * M(U(v))) : static_cast<U>(d + U(v));
        if (r.value.as<T>() != static_cast<T>(d))
          return fmt::format("got {}, want {}", r.value.to_string(),
                             Scalar::of(static_cast<T>(d)).to_string());
        return "";
      } else {
        if (!product) return within(r.value.as<long double>(), sum, (m + 1) * eps * abs_sum);
        long double p = 1;
        for (const T v : kept)
          p *= static_cast<long double>(v);
        return within(r.value.as<long double>(), p, (m + 1) * eps * std::fabs(p));
      }
    }
    case Stat::Count: {
      const std::uint64_t want = std::count_if(x, x + n, [](T v) { return v != T(0); });
      if (r.value.as<std::uint64_t>() != want)
        return fmt::format("got {}, want {}", r.value.to_string(), want);
      return "";
    }
    case Stat::Any:
    case Stat::All: {
      // NumPy's: NaN is non-zero, -0.0 is zero.
      const auto nonzero = [](T v) { return v != T(0); };
      const bool want =
          s == Stat::Any ? std::any_of(x, x + n, nonzero) : std::all_of(x, x + n, nonzero);
      if (r.value.type != Type::U8 || r.value.as<std::uint8_t>() != (want ? 1 : 0))
        return fmt::format("got {} ({}), want {}", r.value.to_string(), name(r.value.type),
                           want ? 1 : 0);
      return "";
    }
  }
  return "not a statistic";
}

}  // namespace

std::string check_stat(Context& ctx, Stat s, Type type, std::uint64_t n, std::uint64_t seed,
                       const Options& opts) {
  auto x = make_case_data(type, s == Stat::NanProd ? Op::Prod : Op::Sum, Pattern::Random, n, seed);
  if (detail::skips_nan(s) && is_float(type))  // NaN at every fifth element, from the third
    for (std::uint64_t i = 2; i < n; i += 5)
      visit_type(type, [&](auto z) {
        using T = decltype(z);
        if constexpr (is_float_v<T>) {
          const T q = std::numeric_limits<T>::quiet_NaN();
          std::memcpy(x.data() + i * sizeof(T), &q, sizeof(T));
        }
      });
  const auto y = make_case_data(type, Op::Sum, Pattern::Random, n, seed + 1);
  const Array one[] = {{type, x.data()}};
  const Array two[] = {{type, x.data()}, {type, y.data()}};
  const StatResult r = s == Stat::Dot ? reduce(ctx, s, two, n, opts) : reduce(ctx, s, one, n, opts);
  return check_stat_result(r, s, type, x.data(), y.data(), n);
}

std::string check_stat_result(const StatResult& r, Stat s, Type type, const void* x, const void* y,
                              std::uint64_t n) {
  if (s == Stat::Dot && !y) throw ArgumentError("check_stat_result: dot needs its second input");
  return visit_type(type, [&](auto z) {
    using T = decltype(z);
    return check_typed<T>(r, s, static_cast<const T*>(x), static_cast<const T*>(y), n);
  });
}

}  // namespace rdx
