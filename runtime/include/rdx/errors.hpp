// librdx's exceptions: every failure reaches the caller as one of these, never as an abort.
#pragma once
#include <stdexcept>
#include <string>

namespace rdx {

// Base of every librdx exception.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A bad argument: unknown name, wrong type for an operator, bad work-group size, empty argmin...
struct ArgumentError : Error {
  using Error::Error;
};

// The request is valid but this device cannot run it (f64 without fp64, a missing extension).
struct UnsupportedError : Error {
  using Error::Error;
};

// No OpenCL platform or device matches the request.
struct DeviceError : Error {
  using Error::Error;
};

// An OpenCL call failed: the call's text and the error's name are in what().
struct ClError : Error {
  ClError(int code, std::string call, const std::string& detail = {});
  int code;
  std::string call;

 protected:
  struct Message {
    std::string text;
  };
  ClError(int code, std::string call, Message what);  // what() is `what` as it is
};

// A kernel failed to build: what() has the file, the options and the build log.
struct BuildError : ClError {
  BuildError(int code, std::string file, std::string options, std::string log);
  std::string file, options, log;

 protected:
  BuildError(const BuildError& build, Message what);  // the same build, another what()
};

// A build failed in an expression of a user's reduction (rdx/custom.hpp): what() names the
// expression, shows its text and the compiler's messages about it; log has the whole build log.
struct ExpressionError : BuildError {
  ExpressionError(const BuildError& build, std::string expression, std::string text,
                  std::string messages);
  std::string expression;  // which one: "map of field 'sum'"
  std::string text;        // the user's expression
  std::string messages;    // the compiler's lines about it
};

// The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL error <n>".
std::string cl_error_name(int code);

}  // namespace rdx
