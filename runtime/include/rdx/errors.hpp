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
};

// A kernel failed to build: what() has the file, the options and the build log.
struct BuildError : ClError {
  BuildError(int code, std::string file, std::string options, std::string log);
  std::string file, options, log;
};

// The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "CL error <n>".
std::string cl_error_name(int code);

}  // namespace rdx
