// Internal: the definitions that specialise the kernels for one (element type, accumulator,
// operator), generated from the type table and the operator descriptors: the one place the
// kernels learn what T, ACC and the operator are. cl/common.h documents each name.
#pragma once
#include <string>

#include "rdx/types.hpp"

namespace rdx::detail {

// OpenCL C text (#define lines) that goes before cl/common.h in every program of this case.
// The same string object for the same arguments (built once per case).
const std::string& cl_definitions(Type type, Type acc, Op op);

}  // namespace rdx::detail
