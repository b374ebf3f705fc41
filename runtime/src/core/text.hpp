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

}  // namespace rdx::detail
