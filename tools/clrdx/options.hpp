// clrdx's value parsers: counts with binary suffixes, size lists, strategy and device lists; the
// library's names of a list.
#pragma once
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rdx/device_info.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"

namespace clrdx {

// "i8 u8 ... f64", "sum prod ... nanargmax": the library's names of a list (kAllTypes, kAllOps,
// kAllStats), space-separated.
template <class E, std::size_t N>
std::string names_of(const E (&all)[N]) {
  std::string r;
  for (E e : all) {
    if (!r.empty()) r += ' ';
    r += name(e);  // rdx::name, found by argument-dependent lookup where E is declared
  }
  return r;
}

// The one reader of clrdx's integers (every integer option, through app.cpp's add_integer and
// add_integer_list, and the digits of a count): decimal digits, with one leading '-' where `min`
// is negative. Leading zeros read as decimal (010 is 10); anything else is refused: a '+', spaces,
// 0x or 0o, an exponent, an empty text, and a value outside [min, max] (never clamped; a '-'
// where min >= 0 is "negative"). Throws
// rdx::ArgumentError naming `what` (left out when empty) and the text as given (printable()).
std::int64_t parse_signed(std::string_view text, std::string_view what, std::int64_t min,
                          std::int64_t max);
std::uint64_t parse_unsigned(std::string_view text, std::string_view what, std::uint64_t min,
                             std::uint64_t max);

// parse_signed or parse_unsigned over the values of T from min to max (default: all of them).
template <std::integral T>
T parse_integer(std::string_view text, std::string_view what = {},
                T min = std::numeric_limits<T>::min(), T max = std::numeric_limits<T>::max()) {
  if constexpr (std::is_signed_v<T>)
    return static_cast<T>(parse_signed(text, what, min, max));
  else
    return static_cast<T>(parse_unsigned(text, what, min, max));
}

// "1000", "4Ki", "16Mi", "1Gi", "2^20". Throws rdx::ArgumentError for anything else (negative,
// non-numeric, overflowing 64 bits), naming `what` (e.g. "--seed") and the text as given. The
// digits are read by parse_unsigned: 010 is 10.
std::uint64_t parse_count(std::string_view s, std::string_view what = "count");

// A comma-separated list of counts: "1Ki,1Mi,2^24".
std::vector<std::uint64_t> parse_counts(std::string_view list, std::string_view what = "count");

// Whether `name` is one of librdx's strategies (auto is not one).
bool known_strategy(std::string_view name);

// bench's --strategy: "all" (every strategy, then auto), or a comma list of strategy names and
// auto. Throws rdx::ArgumentError naming the first unknown one.
std::vector<std::string> parse_strategy_list(const std::string& sel);

// --determinism: one level's name (rdx::find_determinism), or a comma list of them (bench).
// Throws rdx::ArgumentError naming the first unknown one and the known ones.
rdx::Determinism parse_determinism(std::string_view name);
std::vector<rdx::Determinism> parse_determinism_list(std::string_view list);

// The items of a comma-separated list, as given ("a,,b" has an empty item; "" is one empty item).
std::vector<std::string> split_list(std::string_view list);

// --types and --ops lists: "all" for every type or operator, else a comma list of names.
// Throws rdx::ArgumentError naming the first unknown one, or for an empty list.
std::vector<rdx::Type> parse_type_list(std::string_view list);
std::vector<rdx::Op> parse_op_list(std::string_view list);

// The devices a --device value names: "all" for every device, else the one selected.
std::vector<rdx::DeviceInfo> pick_devices(const std::string& selector);

// Checks, before anything is measured, that `path` can be written: a regular file, a new one or
// a link to one (never a folder, device, FIFO or socket), in a folder that exists and takes new
// files. Throws rdx::ArgumentError with the system's reason.
void check_writable_location(const std::string& path);

// bench --layouts: the segmented yardsticks' layouts of n elements. uniform:L (segments of L
// elements by offsets), powerlaw (lengths 1 << (splitmix64(s) % 17), by offsets), and the axis
// forms of an (n / W) x W matrix: rows:W (axis 1) and columns:W (axis 0).
struct Layout {
  enum class Kind { Uniform, PowerLaw, Rows, Columns, Apart } kind = Kind::Uniform;
  std::uint64_t width = 0;
  std::string name;
};
Layout parse_layout(std::string_view s);
std::vector<Layout> parse_layouts(std::string_view list);  // a comma list

}  // namespace clrdx
