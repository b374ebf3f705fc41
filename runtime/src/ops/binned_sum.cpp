// The fixed-bin sum's host side (binned_sum.hpp): the same operations as cl/binned_sum.cl, in
// the bins' own type, so that a merge here and one on the device give the same bits.
#include "ops/binned_sum.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

namespace rdx::detail {
namespace {

// ReproBLAS's constants for bins of type F (cl/binned_sum.cl derives the same ones from the
// layout's build options and BIN_W).
template <class F>
struct Bins {
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  static constexpr int M = std::numeric_limits<F>::digits;  // 24, 53
  static constexpr int MANT = M - 1;
  static constexpr int MAX_EXP = std::numeric_limits<F>::max_exponent;  // 128, 1024
  static constexpr int MIN_EXP = std::numeric_limits<F>::min_exponent;  // -125, -1021
  static constexpr int BIAS = MAX_EXP - 1;
  static constexpr int W = sizeof(F) == 4 ? 13 : 40;
  // The last bin whose grid, 2^(its exponent - MANT), is a normal number (f32: 18, grid 2^-118;
  // f64: 50, 2^-1015), where ReproBLAS goes on to 20 and 51: no bin, residual or conversion
  // then rounds differently on a device that flushes subnormals (OpenCL does not require f32
  // subnormals): a subnormal rounds away in every bin either way.
  static constexpr int MAX_INDEX = (MAX_EXP - MIN_EXP + 1 - W) / W;
  static constexpr int EXP_BIAS = MAX_EXP - 2;
  static constexpr int TOP_FIELD = 2 * MAX_EXP - 2;  // bin 0's exponent field
  static constexpr int EXPAND_BITS = M - W + 1;      // bin 0 holds its elements scaled down
  static_assert(MAX_EXP + M - W - MAX_INDEX * W - MANT >= MIN_EXP,
                "the last bin's grid (its exponent less MANT) is at least twice the least normal");

  static Bits bits(F x) { return std::bit_cast<Bits>(x); }
  static F of(Bits b) { return std::bit_cast<F>(b); }
  static int field(F x) { return static_cast<int>((bits(x) >> MANT) & Bits(2 * MAX_EXP - 1)); }

  // Bin k's exponent field: its base is 1.5 * 2^(field - BIAS).
  static int base_field(int k) {
    k = std::min(k, MAX_INDEX);
    return k == 0 ? TOP_FIELD : MAX_EXP + M - W - k * W + BIAS;
  }
  static F base(int k) { return of((Bits(base_field(k)) << MANT) | (Bits(1) << (MANT - 1))); }
  // The index of a state whose first primary is p0.
  static int index_of(F p0) { return ((MAX_EXP + M - W + 1 + EXP_BIAS) - field(p0)) / W; }
  // The smallest index a state needs to take x (finite, not zero).
  static int index_for(F x) {
    const int e = field(x);
    if (e == 0) {  // subnormal: frexp's exponent from the significand's length
      const Bits m = bits(x) & ((Bits(1) << MANT) - 1);
      const int fe = static_cast<int>(std::bit_width(m)) + 1 - BIAS - MANT;
      return std::min((MAX_EXP - fe) / W, MAX_INDEX);
    }
    return ((MAX_EXP + EXP_BIAS) - e) / W;
  }

  struct State {
    F p[kBinnedFold];
    std::int64_t c[kBinnedFold];
  };
  static State load(const BinnedSum& s) {
    State t{};
    for (int i = 0; i < kBinnedFold; ++i) {
      t.p[i] = static_cast<F>(s.pri[i]);
      t.c[i] = s.car[i];
    }
    return t;
  }
  static void store(const State& t, BinnedSum& s) {
    for (int i = 0; i < kBinnedFold; ++i) {
      s.pri[i] = static_cast<double>(t.p[i]);
      s.car[i] = t.c[i];
    }
  }

  // The state ready for elements below 2^.. of index x_index (binned_dmdupdate).
  static void update(State& t, int x_index) {
    if (t.p[0] == 0) {
      for (int i = 0; i < kBinnedFold; ++i) {
        t.p[i] = base(x_index + i);
        t.c[i] = 0;
      }
      return;
    }
    const int shift = index_of(t.p[0]) - x_index;
    if (shift <= 0) return;
    for (int i = kBinnedFold - 1; i >= shift; --i) {
      t.p[i] = t.p[i - shift];
      t.c[i] = t.c[i - shift];
    }
    for (int j = 0; j < std::min(shift, kBinnedFold); ++j) {
      t.p[j] = base(x_index + j);
      t.c[j] = 0;
    }
  }

