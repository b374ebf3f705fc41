#include "rdx/errors.hpp"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

#include "core/text.hpp"

namespace rdx {

std::string cl_error_name(int code) {
  switch (code) {
#define RDX_CASE(x) \
  case x:           \
    return #x;
    RDX_CASE(CL_SUCCESS)
    RDX_CASE(CL_DEVICE_NOT_FOUND)
    RDX_CASE(CL_DEVICE_NOT_AVAILABLE)
    RDX_CASE(CL_COMPILER_NOT_AVAILABLE)
    RDX_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    RDX_CASE(CL_OUT_OF_RESOURCES)
    RDX_CASE(CL_OUT_OF_HOST_MEMORY)
    RDX_CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    RDX_CASE(CL_MEM_COPY_OVERLAP)
    RDX_CASE(CL_IMAGE_FORMAT_MISMATCH)
    RDX_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    RDX_CASE(CL_BUILD_PROGRAM_FAILURE)
    RDX_CASE(CL_MAP_FAILURE)
    RDX_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    RDX_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    RDX_CASE(CL_COMPILE_PROGRAM_FAILURE)
    RDX_CASE(CL_LINKER_NOT_AVAILABLE)
    RDX_CASE(CL_LINK_PROGRAM_FAILURE)
    RDX_CASE(CL_DEVICE_PARTITION_FAILED)
    RDX_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    RDX_CASE(CL_INVALID_VALUE)
    RDX_CASE(CL_INVALID_DEVICE_TYPE)
    RDX_CASE(CL_INVALID_PLATFORM)
    RDX_CASE(CL_INVALID_DEVICE)
    RDX_CASE(CL_INVALID_CONTEXT)
    RDX_CASE(CL_INVALID_QUEUE_PROPERTIES)
    RDX_CASE(CL_INVALID_COMMAND_QUEUE)
    RDX_CASE(CL_INVALID_HOST_PTR)
    RDX_CASE(CL_INVALID_MEM_OBJECT)
    RDX_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    RDX_CASE(CL_INVALID_IMAGE_SIZE)
    RDX_CASE(CL_INVALID_SAMPLER)
    RDX_CASE(CL_INVALID_BINARY)
    RDX_CASE(CL_INVALID_BUILD_OPTIONS)
    RDX_CASE(CL_INVALID_PROGRAM)
    RDX_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    RDX_CASE(CL_INVALID_KERNEL_NAME)
    RDX_CASE(CL_INVALID_KERNEL_DEFINITION)
    RDX_CASE(CL_INVALID_KERNEL)
    RDX_CASE(CL_INVALID_ARG_INDEX)
    RDX_CASE(CL_INVALID_ARG_VALUE)
    RDX_CASE(CL_INVALID_ARG_SIZE)
    RDX_CASE(CL_INVALID_KERNEL_ARGS)
    RDX_CASE(CL_INVALID_WORK_DIMENSION)
    RDX_CASE(CL_INVALID_WORK_GROUP_SIZE)
    RDX_CASE(CL_INVALID_WORK_ITEM_SIZE)
    RDX_CASE(CL_INVALID_GLOBAL_OFFSET)
    RDX_CASE(CL_INVALID_EVENT_WAIT_LIST)
    RDX_CASE(CL_INVALID_EVENT)
    RDX_CASE(CL_INVALID_OPERATION)
    RDX_CASE(CL_INVALID_GL_OBJECT)
    RDX_CASE(CL_INVALID_BUFFER_SIZE)
    RDX_CASE(CL_INVALID_MIP_LEVEL)
    RDX_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    RDX_CASE(CL_INVALID_PROPERTY)
    RDX_CASE(CL_INVALID_IMAGE_DESCRIPTOR)
    RDX_CASE(CL_INVALID_COMPILER_OPTIONS)
    RDX_CASE(CL_INVALID_LINKER_OPTIONS)
    RDX_CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef RDX_CASE
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "CL error " + std::to_string(code);
  }
}

namespace {

// What the out-of-memory codes mean for the user, who may not know them.
std::string hint(int c) {
  switch (c) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
      return " (the device is out of memory or resources)";
    case CL_OUT_OF_HOST_MEMORY:
      return " (the host is out of memory)";
    default:
      return "";
  }
}

}  // namespace

ClError::ClError(int c, std::string call_text, const std::string& detail)
    : Error(call_text + " failed: " + cl_error_name(c) + hint(c) +
            (detail.empty() ? "" : " (" + detail + ")")),
      code(c),
      call(std::move(call_text)) {}

ClError::ClError(int c, std::string call_text, Message what)
    : Error(what.text), code(c), call(std::move(call_text)) {}

BuildError::BuildError(const BuildError& b, Message what)
    : ClError(b.code, b.call, std::move(what)), file(b.file), options(b.options), log(b.log) {}

ExpressionError::ExpressionError(const BuildError& b, std::string which, std::string expr,
                                 std::string compiler)
    : BuildError(b, Message{"the " + which + " does not compile: `" + detail::printable(expr) +
                            "`\n" + compiler}),
      expression(std::move(which)),
      text(std::move(expr)),
      messages(std::move(compiler)) {}

BuildError::BuildError(int c, std::string f, std::string opts, std::string build_log)
    : ClError(c, "clBuildProgram(" + f + ")",
              "options: " + opts + "\n--- build log ---\n" + build_log),
      file(std::move(f)),
      options(std::move(opts)),
      log(std::move(build_log)) {}

}  // namespace rdx
