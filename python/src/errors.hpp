// librdx's exceptions as Python exceptions (errors.cpp registers the types and the translator).
#pragma once

namespace rdxpy {

// The OpenCL error codes that mean "out of memory" (allocation failure, out of resources, out
// of host memory): a ClError with one of them becomes rdx.DeviceMemoryError, a MemoryError.
bool is_out_of_memory(int cl_code);

}  // namespace rdxpy
