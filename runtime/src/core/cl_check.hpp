// RDX_CHECK: every OpenCL call goes through it; a failure throws ClError with the call's text.
#pragma once
#include "rdx/context.hpp"  // CL/opencl.hpp as librdx configures it
#include "rdx/errors.hpp"

#define RDX_CHECK(call)                                                \
  do {                                                                 \
    const cl_int rdx_err_ = (call);                                    \
    if (rdx_err_ != CL_SUCCESS) throw ::rdx::ClError(rdx_err_, #call); \
  } while (0)

// For CLHPP constructors that report through an out-parameter: RDX_CHECK_OUT(err, "clCreateBuffer")
#define RDX_CHECK_OUT(err, what)                                  \
  do {                                                            \
    if ((err) != CL_SUCCESS) throw ::rdx::ClError((err), (what)); \
  } while (0)
