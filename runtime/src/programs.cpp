#include "programs.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cl_check.hpp"
#include "embedded_sources.hpp"

namespace rdx::detail {

std::string kernel_source(const std::string& file) {
  if (const char* dir = std::getenv("RDX_KERNEL_DIR"); dir && *dir) {
    const std::string path = std::string(dir) + "/" + file;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("RDX_KERNEL_DIR is set but " + path + " cannot be read");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  for (auto& s : embedded_sources())
    if (s.file == file) return std::string(s.text);
  throw Error("no kernel file '" + file + "' is embedded in librdx");
}

std::string program_source(const std::string& file) {
  // common.h first; each .cl file includes it only when compiled alone (RDX_COMMON_H guard).
  return kernel_source("common.h") + "\n#line 1\n" + kernel_source(file);
}

cl::Program ProgramCache::get(const cl::Context& ctx, const cl::Device& dev,
                              const std::string& file, const std::string& options) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto key = std::make_pair(file, options);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;

  const std::string src = program_source(file);
  cl_int err = CL_SUCCESS;
  cl::Program prog(ctx, src, false, &err);
  RDX_CHECK_OUT(err, "clCreateProgramWithSource(" + file + ")");
  err = prog.build(std::vector<cl::Device>{dev}, options.c_str());
  if (err != CL_SUCCESS) {
    std::string log;
    prog.getBuildInfo(dev, CL_PROGRAM_BUILD_LOG, &log);
    throw BuildError(err, file, options, log);
  }
  programs_.emplace(key, prog);
  return prog;
}

}  // namespace rdx::detail
