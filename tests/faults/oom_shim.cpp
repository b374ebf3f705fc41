/* Test-only: makes the OpenCL device look out of memory. Preloaded (LD_PRELOAD) in front of the
 * ICD loader, it fails every clCreateBuffer of more than $RDX_FAKE_OOM_ABOVE bytes with
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, what a device that has run out of memory reports; smaller
 * buffers, and every buffer while the variable is unset, go to the real driver. PoCL's CPU device
 * cannot be filled up safely on a shared CI machine (POCL_MEMORY_LIMIT only changes what it
 * reports), so this is how the tests reach librdx's and clrdx's out-of-memory paths. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>

#include <cstdlib>

using create_buffer_fn = cl_mem (*)(cl_context, cl_mem_flags, size_t, void*, cl_int*);

extern "C" CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags,
                                                          size_t size, void* host_ptr,
                                                          cl_int* errcode_ret) {
  const char* limit = std::getenv("RDX_FAKE_OOM_ABOVE");
  if (limit && *limit && size > std::strtoull(limit, nullptr, 10)) {
    if (errcode_ret) *errcode_ret = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return nullptr;
  }
  static const auto real = reinterpret_cast<create_buffer_fn>(dlsym(RTLD_NEXT, "clCreateBuffer"));
  return real(context, flags, size, host_ptr, errcode_ret);
}
