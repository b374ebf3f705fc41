// Small string helpers shared by the runtime's sources.
#pragma once
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace rdx::detail {

// ASCII lower case (device selectors, vendor names, type and operator names).
inline std::string lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return std::tolower(c); });
  return r;
}

// Text from a user (a file's header, an option's value, an expression) as a message may show it:
// printable ASCII kept, every other byte escaped (\n, \t, \\, \xNN), so that no control character
// (a terminal escape, a newline, a NUL) reaches a terminal or cuts a message.
inline std::string printable(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string r;
  r.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      r += "\\\\";
    } else if (c == '\n') {
      r += "\\n";
    } else if (c == '\t') {
      r += "\\t";
    } else if (c == '\r') {
      r += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      r += "\\x";
      r += hex[c >> 4];
      r += hex[c & 15];
    } else {
      r += ch;
    }
  }
  return r;
}

}  // namespace rdx::detail
