#include "options.hpp"

#include "core/format.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/files.hpp"
#include "core/text.hpp"
#include "rdx/errors.hpp"
#include "rdx/strategies.hpp"

namespace clrdx {

namespace {

// What a text of digits reads as: its magnitude, or that it is not one or exceeds 64 bits.
struct Decimal {
  enum class Kind { Value, NotDecimal, Negative, TooLarge } kind = Kind::NotDecimal;
  bool negative = false;
  std::uint64_t magnitude = 0;
};

Decimal read_decimal(std::string_view text, bool sign_allowed) {
  Decimal d;
  std::string_view digits = text;
  if (digits.starts_with('-')) {
    d.negative = true;
    digits.remove_prefix(1);
  }
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    return d;  // NotDecimal: "", "-", "0x1", "+1", " 1", "1e3"
  if (d.negative && !sign_allowed) {
    d.kind = Decimal::Kind::Negative;
    return d;
  }
  for (char c : digits) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (d.magnitude > (UINT64_MAX - digit) / 10) {
      d.kind = Decimal::Kind::TooLarge;
      return d;
    }
    d.magnitude = d.magnitude * 10 + digit;
  }
  d.kind = Decimal::Kind::Value;
  return d;
}

// "--axis '0x1'" or, without `what` (CLI11 names the option itself), "'0x1'".
std::string quoted(std::string_view what, std::string_view text) {
  return rdx::detail::format("{}{}'{}'", what, what.empty() ? "" : " ",
                             rdx::detail::printable(text));
}

}  // namespace

std::int64_t parse_signed(std::string_view text, std::string_view what, std::int64_t min,
                          std::int64_t max) {
  const Decimal d = read_decimal(text, min < 0);
  if (d.kind == Decimal::Kind::Negative)
    throw rdx::ArgumentError(
        rdx::detail::format("{} is negative; expected a non-negative integer", quoted(what, text)));
  if (d.kind == Decimal::Kind::NotDecimal)
    throw rdx::ArgumentError(
        rdx::detail::format("{} is not a decimal integer", quoted(what, text)));
  if (d.kind == Decimal::Kind::Value) {
    // The value in 64 bits where it has one (C++20: the conversion of 0 - 2^63 is -2^63).
    const std::uint64_t limit = d.negative ? std::uint64_t{1} << 63 : INT64_MAX;
    const auto value = static_cast<std::int64_t>(d.negative ? 0 - d.magnitude : d.magnitude);
    if (d.magnitude <= limit && value >= min && value <= max) return value;
  }
  throw rdx::ArgumentError(
      rdx::detail::format("{} is out of range: expected a decimal integer from {} to {}",
                          quoted(what, text), min, max));
}

std::uint64_t parse_unsigned(std::string_view text, std::string_view what, std::uint64_t min,
                             std::uint64_t max) {
  const Decimal d = read_decimal(text, false);
  if (d.kind == Decimal::Kind::Negative)
    throw rdx::ArgumentError(
        rdx::detail::format("{} is negative; expected a non-negative integer", quoted(what, text)));
  if (d.kind == Decimal::Kind::NotDecimal)
    throw rdx::ArgumentError(
        rdx::detail::format("{} is not a non-negative decimal integer", quoted(what, text)));
  if (d.kind == Decimal::Kind::TooLarge || d.magnitude < min || d.magnitude > max)
    throw rdx::ArgumentError(
        rdx::detail::format("{} is out of range: expected a decimal integer from {} to {}",
                            quoted(what, text), min, max));
  return d.magnitude;
}

std::uint64_t parse_count(std::string_view s, std::string_view what) {
  constexpr std::string_view kExpected =
      "expected a non-negative integer, optionally with Ki, Mi or Gi, or 2^K";
  auto bad = [&] {
    if (s.starts_with('-'))
      return rdx::ArgumentError(
          rdx::detail::format("{} is negative; {}", quoted(what, s), kExpected));
    return rdx::ArgumentError(rdx::detail::format("bad {}: {}", quoted(what, s), kExpected));
  };
  auto too_large = [&] {
    return rdx::ArgumentError(
        rdx::detail::format("{} does not fit 64 bits: expected a count up to {} (2^64 - 1)",
                            quoted(what, s), UINT64_MAX));
  };
  std::string_view digits = s;
  const bool power = digits.starts_with("2^");  // 2^K: plain digits, no suffix, no nested 2^
  std::uint64_t mult = 1;
  if (power)
    digits.remove_prefix(2);
  else if (digits.ends_with("Ki"))
    mult = 1ull << 10;
  else if (digits.ends_with("Mi"))
    mult = 1ull << 20;
  else if (digits.ends_with("Gi"))
    mult = 1ull << 30;
  if (mult > 1) digits.remove_suffix(2);
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
    throw bad();
  std::uint64_t v = 0;
  try {
    v = parse_unsigned(digits, what, 0, UINT64_MAX);
  } catch (const rdx::ArgumentError&) {
    throw too_large();  // digits only, so the one refusal left
  }
  if (power) {
    if (v > 63) throw too_large();
    return std::uint64_t{1} << v;
  }
  if (v > UINT64_MAX / mult) throw too_large();
  return v * mult;
}

