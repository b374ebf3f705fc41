// libFuzzer target: clrdx's command line, parsed and validated as main() does before it opens a
// device (tools/clrdx/app.hpp).
//
// The input is the argument list, one argument per line (argv[0] "clrdx" is added; at most 64
// arguments of at most 256 bytes; a NUL ends an argument early, as it would in a real argv).
// Acceptable outcomes: help or version text, a CLI11 parse error, rdx::ArgumentError from
// validate, or a valid command. Anything else is a finding: another exception, a crash, a
// sanitizer report, or any OpenCL call (clGetPlatformIDs is replaced below by one that aborts:
// validate must never need a device).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"
#include "rdx/errors.hpp"
#include "rdx/rdx.hpp"

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_args: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

constexpr std::size_t kMaxArgs = 64, kMaxArgBytes = 256;

}  // namespace

// Every way to a device starts by listing the platforms.
extern "C" CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint, cl_platform_id*, cl_uint*) {
  finding("an OpenCL call (clGetPlatformIDs) while parsing or validating");
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"clrdx"};
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    std::string_view arg = rest.substr(0, nl);
    if (arg.size() > kMaxArgBytes || args.size() > kMaxArgs) return 0;
    args.emplace_back(arg.substr(0, arg.find('\0')));
    if (nl == std::string_view::npos) break;
    rest.remove_prefix(nl + 1);
  }
  std::vector<const char*> argv;
  for (auto& a : args)
    argv.push_back(a.c_str());
  argv.push_back(nullptr);

  clrdx::App app;
  const clrdx::ParseResult r = app.parse(static_cast<int>(args.size()), argv.data());
  switch (r.kind) {
    case clrdx::ParseResult::Kind::Info:
      if (r.text.empty()) finding("help or version with no text");
      if (args.size() == 2 && args[1] == "--version" &&
          r.text != "clrdx " + std::string(rdx::version()) + "\n")
        finding("--version does not print clrdx <rdx::version()>");
      return 0;
    case clrdx::ParseResult::Kind::Error:
      if (r.text.empty()) finding("a parse error with no message");
      return 0;
    case clrdx::ParseResult::Kind::Run:
      break;
  }
  if (!r.command) finding("a command to run, but none named");
  try {
    app.validate(*r.command);
  } catch (const rdx::ArgumentError& e) {
    if (std::string_view(e.what()).empty()) finding("an ArgumentError with no message");
  }
  return 0;
}
