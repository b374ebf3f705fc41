// The composite reductions as users' reductions (see stats.hpp): one home for each statistic's
// name, state, map, combine and final step.
#include "ops/stats.hpp"

#include "core/format.hpp"

#include <cmath>
#include <limits>

#include "core/type_table.hpp"
#include "ops/exact_moments.hpp"

namespace rdx {
namespace {

struct StatRow {
  Stat stat;
  std::string_view name, alias;  // alias: NumPy's name where it differs, or ""
  std::size_t inputs;
  bool predicate;  // takes a map: a predicate over the elements (count's reduction)
  bool logical;    // a bool result (a u8 0 or 1) from count's state
  bool skips_nan;  // NumPy's nan* forms: NaN elements are left out (none on integers)
};

constexpr StatRow kStatRows[] = {
    {Stat::MinMax, "minmax", "", 1, false, false, false},
    {Stat::Mean, "mean", "", 1, false, false, false},
    {Stat::Var, "var", "", 1, false, false, false},
    {Stat::Std, "std", "", 1, false, false, false},
    {Stat::Norm2, "norm2", "", 1, false, false, false},
    {Stat::Dot, "dot", "", 2, false, false, false},
    {Stat::Count, "count", "count_nonzero", 1, true, false, false},
    {Stat::Any, "any", "", 1, true, true, false},
    {Stat::All, "all", "", 1, true, true, false},
    {Stat::NanSum, "nansum", "", 1, false, false, true},
    {Stat::NanProd, "nanprod", "", 1, false, false, true},
    {Stat::NanMean, "nanmean", "", 1, false, false, true},
    {Stat::NanVar, "nanvar", "", 1, false, false, true},
    {Stat::NanStd, "nanstd", "", 1, false, false, true},
};

constexpr bool stat_rows_follow_enum() {
  if (std::size(kStatRows) != std::size(kAllStats)) return false;
  for (std::size_t i = 0; i < std::size(kStatRows); ++i)
    if (kStatRows[i].stat != kAllStats[i] || static_cast<std::size_t>(kAllStats[i]) != i)
      return false;
  return true;
}
static_assert(stat_rows_follow_enum(), "kStatRows must list every rdx::Stat in enum order");

}  // namespace

std::string_view name(Stat s) {
  return kStatRows[static_cast<std::size_t>(s)].name;
}

std::optional<Stat> find_stat(std::string_view n) {
  for (const StatRow& r : kStatRows)
    if (r.name == n || (!r.alias.empty() && r.alias == n)) return r.stat;
  return std::nullopt;
}

std::string_view alias(Stat s) {
  return kStatRows[static_cast<std::size_t>(s)].alias;
}

std::size_t input_count(Stat s) {
  return kStatRows[static_cast<std::size_t>(s)].inputs;
}

bool is_logical(Stat s) {
  return kStatRows[static_cast<std::size_t>(s)].logical;
}

}  // namespace rdx

