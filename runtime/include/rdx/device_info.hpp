// What librdx knows about a device: a plain snapshot, so plans can be computed without OpenCL.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rdx {

enum class DeviceKind { CPU, GPU, Accelerator, Other };

struct DeviceInfo {
  std::size_t index = 0;        // position in list_devices(), the `clrdx devices` index
  unsigned platform_index = 0;  // P of the P:D selector
  unsigned device_index = 0;    // D of the P:D selector
  std::string platform, platform_version, name, vendor, version, driver, opencl_c;
  DeviceKind kind = DeviceKind::Other;
  std::uint32_t compute_units = 1;
  std::size_t max_work_group = 1;
  std::uint64_t local_mem = 0, global_mem = 0, max_alloc = 0;
  std::uint32_t native_vector_bytes = 0;  // the widest CL_DEVICE_NATIVE_VECTOR_WIDTH_*, in bytes
  std::uint32_t base_align_bytes = 1;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes: a buffer's start
  bool fp64 = false;                   // cl_khr_fp64 or a non-zero double config
  bool int64_atomics = false;          // cl_khr_int64_base_atomics
  bool subgroups = false;              // cl_khr_subgroups or OpenCL 3.0 sub-groups
  std::string extensions;

  bool has_extension(const std::string& ext) const;
  // NVIDIA's OpenCL (platform "NVIDIA CUDA"): kernels may hold inline PTX (asm: atom.global.add,
  // shfl.sync), and work-items run in warps of 32 in the order of their local id.
  bool compiles_ptx() const;
};

std::string_view name(DeviceKind k);

// Every device of every platform, in the order `clrdx devices` numbers them.
std::vector<DeviceInfo> list_devices();

// Picks a device by selector: "" (RDX_DEVICE, else the first GPU, else the first device), "cpu",
// "gpu", an index, "P:D", or a case-insensitive substring of the device name, else of the
// platform's name or version (the first device of the first platform that matches: "intel",
// "pocl", "nvidia").
// Pure: tested without OpenCL. Throws DeviceError when nothing matches.
const DeviceInfo& select_device(const std::vector<DeviceInfo>& devices, std::string_view selector);

}  // namespace rdx
