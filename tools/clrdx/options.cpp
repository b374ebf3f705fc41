#include "options.hpp"

#include "core/format.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/files.hpp"
#include "rdx/errors.hpp"
#include "rdx/strategies.hpp"

namespace clrdx {

std::uint64_t parse_count(std::string_view s, std::string_view what) {
  const std::string text(s);
  auto bad = [&] {
    constexpr std::string_view kExpected =
        "expected a non-negative integer, optionally with Ki, Mi or Gi, or 2^K";
    if (s.starts_with('-'))
      return rdx::ArgumentError(
          rdx::detail::format("{} '{}' is negative; {}", what, text, kExpected));
    return rdx::ArgumentError(rdx::detail::format("bad {} '{}': {}", what, text, kExpected));
  };
  if (s.starts_with("2^")) {
    const std::string_view k_text = s.substr(2);  // plain digits: no suffix, no nested 2^
    if (k_text.empty() || k_text.find_first_not_of("0123456789") != std::string_view::npos)
      throw bad();
    const std::uint64_t k = parse_count(k_text);
    if (k > 63) throw bad();
    return std::uint64_t{1} << k;
  }
  std::uint64_t mult = 1;
  if (s.ends_with("Ki"))
    mult = 1ull << 10;
  else if (s.ends_with("Mi"))
    mult = 1ull << 20;
  else if (s.ends_with("Gi"))
    mult = 1ull << 30;
  if (mult > 1) s.remove_suffix(2);
  if (s.empty() || s.size() > 20) throw bad();
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') throw bad();
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) throw bad();
    v = v * 10 + d;
  }
  if (v > UINT64_MAX / mult) throw bad();
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
      throw rdx::ArgumentError(
          rdx::detail::format("unknown strategy '{}' (see `clrdx strategies`)", name));
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
                                               name, fmt::join(known, " ")));
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
        "bad layout '{}' (expected uniform:L, rows:L, columns:C, apart:W or powerlaw)", s));
  l.kind = kind == "uniform" ? Layout::Kind::Uniform
           : kind == "rows"  ? Layout::Kind::Rows
           : kind == "apart" ? Layout::Kind::Apart
                             : Layout::Kind::Columns;
  l.width = parse_count(s.substr(colon + 1), "a layout's width");
  if (l.width == 0) throw rdx::ArgumentError(rdx::detail::format("bad layout '{}': width 0", s));
  return l;
}

std::vector<Layout> parse_layouts(std::string_view list) {
  std::vector<Layout> all;
  for (const std::string& item : split_list(list))
    all.push_back(parse_layout(item));
  return all;
}

}  // namespace clrdx
