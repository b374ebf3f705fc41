// The one file that compiles fmt's formatting engine (format.hpp says why).
#include "core/format.hpp"

#include <fmt/format.h>

namespace rdx::detail {

std::string vformat(fmt::string_view format, fmt::format_args args) {
  return fmt::vformat(format, args);
}

}  // namespace rdx::detail
