// clrdx: list devices and strategies, reduce a file or generated data, verify every strategy
// against the host reference, benchmark strategies and devices side by side.
// Exit codes: 0 success, 1 OpenCL or run-time failure, 2 usage or bad input.
#include <iostream>
#include <new>

#include "app.hpp"
#include "commands.hpp"
#include "rdx/rdx.hpp"

namespace {

int dispatch(const clrdx::App& app, clrdx::Command command) {
  using clrdx::Command;
  switch (command) {
    case Command::Devices:
      return clrdx::cmd_devices(app.devices);
    case Command::Strategies:
      return clrdx::cmd_strategies(app.strategies);
    case Command::Reduce:
      return clrdx::cmd_reduce(app.reduce);
    case Command::Verify:
      return clrdx::cmd_verify(app.verify);
    case Command::Bench:
      return clrdx::cmd_bench(app.bench);
    case Command::Tune:
      return clrdx::cmd_tune(app.tune);
    case Command::Cache:
      return clrdx::cmd_cache(app.cache_clear);
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    clrdx::App app;
    const clrdx::ParseResult parsed = app.parse(argc, argv);
    switch (parsed.kind) {
      case clrdx::ParseResult::Kind::Info:  // --help, --version
        std::cout << parsed.text << std::flush;
        return 0;
      case clrdx::ParseResult::Kind::Error:
        std::cerr << "clrdx: " << parsed.text << " (see clrdx --help)\n";
        return 2;
      case clrdx::ParseResult::Kind::Run:
        break;
    }
    app.validate(parsed.command);  // bad values are refused before any OpenCL work
    return dispatch(app, parsed.command);
  } catch (const rdx::ArgumentError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const rdx::UnsupportedError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const rdx::DeviceError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "clrdx: out of host memory (a smaller --count, or --input to stream a file)\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 1;
  }
}
