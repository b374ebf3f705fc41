// clrdx's command line without main(): the CLI11 app with every subcommand and option, parsing,
// and validation of every value a subcommand will use, all without a device and without printing.
// main.cpp prints and dispatches; tests/fuzz/fuzz_args.cpp drives the same code.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "commands.hpp"

namespace CLI {
class App;
}

namespace clrdx {

class App;

// A subcommand: the one row (app.cpp's kCommands) that names it, gives its help line, adds its
// options (bound to the App's Args), checks them without a device, and runs it. Adding a
// command: its Args and cmd_* declaration (commands.hpp), its cmd_*.cpp, one row, its Args
// member of App below, its source in tools/clrdx/CMakeLists.txt.
struct Command {
  std::string_view name, help;
  void (*options)(CLI::App& sub, App& app);
  void (*validate)(const App& app, const CLI::App& sub);  // null: nothing to check
  int (*run)(const App& app);
};

// Every subcommand, in the order of `clrdx --help`.
std::span<const Command> commands();

struct ParseResult {
  enum class Kind {
    Run,    // run `command`
    Info,   // --help or --version: print `text` on stdout, exit 0
    Error,  // a usage error: `text` is CLI11's message, exit 2
  };
  Kind kind = Kind::Error;
  const Command* command = nullptr;  // with Kind::Run
  std::string text;
};

class App {
 public:
  App();
  ~App();
  App(const App&) = delete;  // the CLI11 options point into the Args members
  App& operator=(const App&) = delete;

  // Parses argv (argv[0] is the program's name). Throws only what is not a CLI11 ParseError.
  ParseResult parse(int argc, const char* const* argv);

  // Runs every value parser and every device-independent check `command` will need (types,
  // operators, accumulators, counts, sizes, seeds, patterns, strategy names, work-group sizes, and
  // the device-independent checks of rdx::make_plan), without OpenCL. Throws rdx::ArgumentError.
  void validate(const Command& command) const;

  DevicesArgs devices;
  StrategiesArgs strategies;
  ReduceArgs reduce;
  VerifyArgs verify;
  BenchArgs bench;
  TuneArgs tune;
  bool cache_clear = false;

 private:
  std::unique_ptr<CLI::App> cli_;
};

}  // namespace clrdx