std::vector<std::uint64_t> parse_counts(std::string_view list, std::string_view what) {
  std::vector<std::uint64_t> out;
  while (true) {
    const auto comma = list.find(',');
    out.push_back(parse_count(list.substr(0, comma), what));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<rdx::DeviceInfo> pick_devices(const std::string& sel) {
  std::string selector = sel;
  if (selector.empty())
    if (const char* env = std::getenv("RDX_DEVICE")) selector = env;  // as rdx::Context does
  auto all = rdx::list_devices();
  if (selector == "all") {
    if (all.empty()) throw rdx::DeviceError("no OpenCL device found");
    return all;
  }
  return {rdx::select_device(all, selector)};
}

std::vector<std::string> split_list(std::string_view list) {
  std::vector<std::string> out;
  for (;;) {
    const auto comma = list.find(',');
    out.emplace_back(list.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    list.remove_prefix(comma + 1);
  }
}

namespace {

template <class E, std::size_t N, class Parse>
std::vector<E> parse_names(std::string_view list, const E (&all)[N], Parse parse,
                           std::string_view what) {
  if (list == "all") return std::vector<E>(std::begin(all), std::end(all));
  if (list.empty())
    throw rdx::ArgumentError(rdx::detail::format("{} needs at least one name", what));
  std::vector<E> out;
  for (const auto& item : split_list(list))
    out.push_back(parse(item));
  return out;
}

}  // namespace

std::vector<rdx::Type> parse_type_list(std::string_view list) {
  return parse_names(list, rdx::kAllTypes, rdx::parse_type, "--types");
}

std::vector<rdx::Op> parse_op_list(std::string_view list) {
  return parse_names(list, rdx::kAllOps, rdx::parse_op, "--ops");
}

bool known_strategy(std::string_view name) {
  const auto all = rdx::strategies();
  return std::any_of(all.begin(), all.end(), [&](auto& s) { return s.name == name; });
}

std::vector<std::string> parse_strategy_list(const std::string& sel) {
  std::vector<std::string> out;
  if (sel == "all") {
    for (auto& s : rdx::strategies())
      out.emplace_back(s.name);
    out.emplace_back("auto");
    return out;
  }
  std::string_view rest = sel;
  while (true) {
    const auto comma = rest.find(',');
    const std::string name(rest.substr(0, comma));
    if (name != "auto" && !known_strategy(name))
      throw rdx::ArgumentError(rdx::detail::format("unknown strategy '{}' (see `clrdx strategies`)",
                                                   rdx::detail::printable(name)));
    out.push_back(name);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

rdx::Determinism parse_determinism(std::string_view name) {
  if (const auto d = rdx::find_determinism(name)) return *d;
  std::vector<std::string_view> known;
  for (rdx::Determinism d : rdx::kAllDeterminisms)
    known.push_back(rdx::name(d));
  throw rdx::ArgumentError(rdx::detail::format("unknown --determinism '{}' (expected one of: {})",
                                               rdx::detail::printable(name),
                                               fmt::join(known, " ")));
}

std::vector<rdx::Determinism> parse_determinism_list(std::string_view list) {
  std::vector<rdx::Determinism> all;
  for (const std::string& item : split_list(list))
    all.push_back(parse_determinism(item));
  return all;
}

void check_writable_location(const std::string& path) {
  rdx::detail::check_writable(path);
}

Layout parse_layout(std::string_view s) {
  Layout l;
  l.name = std::string(s);
  if (s == "powerlaw") {
    l.kind = Layout::Kind::PowerLaw;
    return l;
  }
  const auto colon = s.find(':');
  const std::string_view kind = s.substr(0, colon);
  if (colon == std::string_view::npos ||
      (kind != "uniform" && kind != "rows" && kind != "columns" && kind != "apart"))
    throw rdx::ArgumentError(rdx::detail::format(
        "bad layout '{}' (expected uniform:L, rows:L, columns:C, apart:W or powerlaw)",
        rdx::detail::printable(s)));
  l.kind = kind == "uniform" ? Layout::Kind::Uniform
           : kind == "rows"  ? Layout::Kind::Rows
           : kind == "apart" ? Layout::Kind::Apart
                             : Layout::Kind::Columns;
  l.width = parse_count(s.substr(colon + 1), "a layout's width");
  if (l.width == 0)
    throw rdx::ArgumentError(
        rdx::detail::format("bad layout '{}': width 0", rdx::detail::printable(s)));
  return l;
}

std::vector<Layout> parse_layouts(std::string_view list) {
  std::vector<Layout> all;
  for (const std::string& item : split_list(list))
    all.push_back(parse_layout(item));
  return all;
}

}  // namespace clrdx