  static F or_one(F x) { return of(bits(x) | 1); }

  // x into a state whose index takes it (binned_dmddeposit).
  static void deposit(State& t, F x) {
    int i = 0;
    F m, q;
    if (field(t.p[0]) == TOP_FIELD) {
      m = t.p[0];
      q = or_one(x * std::ldexp(F(1), -EXPAND_BITS));
      q += m;
      t.p[0] = q;
      m -= q;
      m *= std::ldexp(F(1), EXPAND_BITS - 1);
      x += m;
      x += m;
      i = 1;
    }
    for (; i < kBinnedFold - 1; ++i) {
      m = t.p[i];
      q = or_one(x);
      q += m;
      t.p[i] = q;
      m -= q;
      x += m;
    }
    t.p[kBinnedFold - 1] += or_one(x);
  }

  // Primaries back into [1.5, 1.75) * 2^e, the difference into the carries (binned_dmrenorm).
  static void renorm(State& t) {
    if (t.p[0] == 0) return;
    for (int i = 0; i < kBinnedFold; ++i) {
      Bits b = bits(t.p[i]);
      t.c[i] += static_cast<std::int64_t>((b >> (MANT - 2)) & 3) - 2;
      b &= ~(Bits(1) << (MANT - 2));
      b |= Bits(1) << (MANT - 1);
      t.p[i] = of(b);
    }
  }

