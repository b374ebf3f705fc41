// Helpers shared by the device test programs (rdx_device_tests, rdx_stream_tests).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <unistd.h>

#include "rdx/context.hpp"

namespace rdx_test {

// A buffer of ctx's context holding a copy of `bytes` bytes at p (or uninitialised).
inline cl::Buffer buffer(rdx::Context& ctx, std::size_t bytes, const void* p = nullptr) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.cl_context(), CL_MEM_READ_WRITE | (p ? CL_MEM_COPY_HOST_PTR : 0), bytes,
               const_cast<void*>(p), &err);
  REQUIRE(err == CL_SUCCESS);
  return b;
}

// The device the tests run on: $RDX_DEVICE, else PoCL's CPU device.
inline std::string device() {
  const char* v = std::getenv("RDX_DEVICE");
  return v && *v ? v : "cpu";
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A copy of cl/ and its subfolders (RDX_CL_DIR, which the test target defines) in a temporary
// folder that RDX_KERNEL_DIR points to while it lives, for kernels edited to fail.
struct KernelDirCopy {
  std::filesystem::path dir;
  KernelDirCopy() {
    dir = std::filesystem::temp_directory_path() /
          ("rdx_kernels_" + std::to_string(::getpid()) + "_" +
           std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(dir);
    std::filesystem::copy(RDX_CL_DIR, dir, std::filesystem::copy_options::recursive);
    setenv("RDX_KERNEL_DIR", dir.c_str(), 1);
  }
  KernelDirCopy(const KernelDirCopy&) = delete;
  KernelDirCopy& operator=(const KernelDirCopy&) = delete;
  ~KernelDirCopy() {
    unsetenv("RDX_KERNEL_DIR");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  // Replaces the first `from` in `file` with `to`; the test fails when `from` is not there.
  void replace(const std::string& file, const std::string& from, const std::string& to) {
    std::string text = read_file(dir / file);
    const auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    text.replace(pos, from.size(), to);
    std::ofstream(dir / file) << text;
  }
};

}  // namespace rdx_test
