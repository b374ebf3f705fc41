// Internal: DeviceInfo snapshots together with the OpenCL handles they describe.
#pragma once
#include <vector>

#include "rdx/context.hpp"
#include "rdx/device_info.hpp"

namespace rdx::detail {

struct DeviceHandle {
  DeviceInfo info;
  cl::Platform platform;
  cl::Device device;
};

std::vector<DeviceHandle> enumerate_devices();

// The DeviceInfo of one device of platform p (index SIZE_MAX: not from enumerate_devices).
DeviceInfo describe_device(const cl::Platform& p, const cl::Device& d);

}  // namespace rdx::detail