  // y += x (binned_dmdmadd).
  static void merge(State& y, const State& x) {
    if (x.p[0] == 0) return;
    if (y.p[0] == 0) {
      y = x;
      return;
    }
    const int xi = index_of(x.p[0]), yi = index_of(y.p[0]);
    const int shift = yi - xi;
    if (shift > 0) {  // x's bins are larger: y moves down under them
      for (int i = kBinnedFold - 1; i >= shift; --i) {
        y.p[i] = x.p[i] + (y.p[i - shift] - base(yi + i - shift));
        y.c[i] = x.c[i] + y.c[i - shift];
      }
      for (int i = 0; i < shift && i < kBinnedFold; ++i) {
        y.p[i] = x.p[i];
        y.c[i] = x.c[i];
      }
    } else {
      for (int i = -shift; i < kBinnedFold; ++i) {
        y.p[i] += x.p[i + shift] - base(xi + i + shift);
        y.c[i] += x.c[i + shift];
      }
    }
    renorm(y);
  }
};

// v * 2^pos (|v| < 2^63, pos >= 0) into the digits, carries pending (cl/exact_digits.h's
// exact_add_scaled).
void add_scaled(ExactSum& s, std::int64_t v, int pos) {
  if (v == 0) return;
  if (pos < 0) throw std::logic_error("binned_exact: a bit below the layout");
  const auto k = static_cast<std::size_t>(pos / 32);
  const int sh = pos % 32;
  const std::uint64_t u = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  const std::uint64_t lo = u << sh;
  std::int64_t d[3] = {static_cast<std::int64_t>(lo & 0xFFFFFFFFu),
                       static_cast<std::int64_t>(lo >> 32),
                       sh ? static_cast<std::int64_t>(u >> (64 - sh)) : 0};
  if (k + 2 >= s.digits.size()) throw std::logic_error("binned_exact: a bit above the layout");
  for (int j = 0; j < 3; ++j)
    s.digits[k + static_cast<std::size_t>(j)] += v < 0 ? -d[j] : d[j];
}

// A finite value of F times 2^extra into the digits (layout lsb).
template <class F>
void add_value(ExactSum& s, F x, int extra, int lsb) {
  using B = Bins<F>;
  const typename B::Bits b = B::bits(x);
  const int e = B::field(x);
  const auto frac = b & ((typename B::Bits(1) << B::MANT) - 1);
  const auto m = static_cast<std::int64_t>(e ? frac | (typename B::Bits(1) << B::MANT) : frac);
  // The significand's lowest bit is worth 2^(max(e, 1) - BIAS - MANT).
  const int low = std::max(e, 1) - B::BIAS - B::MANT;
  add_scaled(s, std::signbit(x) ? -m : m, low + extra - lsb);
}

template <class F>
ExactSum exact_of(const BinnedSum& s) {
  using B = Bins<F>;
  const ExactLayout layout = exact_layout(s.bin);
  ExactSum out = exact_zero(s.bin);
  out.flags = s.flags;
  const typename B::State t = B::load(s);
  if (t.p[0] == 0) return out;
  const int index = B::index_of(t.p[0]);
  for (int i = 0; i < kBinnedFold; ++i) {
    const int extra = index == 0 && i == 0 ? B::EXPAND_BITS : 0;
    const int unit = B::base_field(index + i) - B::BIAS - 2;  // a carry's worth: 2^unit
    add_scaled(out, t.c[i], unit + extra - layout.lsb);
    add_value<F>(out, t.p[i] - B::base(index + i), extra, layout.lsb);
  }
  return out;
}

template <class F>
bool valid_of(const BinnedSum& s, std::uint64_t count) {
  using B = Bins<F>;
  const typename B::State t = B::load(s);
  for (int i = 0; i < kBinnedFold; ++i)
    if (static_cast<double>(t.p[i]) != s.pri[i]) return false;  // not a value of F
  if (t.p[0] == 0) {
    for (int i = 0; i < kBinnedFold; ++i)
      if (t.p[i] != 0 || t.c[i] != 0) return false;
    return true;
  }
  if (count == 0 || !std::isfinite(t.p[0]) || t.p[0] < 0) return false;
  const int index = B::index_of(t.p[0]);
  if (index < 0 || index > B::MAX_INDEX) return false;
  // A deposit adds less than a carry's unit over ENDURANCE (2^(M - W - 2)) to its bin: the
  // primaries' headroom; renorms leave the carries within one of the bins' values over a unit.
  // Two such states add without overflow.
  const std::uint64_t most = (count >> (B::M - B::W - 2)) + 2;
  for (int i = 0; i < kBinnedFold; ++i) {
    const auto b = B::bits(t.p[i]);
    if (!(t.p[i] > 0) || B::field(t.p[i]) != B::base_field(index + i) ||
        !((b >> (B::MANT - 1)) & 1) || ((b >> (B::MANT - 2)) & 1))
      return false;
    const std::uint64_t mag =
        t.c[i] < 0 ? 0 - static_cast<std::uint64_t>(t.c[i]) : static_cast<std::uint64_t>(t.c[i]);
    if (mag > most) return false;
  }
  return true;
}

// x (a value of F) as an F, a subnormal f32 built from its bits: a host that flushes subnormals
// (the tests' stand-in for such a device) still holds the element a device reads.
template <class F>
F value_of(double x) {
  if constexpr (std::is_same_v<F, double>) {
    return x;
  } else {
    if (std::isnan(x)) return std::numeric_limits<float>::quiet_NaN();
    const double a = std::fabs(x);
    if (a != 0 && a < 0x1p-126) {  // a normal double; the significand in units of 2^-149
      const double m = a * 0x1p149;
      if (m != std::floor(m)) throw std::logic_error("deposit_binned: not a value of the bin type");
      return std::bit_cast<float>((std::signbit(x) ? 0x80000000u : 0u) |
                                  static_cast<std::uint32_t>(m));
    }
    const float v = static_cast<float>(x);
    if (static_cast<double>(v) != x)
      throw std::logic_error("deposit_binned: not a value of the bin type");
    return v;
  }
}

// f(Bins<float>) or f(Bins<double>), by the bin type.
template <class Fn>
decltype(auto) on_bins(Type bin, Fn&& f) {
  switch (bin) {
    case Type::F32:
      return f(float{});
    case Type::F64:
      return f(double{});
    case Type::I8:
    case Type::U8:
    case Type::I16:
    case Type::U16:
    case Type::I32:
    case Type::U32:
    case Type::I64:
    case Type::U64:
    case Type::F16:
    case Type::BF16:  // no bin type (binned_bin_type)
      break;
  }
  throw std::logic_error(detail::format("binned sum: bins of {}", name(bin)));
}

}  // namespace

Type binned_bin_type(Type acc) {
  if (acc != Type::F32 && acc != Type::F64)
    throw std::logic_error(detail::format("binned sum: an accumulator of {}", name(acc)));
  return acc;
}

BinnedSum binned_zero(Type bin) {
  BinnedSum s;
  s.bin = binned_bin_type(bin);
  return s;
}

void add_binned(BinnedSum& y, const BinnedSum& x) {
  if (y.bin != x.bin) throw std::logic_error("add_binned: bin types differ");
  on_bins(y.bin, [&](auto z) {
    using B = Bins<decltype(z)>;
    auto ty = B::load(y);
    B::merge(ty, B::load(x));
    B::store(ty, y);
  });
  y.flags |= x.flags;
}

void deposit_binned(BinnedSum& s, double x) {
  on_bins(s.bin, [&](auto z) {
    using F = decltype(z);
    using B = Bins<F>;
    const F v = value_of<F>(x);
    // Decided on the bits, as the kernels decide (a host or device that flushes subnormals
    // compares a subnormal equal to 0): a finite nonzero element opens bins; the flag "an
    // element other than -0" is set by such an element or by any with its sign bit clear.
    const auto mag = B::bits(v) & ~(typename B::Bits(1) << (8 * sizeof(F) - 1));
    const auto inf = typename B::Bits(2 * B::MAX_EXP - 1) << B::MANT;
    if (!std::signbit(v) || (mag != 0 && mag < inf)) s.flags |= kExactNotNegZero;
    if (mag > inf) {
      s.flags |= kExactNaN;
      return;
    }
    if (mag == inf) {
      s.flags |= std::signbit(v) ? kExactNegInf : kExactPosInf;
      return;
    }
    if (mag == 0) return;
    auto t = B::load(s);
    B::update(t, B::index_for(std::fabs(v)));
    B::deposit(t, v);
    B::renorm(t);
    B::store(t, s);
  });
}

ExactSum binned_exact(const BinnedSum& s) {
  return on_bins(s.bin, [&](auto z) { return exact_of<decltype(z)>(s); });
}

bool binned_valid(const BinnedSum& s, std::uint64_t count) {
  if (s.bin != Type::F32 && s.bin != Type::F64) return false;
  return on_bins(s.bin, [&](auto z) { return valid_of<decltype(z)>(s, count); });
}

std::uint64_t binned_depth(Type acc, std::uint64_t n) {
  // n * 2^(W * (1 - fold)) / epsilon = n / 2^(W * (fold - 1) - (M - 1)), doubled.
  const int shift = on_bins(binned_bin_type(acc), [](auto z) {
    using B = Bins<decltype(z)>;
    return B::W * (kBinnedFold - 1) - (B::M - 1) - 1;
  });
  return 8 + (n >> shift) + 1;
}

int binned_lowest_bit(Type bin) {
  return on_bins(bin, [](auto z) {
    using B = Bins<decltype(z)>;
    return B::base_field(B::MAX_INDEX) - B::BIAS - B::MANT;
  });
}

std::string binned_cl_options(Type bin, std::optional<Type> round_into) {
  const int width = on_bins(bin, [](auto z) { return Bins<decltype(z)>::W; });
  return exact_cl_options(bin, round_into) + detail::format(" -DBIN_W={}", width);
}

std::array<std::int64_t, 2 * kBinnedFold> binned_words(const BinnedSum& s) {
  std::array<std::int64_t, 2 * kBinnedFold> w{};
  for (int i = 0; i < kBinnedFold; ++i) {
    w[i] =
        s.bin == Type::F32
            ? static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(static_cast<float>(s.pri[i])))
            : std::bit_cast<std::int64_t>(s.pri[i]);
    w[kBinnedFold + i] = s.car[i];
  }
  return w;
}

BinnedSum binned_of_words(Type bin, const std::int64_t* words, std::uint32_t flags) {
  BinnedSum s = binned_zero(bin);
  for (int i = 0; i < kBinnedFold; ++i) {
    const auto u = static_cast<std::uint64_t>(words[i]);
    s.pri[i] =
        bin == Type::F32
            ? (u >> 32 ? std::numeric_limits<double>::quiet_NaN()
                       : static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(u))))
            : std::bit_cast<double>(u);
    s.car[i] = words[kBinnedFold + i];
  }
  s.flags = flags;
  return s;
}

}  // namespace rdx::detail
