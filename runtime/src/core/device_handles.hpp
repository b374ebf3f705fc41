// Internal: DeviceInfo snapshots together with the OpenCL handles they describe.
#pragma once
#include <vector>

#include "rdx/rdx.hpp"

namespace rdx::detail {

struct DeviceHandle {
  DeviceInfo info;
  cl::Platform platform;
  cl::Device device;
};

std::vector<DeviceHandle> enumerate_devices();

}  // namespace rdx::detail
