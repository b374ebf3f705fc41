// Internal: what a Context holds.
#pragma once
#include "programs.hpp"
#include "rdx/rdx.hpp"

namespace rdx {

struct Context::Impl {
  DeviceInfo info;
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  detail::ProgramCache programs;
};

}  // namespace rdx
