// Formatting through fmt, with fmt's formatting engine compiled once (format.cpp).
//
// fmt is header-only here (it stays private: neither library exports a need for it), and a file
// that calls fmt::format or fmt::print compiles fmt's engine (vformat and what it reaches) at -O3,
// in each of the suite's builds (a one-line file: 15.7 s against 3.9 s through these wrappers, on
// the 2-core test machine under load). These wrappers
// only pack their arguments (fmt::make_format_args, as fmt::format does) and call vformat, which
// format.cpp alone compiles. The format strings are still checked at compile time.
#pragma once
#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/core.h>

namespace rdx::detail {

// fmt::vformat, compiled in format.cpp (called qualified: fmt::vformat is found by ADL too).
std::string vformat(fmt::string_view format, fmt::format_args args);

// fmt::format.
template <class... Args>
std::string format(fmt::format_string<Args...> format, Args&&... args) {
  return detail::vformat(format, fmt::make_format_args(args...));
}

// fmt::print to a stream: the formatted text written whole, or std::system_error as fmt throws.
template <class... Args>
void print(std::FILE* stream, fmt::format_string<Args...> format, Args&&... args) {
  const std::string text = detail::vformat(format, fmt::make_format_args(args...));
  if (std::fwrite(text.data(), 1, text.size(), stream) < text.size())
    throw std::system_error(errno, std::generic_category(), "cannot write to file");
}

// fmt::print to standard output (the command-line tool's; the library never prints).
template <class... Args>
void print(fmt::format_string<Args...> format, Args&&... args) {
  detail::print(stdout, format, std::forward<Args>(args)...);
}

}  // namespace rdx::detail