namespace rdx::detail {
namespace {

// Blue's thresholds and scales (LAPACK's la_constants) for an accumulator of `digits`
// significand bits and exponents [min_exp, max_exp] (std::numeric_limits' convention).
struct Blue {
  int tsml, tbig, ssml, sbig;  // powers of two
};
Blue blue(Type acc) {
  const TypeRow& r = type_row(acc);
  const int digits = r.digits, min_exp = r.min_exp, max_exp = r.max_exp;
  auto floor_half = [](int v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
  auto ceil_half = [](int v) { return v >= 0 ? (v + 1) / 2 : -(-v / 2); };
  return {ceil_half(min_exp - 1), floor_half(max_exp - digits + 1), -floor_half(min_exp - digits),
          -ceil_half(max_exp + digits - 1)};
}

std::string pow2(int e, Type acc) {
  return detail::format("0x1p{}{}", e, acc == Type::F32 ? "f" : "");
}

// h of var's state (moments_fields): its variances are kept times 2^-2h. f64: 2^-64 keeps a
// variance near DBL_MAX finite at the cost of a floor near 2^-958 (std 1e-144), far below
// what data holds; f32 keeps its variances as they are, NumPy's float32 range: a scale there
// would put a std below 7e-15 into subnormals, which many devices flush to zero.
int moments_half_exponent(Type acc) {
  return acc == Type::F32 ? 0 : 32;
}

// "b's value wins" for minmax's minimum (less) or maximum (greater): an identity state (index
// ULONG_MAX) loses, then NaN loses to a number, then the extreme value, then the first index.
std::string wins(const char* v, const char* ix, const char* cmp, bool fl) {
  const std::string better =
      detail::format("b.{0} {2} a.{0} || (!(a.{0} {2} b.{0}) && b.{1} < a.{1})", v, ix, cmp);
  if (!fl)
    return detail::format("(b.{1} != ULONG_MAX && (a.{1} == ULONG_MAX || {2}))", v, ix, better);
  return detail::format(
      "(b.{1} != ULONG_MAX && (a.{1} == ULONG_MAX || (isnan(a.{0}) != isnan(b.{0}) ? "
      "isnan(a.{0}) : ({2}))))",
      v, ix, better);
}

// Var's and std's state (nanvar's and nanstd's: of the numbers, NaN elements an empty state): the
// count n, the mean as an unevaluated sum mh + ml of two floats (so
// that the differences of the means, and the squared deviations built from them, keep every bit
// however large the mean is against the spread), and v, the variance M2 / n times 2^-2h, merged
// with Chan, Golub and LeVeque's formulas. The scale keeps every group's variance in range where
// the whole one is (a group's is at most n / its count times the whole's); deviations are scaled
// by 2^-h (exactly, a power of two) before they are squared.
std::vector<Field> moments_fields(Type acc, const NanSkip& skip) {
  const std::string t(type_row(acc).cl_name);
  const std::string sc = pow2(-moments_half_exponent(acc), acc);
  const std::string wa = detail::format("(({0})a.n / ({0})(a.n + b.n))", t);
  const std::string wb = detail::format("(({0})b.n / ({0})(a.n + b.n))", t);
  // d = (b.mh + b.ml) - (a.mh + a.ml) to within a rounding: Knuth's TwoSum of the high parts.
  // Each subexpression is written out at every use; on PoCL's CPU device each copy of a division
  // costs (measured), so these have six in all, and no selects (those cost more still).
  const std::string s = "(b.mh - a.mh)", z = detail::format("({} - b.mh)", s);
  const std::string d =
      detail::format("({0} + (((b.mh - ({0} - {1})) + (-a.mh - {1})) + (b.ml - a.ml)))", s, z);
  // mh + d * wb: mh takes the rounded sum, ml its error (Fast2Sum: where |mh| < |d * wb| the
  // error is off by a rounding of mh, below one of the spread).
  const std::string step = detail::format("({} * {})", d, wb);
  const std::string mh = detail::format("(a.mh + {})", step);
  const std::string ml = detail::format("(a.ml + ({0} - ({1} - a.mh)))", step, mh);
  // Chan's merge of the variances, wa va + wb vb + wa wb d^2, every term times 2^-2h.
  const std::string v =
      detail::format("({0} * (a.v + ({1} * {2} * {3}) * ({1} * {2})) + {3} * b.v)", wa, d, sc, wb);
  auto merged = [](const std::string& f, const std::string& e) {
    return detail::format("a.n == 0 ? b.{0} : b.n == 0 ? a.{0} : {1}", f, e);
  };
  return {{"n", Type::U64, "0", skip.one, "a.n + b.n"},
          {"mh", acc, "0", skip.x, merged("mh", mh)},
          {"ml", acc, "0", "0", merged("ml", ml)},
          {"v", acc, "0", "0", merged("v", v)}};
}

// Var's and std's chunk form (Reduction::chunk), nanvar's and nanstd's too: RDX_CHUNK elements'
// state from sums of their deviations from the first, d = (x - x[0]) 2^-h, in eight lanes: mean
// x[0] + sum(d) / C 2^h, variance (sum(d^2) - sum(d)^2 / C) / C. As x[0] is one of them, (x[0] -
// mean)^2 is at most C times the variance: the subtraction loses at most about log2(C) bits. A
// chunk whose sums are not finite (an infinity or NaN among its elements, or a square beyond the
// range) takes the element-by-element state instead (the map's: nanvar's leaves its NaN elements
// out there).
std::string moments_chunk(Type acc) {
  const std::string t(type_row(acc).cl_name);
  const std::string sc = pow2(-moments_half_exponent(acc), acc);
  const std::string unscale = pow2(moments_half_exponent(acc), acc);
  return detail::format(
      "const {0} k0 = ({0})x[0];\n"
      "{0} s1[8], s2[8];\n"
      "for (uint l = 0; l < 8; ++l) {{ s1[l] = 0; s2[l] = 0; }}\n"
      "for (uint j = 0; j < RDX_CHUNK; j += 8)\n"
      "  for (uint l = 0; l < 8; ++l) {{\n"
      "    const {0} d = (({0})x[j + l] - k0) * {1};\n"
      "    s1[l] += d;\n"
      "    s2[l] += d * d;\n"
      "  }}\n"
      "for (uint w = 4; w > 0; w /= 2)\n"
      "  for (uint l = 0; l < w; ++l) {{ s1[l] += s1[l + w]; s2[l] += s2[l + w]; }}\n"
      "const {0} m = s1[0] * (({0})1 / RDX_CHUNK);\n"
      "const {0} off = m * {2};\n"
      "r.n = RDX_CHUNK;\n"
      "r.mh = k0 + off;\n"
      "const {0} bv = r.mh - k0;\n"
      "r.ml = (k0 - (r.mh - bv)) + (off - bv);\n"
      "r.v = fmax((s2[0] - s1[0] * m) * (({0})1 / RDX_CHUNK), ({0})0);\n"
      "if (!isfinite(r.mh + r.v)) {{\n"
      "  r = rdx_identity();\n"
      "  for (uint j = 0; j < RDX_CHUNK; ++j) r = rdx_combine(r, rdx_map(x[j], 0));\n"
      "}}",
      t, sc, unscale);
}

// Minmax's chunk form: the chunk's first minimum and maximum with their indexes (RDX_INDEX), a
// number beating NaN as `wins` has it. Eight lanes (lane l takes x[l], x[l + 8], ...: compares
// and selects the compiler can put in vectors), each keeping its first extreme by strict
// comparisons; then the lanes, where equal values (or NaN against NaN) go to the smaller
// position. x[p]'s index grows with p, so the state is the element-by-element one.
std::string minmax_chunk(Type acc) {
  const std::string t(type_row(acc).cl_name);
  const bool fl = is_float(acc);
  // b (a candidate) beats a: a smaller (larger) value, or a number against NaN.
  // (x != x: NaN, as a plain compare, which vectorises where isnan's call did not on PoCL.)
  const std::string lt = fl ? "(b < a || (a != a && b == b))" : "(b < a)";
  const std::string gt = fl ? "(b > a || (a != a && b == b))" : "(b > a)";
  const std::string same = fl ? "(a == b || (a != a && b != b))" : "(a == b)";
  return detail::format(
      "{0} lo[8], hi[8];\n"
      "uint lp[8], hp[8];\n"
      "for (uint l = 0; l < 8; ++l) {{ lo[l] = x[l]; hi[l] = x[l]; lp[l] = l; hp[l] = l; }}\n"
      "for (uint j = 8; j < RDX_CHUNK; j += 8)\n"
      "  for (uint l = 0; l < 8; ++l) {{\n"
      "    const {0} a = lo[l], b = x[j + l], c = hi[l];\n"
      "    const bool take_lo = {1};\n"
      "    lo[l] = take_lo ? b : a;\n"
      "    lp[l] = take_lo ? j + l : lp[l];\n"
      "    {{ const {0} a = c; const bool take_hi = {2};\n"
      "      hi[l] = take_hi ? b : a;\n"
      "      hp[l] = take_hi ? j + l : hp[l]; }}\n"
      "  }}\n"
      "for (uint l = 1; l < 8; ++l) {{\n"
      "  {{ const {0} a = lo[0], b = lo[l];\n"
      "    if ({1} || ({3} && lp[l] < lp[0])) {{ lo[0] = b; lp[0] = lp[l]; }} }}\n"
      "  {{ const {0} a = hi[0], b = hi[l];\n"
      "    if ({2} || ({3} && hp[l] < hp[0])) {{ hi[0] = b; hp[0] = hp[l]; }} }}\n"
      "}}\n"
      "r.lo = lo[0];\nr.lo_i = RDX_INDEX(lp[0]);\nr.hi = hi[0];\nr.hi_i = RDX_INDEX(hp[0]);",
      t, lt, gt, same);
}

}  // namespace

bool skips_nan(Stat s) {
  return kStatRows[static_cast<std::size_t>(s)].skips_nan;
}

NanSkip nan_skip(Stat s, Type input) {
  if (!skips_nan(s) || !is_float(input)) return {"x", "1", "x"};
  return {"(isnan(x) ? 0 : x)", "(isnan(x) ? 0 : 1)", "(isnan(x) ? 1 : x)"};
}

Type stat_acc(Stat s, std::span<const Type> inputs, const Options& opts, bool fp64) {
  // The input's computed type: f16 and bf16 elements accumulate as f32 ones do.
  const Type in = computed_type_of(inputs.empty() ? Type::F32 : inputs[0]);
  if (opts.acc && computed_type_of(*opts.acc) != *opts.acc)
    throw ArgumentError(detail::format("{} is a storage type, not an accumulator (use f32 or f64)",
                                       name(*opts.acc)));
  auto float_acc = [&](Type fallback) {
    if (opts.acc && !is_float(*opts.acc))
      throw ArgumentError(
          detail::format("{} accumulates in f32 or f64, not {}", name(s), name(*opts.acc)));
    return opts.acc.value_or(fallback);
  };
  const Type wide = fp64 ? Type::F64 : Type::F32;
  switch (s) {
    case Stat::MinMax:
      if (opts.acc && *opts.acc != in)
        throw ArgumentError("minmax returns elements: it takes no accumulator type");
      return in;
    case Stat::Mean:
    case Stat::Var:
    case Stat::Std:
    case Stat::NanMean:
    case Stat::NanVar:
    case Stat::NanStd:
      return float_acc(in == Type::F64 ? Type::F64 : wide);
    case Stat::NanSum:
    case Stat::NanProd:
      return opts.acc.value_or(in);
    case Stat::Norm2:
      return float_acc(is_float(in) ? in : wide);
    case Stat::Dot:
      return opts.acc.value_or(in);
    case Stat::Count:
      if (opts.acc && *opts.acc != Type::U64)
        throw ArgumentError("count is a u64: it takes no other accumulator type");
      return Type::U64;
    case Stat::Any:
    case Stat::All:
      if (opts.acc)
        throw ArgumentError(detail::format("{} is a bool: it takes no accumulator type", name(s)));
      return Type::U8;  // the result's type; the state is count's
  }
  return in;  // not a Stat
}

Reduction stat_reduction(Stat s, std::span<const Type> inputs, Type acc, const std::string& map) {
  if (inputs.size() != input_count(s))
    throw ArgumentError(detail::format("{} reads {} input array{}, not {}", name(s), input_count(s),
                                       input_count(s) == 1 ? "" : "s", inputs.size()));
  if (!map.empty() && !kStatRows[static_cast<std::size_t>(s)].predicate) {
    std::string takers;
    for (const StatRow& row : kStatRows)
      if (row.predicate) takers += (takers.empty() ? "" : ", ") + std::string(row.name);
    throw ArgumentError(detail::format("{} takes no map ({} do)", name(s), takers));
  }
  const std::string a(type_row(acc).cl_name);
  const NanSkip skip = nan_skip(s, inputs[0]);
  Reduction r;
  switch (s) {
    case Stat::MinMax: {
      const bool fl = is_float(inputs[0]);
      const std::string lo = wins("lo", "lo_i", "<", fl), hi = wins("hi", "hi_i", ">", fl);
      r.fields = {
          {"lo", acc, "0", "x", detail::format("{} ? b.lo : a.lo", lo)},
          {"lo_i", Type::U64, "ULONG_MAX", "i", detail::format("{} ? b.lo_i : a.lo_i", lo)},
          {"hi", acc, "0", "x", detail::format("{} ? b.hi : a.hi", hi)},
          {"hi_i", Type::U64, "ULONG_MAX", "i", detail::format("{} ? b.hi_i : a.hi_i", hi)}};
      r.chunk = minmax_chunk(acc);
      break;
    }
    case Stat::Mean:
      r = Reduction::transform(Op::Sum, acc, "x");
      break;
    case Stat::Var:
    case Stat::Std:
    case Stat::NanVar:
    case Stat::NanStd:
      r.fields = moments_fields(acc, skip);
      r.chunk = moments_chunk(acc);
      break;
    case Stat::NanSum:
      r = Reduction::transform(Op::Sum, acc, skip.x);
      break;
    case Stat::NanProd:
      r = Reduction::transform(Op::Prod, acc, skip.factor);
      break;
    case Stat::NanMean:
      r.fields = {{"s", acc, "0", skip.x, "a.s + b.s"},
                  {"n", Type::U64, "0", skip.one, "a.n + b.n"}};
      break;
    case Stat::Norm2: {
      // Blue's algorithm: squares of small, medium and big magnitudes in three sums, the small
      // and big ones scaled by powers of two so that none underflows or overflows.
      const Blue c = blue(acc);
      const std::string ax = detail::format("fabs(({})x)", a);
      r.fields = {{"asml", acc, "0",
                   detail::format("{0} < {1} ? ({0} * {2}) * ({0} * {2}) : 0", ax,
                                  pow2(c.tsml, acc), pow2(c.ssml, acc)),
                   "a.asml + b.asml"},
                  {"amed", acc, "0",
                   detail::format("!({0} < {1} || {0} > {2}) ? {0} * {0} : 0", ax,
                                  pow2(c.tsml, acc), pow2(c.tbig, acc)),
                   "a.amed + b.amed"},
                  {"abig", acc, "0",
                   detail::format("{0} > {1} ? ({0} * {2}) * ({0} * {2}) : 0", ax,
                                  pow2(c.tbig, acc), pow2(c.sbig, acc)),
                   "a.abig + b.abig"}};
      break;
    }
    case Stat::Dot:
      r = Reduction::transform(Op::Sum, acc, detail::format("({0})x0 * ({0})x1", a));
      break;
    case Stat::Count:
    case Stat::Any:
    case Stat::All:
      // How many are non-zero (NaN != 0 holds): any and all compare it with the count.
      r = Reduction::transform(Op::Sum, Type::U64,
                               map.empty() ? "x != 0" : detail::format("({}) != 0", map));
      break;
  }
  r.name = std::string(name(s));
  return r;
}

StatResult stat_result(Stat s, Type acc, const StateResult& st, std::uint64_t n) {
  StatResult out;
  out.plan = st.plan;
  const auto f = [&](std::size_t k) { return st.fields.at(k).as<double>(); };
  auto as_acc = [&](double v) {
    return acc == Type::F32 ? Scalar::of(static_cast<float>(v)) : Scalar::of(v);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (s) {
    case Stat::MinMax:
      if (n == 0) throw ArgumentError("minmax of an empty input has no result");
      out.value = st.fields.at(0);
      out.index = st.fields.at(1).as<std::uint64_t>();
      out.max = st.fields.at(2);
      out.max_index = st.fields.at(3).as<std::uint64_t>();
      break;
    case Stat::Mean:
    case Stat::NanMean: {
      // The sum in acc, divided in acc's precision (nanmean: by the count of numbers).
      const std::uint64_t m = s == Stat::Mean ? n : st.fields.at(1).as<std::uint64_t>();
      out.value = acc == Type::F32 ? Scalar::of(mean_of(st.fields.at(0).as<float>(), m))
                                   : Scalar::of(mean_of(f(0), m));
      break;
    }
    case Stat::Var:
    case Stat::Std:
    case Stat::NanVar:
    case Stat::NanStd: {
      // moments_fields' v, unscaled; an infinity or NaN among the elements makes the mean one.
      const int h = moments_half_exponent(acc);
      const std::uint64_t m = st.fields.at(0).as<std::uint64_t>();
      double r = nan;
      if (m != 0 && std::isfinite(f(1)))
        r = s == Stat::Var || s == Stat::NanVar ? std::ldexp(f(3), 2 * h)
                                                : std::ldexp(std::sqrt(f(3)), h);
      out.value = as_acc(r);
      break;
    }
    case Stat::Norm2: {
      // LAPACK's nrm2 final step.
      const Blue c = blue(acc);
      const double ssml = std::ldexp(1.0, c.ssml), sbig = std::ldexp(1.0, c.sbig);
      double asml = f(0), amed = f(1), abig = f(2), scl = 1, sumsq = 0;
      if (abig > 0) {
        if (amed > 0 || std::isnan(amed)) abig += (amed * sbig) * sbig;
        scl = 1 / sbig;
        sumsq = abig;
      } else if (asml > 0) {
        if (amed > 0 || std::isnan(amed)) {
          amed = std::sqrt(amed);
          asml = std::sqrt(asml) / ssml;
          const double ymin = std::min(amed, asml), ymax = std::max(amed, asml);
          sumsq = ymax * ymax * (1 + (ymin / ymax) * (ymin / ymax));
        } else {
          scl = 1 / ssml;
          sumsq = asml;
        }
      } else {
        sumsq = amed;
      }
      out.value = as_acc(scl * std::sqrt(sumsq));
      break;
    }
    case Stat::Dot:
    case Stat::Count:
    case Stat::NanSum:
    case Stat::NanProd:
      out.value = st.fields.at(0);
      break;
    case Stat::Any:
      out.value = Scalar::of(static_cast<std::uint8_t>(st.fields.at(0).as<std::uint64_t>() > 0));
      break;
    case Stat::All:
      out.value = Scalar::of(static_cast<std::uint8_t>(st.fields.at(0).as<std::uint64_t>() == n));
      break;
  }
  return out;
}

std::optional<ResultForm> stat_result_cl(Stat s, Type acc, Type element, const Reduction& r,
                                         bool fp64) {
  const auto f = [&](std::size_t k) { return "s." + r.fields.at(k).name; };
  const std::string a(type_row(acc).cl_name);
  // stat_result's double steps, rounded once to acc.
  const auto in_double = [&](const std::string& body) -> std::optional<ResultForm> {
    if (!fp64) return std::nullopt;
    return ResultForm{detail::format("double r = NAN; {} out0[k] = ({})r;", body, a), {acc}};
  };
  switch (s) {
    case Stat::MinMax:
      if (result_type(Op::Min, element, acc) != acc) return std::nullopt;
      return ResultForm{detail::format("out0[k] = {}; out1[k] = SEG_POS(k, {}); out2[k] = {}; "
                                       "out3[k] = SEG_POS(k, {});",
                                       f(0), f(1), f(2), f(3)),
                        {acc, Type::U64, acc, Type::U64}};
    case Stat::Mean:
    case Stat::NanMean: {
      // f32: the quotient of two floats in double, rounded to float, is float's quotient.
      const std::string m = s == Stat::Mean ? "count" : f(1);
      const std::string d = acc == Type::F32 ? "(double)(float)" : "(double)";
      return in_double(detail::format("if ({0} != 0) r = (double){1} / ({2}{0});", m, f(0), d));
    }
    case Stat::Var:
    case Stat::Std:
    case Stat::NanVar:
    case Stat::NanStd: {
      const int h = moments_half_exponent(acc);
      const bool var = s == Stat::Var || s == Stat::NanVar;
      return in_double(
          detail::format("if ({} != 0 && isfinite((double){})) r = {};", f(0), f(1),
                         var ? detail::format("ldexp((double){}, {})", f(3), 2 * h)
                             : detail::format("ldexp(sqrt((double){}), {})", f(3), h)));
    }
    case Stat::Norm2:
      return std::nullopt;
    case Stat::Dot:
    case Stat::Count:
    case Stat::NanSum:
    case Stat::NanProd:
      return ResultForm{detail::format("out0[k] = {};", f(0)), {r.fields.at(0).type}};
    case Stat::Any:
      return ResultForm{detail::format("out0[k] = {} > 0;", f(0)), {Type::U8}};
    case Stat::All:
      return ResultForm{detail::format("out0[k] = {} == count;", f(0)), {Type::U8}};
  }
  return std::nullopt;
}

bool exact_moments(Stat s, const Options& opts) {
  return (s == Stat::Var || s == Stat::Std || s == Stat::NanVar || s == Stat::NanStd) &&
         opts.determinism != Determinism::RunToRun;
}

Reduction moments_reduction(Stat s, Type acc, Type input) {
  Reduction r;
  r.name = std::string(name(s));
  // The elements as the accumulator holds them (a conversion rounds to nearest), as in Var's
  // run_to_run map; nanvar's and nanstd's NaN elements as 0, which adds nothing to either sum.
  const std::string x = detail::format("(({}){})", type_row(acc).cl_name, nan_skip(s, input).x);
  if (acc == Type::F32) {
    // The square of an f32 is exact in a double (48 significant bits, exponents within range).
    r.fields = {
        {"s1", Type::F32, "0", x, "a.s1 + b.s1"},
        {"s2", Type::F64, "0", detail::format("(double){0} * (double){0}", x), "a.s2 + b.s2"}};
  } else {
    // The square as its rounded value and fma's exact rounding error (exact unless the error
    // falls below 2^-1074, for |x| below about 2^-485, or the square overflows, |x| >= 2^512).
    r.fields = {{"s1", Type::F64, "0", x, "a.s1 + b.s1"},
                {"s2", Type::F64, "0", detail::format("{0} * {0}", x), "a.s2 + b.s2"},
                {"s2lo", Type::F64, "0", detail::format("fma({0}, {0}, -({0} * {0}))", x),
                 "a.s2lo + b.s2lo"}};
  }
  return r;
}

StatResult moments_result(Stat s, Type acc, std::span<const ExactSum> sums, const Plan& plan,
                          std::uint64_t n) {
  StatResult out;
  out.plan = plan;
  out.value =
      exact_variance(sums[0], acc, sums.subspan(1), n, acc, s == Stat::Std || s == Stat::NanStd);
  return out;
}

}  // namespace rdx::detail
