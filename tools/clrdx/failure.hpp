// How clrdx and clrdx-mpi report an exception a command threw: one line and an exit code.
#pragma once
#include <exception>
#include <string>

namespace clrdx {

struct Failure {
  int code = 1;      // 2: bad input (the user can fix the command or the data); 1: run time
  std::string line;  // what to print after the program's name, without a newline
};

// ArgumentError, UnsupportedError, DeviceError and an expression that does not compile are bad
// input (2); out of host memory and every other exception are run-time failures (1).
Failure failure_of(const std::exception_ptr& e);

}  // namespace clrdx
