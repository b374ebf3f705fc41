#include "core/programs.hpp"

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "core/format.hpp"

#include "core/cl_check.hpp"
#include "core/embedded_sources.hpp"

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

namespace {

// Replaces each `#include "name"` line (other than common.h) by cl/<name>, once per name, so
// kernels can share headers and still compile alone with -I cl.
std::string inline_includes(const std::string& text, std::set<std::string>& seen) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t");
    const auto open = line.find('"');
    const auto close = open == std::string::npos ? open : line.find('"', open + 1);
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0 &&
        close != std::string::npos) {
      const std::string name = line.substr(open + 1, close - open - 1);
      if (name != "common.h") {
        if (seen.insert(name).second) out += inline_includes(kernel_source(name), seen) + "\n";
        continue;
      }
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string program_source(const std::string& file, const std::string& definitions) {
  if (file == "empty.cl") return kernel_source(file);  // needs no common.h
  // common.h first; each .cl file includes it only when compiled alone (RDX_COMMON_H guard).
  std::set<std::string> seen;
  // #line: compiler messages name common.h and the file with their own line numbers (a user's
  // definitions hold #line directives of their own, ops/user_reduction.cpp).
  return definitions + "#line 1 \"common.h\"\n" + kernel_source("common.h") + "\n#line 1 \"" +
         file + "\"\n" + inline_includes(kernel_source(file), seen);
}

namespace {

// What a stored binary depends on: source, options, platform, device and driver.
std::string binary_key(const cl::Device& dev, const std::string& src, const std::string& options) {
  cl::Platform platform;
  std::string pname, pversion, dname, dversion, driver;
  dev.getInfo(CL_DEVICE_PLATFORM, &platform);
  platform.getInfo(CL_PLATFORM_NAME, &pname);
  platform.getInfo(CL_PLATFORM_VERSION, &pversion);
  dev.getInfo(CL_DEVICE_NAME, &dname);
  dev.getInfo(CL_DEVICE_VERSION, &dversion);
  dev.getInfo(CL_DRIVER_VERSION, &driver);
  // PoCL compiles differently per work-group method: a binary built under one is not the other's.
  const char* method = std::getenv("POCL_WORK_GROUP_METHOD");
  return detail::format("src={:016x} opts={} platform={} {} device={} {} driver={} pocl_wg={}",
                        fnv1a(src), options, pname, pversion, dname, dversion, driver,
                        method ? method : "");
}

}  // namespace

cl::Program ProgramCache::get(const cl::Context& ctx, const cl::Device& dev,
                              const std::string& file, const std::string& definitions,
                              const std::string& options) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto key = std::make_tuple(file, definitions, options);
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;

  const std::string src = program_source(file, definitions);
  // -w: a build's warnings are never shown (a failed build's log shows its errors), and PoCL's
  // compiler prints their count on the process's stderr ("8 warnings generated.": notes on its
  // own built-ins' 16-wide vector arguments), which the library never writes to.
  const std::string opts = options.empty() ? "-w" : options + " -w";
  const std::string disk_key = binary_key(dev, src, opts);
  if (auto bin = disk_.load(disk_key)) {
    cl_int err = CL_SUCCESS;
    cl::Program prog(ctx, std::vector<cl::Device>{dev}, cl::Program::Binaries{*bin}, nullptr, &err);
    if (err == CL_SUCCESS && prog.build(std::vector<cl::Device>{dev}, opts.c_str()) == CL_SUCCESS) {
      programs_.emplace(key, prog);
      return prog;
    }  // a stale or foreign binary: build from source below, and replace it
  }
  cl_int err = CL_SUCCESS;
  cl::Program prog(ctx, src, false, &err);
  RDX_CHECK_OUT(err, "clCreateProgramWithSource(" + file + ")");
  err = prog.build(std::vector<cl::Device>{dev}, opts.c_str());
  if (err != CL_SUCCESS) {
    std::string log;
    prog.getBuildInfo(dev, CL_PROGRAM_BUILD_LOG, &log);
    throw BuildError(err, file, opts, log);
  }
  programs_.emplace(key, prog);
  std::vector<std::vector<unsigned char>> bins;
  if (disk_.on() && prog.getInfo(CL_PROGRAM_BINARIES, &bins) == CL_SUCCESS && bins.size() == 1)
    disk_.store(disk_key, bins[0]);
  return prog;
}

}  // namespace rdx::detail
