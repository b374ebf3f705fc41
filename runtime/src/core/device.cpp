// Device enumeration (DeviceInfo snapshots) and the selector syntax shared by library and CLI.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "core/cl_check.hpp"
#include "core/device_handles.hpp"
#include "core/text.hpp"

namespace rdx {
namespace {

using detail::lower;
using detail::printable;

bool parse_uint(std::string_view s, std::size_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

template <class T>
T info(const cl::Device& d, cl_device_info what, const char* name) {
  T v{};
  const cl_int err = d.getInfo(what, &v);
  if (err != CL_SUCCESS) throw ClError(err, std::string("clGetDeviceInfo(") + name + ")");
  return v;
}
#define RDX_INFO(T, d, what) info<T>(d, what, #what)

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

DeviceInfo describe(const cl::Platform& p, const cl::Device& d) {
  DeviceInfo i;
  std::string s;
  RDX_CHECK(p.getInfo(CL_PLATFORM_NAME, &s));
  i.platform = trim(s);
  RDX_CHECK(p.getInfo(CL_PLATFORM_VERSION, &s));
  i.platform_version = trim(s);
  i.name = trim(RDX_INFO(std::string, d, CL_DEVICE_NAME));
  i.vendor = trim(RDX_INFO(std::string, d, CL_DEVICE_VENDOR));
  i.version = trim(RDX_INFO(std::string, d, CL_DEVICE_VERSION));
  i.driver = trim(RDX_INFO(std::string, d, CL_DRIVER_VERSION));
  i.opencl_c = trim(RDX_INFO(std::string, d, CL_DEVICE_OPENCL_C_VERSION));
  i.extensions = trim(RDX_INFO(std::string, d, CL_DEVICE_EXTENSIONS));
  const auto type = RDX_INFO(cl_device_type, d, CL_DEVICE_TYPE);
  i.kind = (type & CL_DEVICE_TYPE_GPU)           ? DeviceKind::GPU
           : (type & CL_DEVICE_TYPE_CPU)         ? DeviceKind::CPU
           : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DeviceKind::Accelerator
                                                 : DeviceKind::Other;
  i.compute_units = RDX_INFO(cl_uint, d, CL_DEVICE_MAX_COMPUTE_UNITS);
  i.max_work_group = RDX_INFO(size_t, d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  i.local_mem = RDX_INFO(cl_ulong, d, CL_DEVICE_LOCAL_MEM_SIZE);
  i.global_mem = RDX_INFO(cl_ulong, d, CL_DEVICE_GLOBAL_MEM_SIZE);
  i.max_alloc = RDX_INFO(cl_ulong, d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  i.base_align_bytes =
      std::max<cl_uint>(RDX_INFO(cl_uint, d, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8, 1);
  i.fp64 = i.has_extension("cl_khr_fp64") ||
           RDX_INFO(cl_device_fp_config, d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  // A SIMD register: the widest native vector of any type, in bytes (PoCL on an AVX2 CPU reports
  // 16 chars but 8 floats).
  struct Width {
    cl_device_info what;
    unsigned bytes;
    const char* name;
  };
#define RDX_WIDTH(T, bytes)                                                       \
  Width {                                                                         \
    CL_DEVICE_NATIVE_VECTOR_WIDTH_##T, bytes, "CL_DEVICE_NATIVE_VECTOR_WIDTH_" #T \
  }
  for (const Width& w : {RDX_WIDTH(CHAR, 1), RDX_WIDTH(SHORT, 2), RDX_WIDTH(INT, 4),
                         RDX_WIDTH(LONG, 8), RDX_WIDTH(FLOAT, 4), RDX_WIDTH(DOUBLE, 8)})
    i.native_vector_bytes =
        std::max(i.native_vector_bytes, info<cl_uint>(d, w.what, w.name) * w.bytes);
#undef RDX_WIDTH
  i.int64_atomics = i.has_extension("cl_khr_int64_base_atomics");
  i.subgroups = i.has_extension("cl_khr_subgroups");
  return i;
}

}  // namespace

bool DeviceInfo::compiles_ptx() const {
  return platform == "NVIDIA CUDA";
}

bool DeviceInfo::has_extension(const std::string& ext) const {
  std::size_t pos = 0;
  while ((pos = extensions.find(ext, pos)) != std::string::npos) {
    const std::size_t end = pos + ext.size();
    const bool starts = pos == 0 || extensions[pos - 1] == ' ';
    const bool ends = end == extensions.size() || extensions[end] == ' ';
    if (starts && ends) return true;
    pos = end;
  }
  return false;
}

std::string_view name(DeviceKind k) {
  switch (k) {
    case DeviceKind::CPU:
      return "cpu";
    case DeviceKind::GPU:
      return "gpu";
    case DeviceKind::Accelerator:
      return "accelerator";
    case DeviceKind::Other:
      return "other";
  }
  return "other";  // not a DeviceKind
}

namespace detail {

DeviceInfo describe_device(const cl::Platform& p, const cl::Device& d) {
  DeviceInfo i = describe(p, d);
  i.index = SIZE_MAX;
  return i;
}

}  // namespace detail

namespace detail {

std::vector<DeviceHandle> enumerate_devices() {
  std::vector<cl::Platform> platforms;
  const cl_int err = cl::Platform::get(&platforms);
  // The ICD loader reports "no platform" as an error; to us it is an empty list.
  if (err == CL_PLATFORM_NOT_FOUND_KHR || err == CL_DEVICE_NOT_FOUND) return {};
  if (err != CL_SUCCESS) throw ClError(err, "clGetPlatformIDs");
  std::vector<DeviceHandle> out;
  for (unsigned p = 0; p < platforms.size(); ++p) {
    std::vector<cl::Device> devs;
    const cl_int e = platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devs);
    if (e == CL_DEVICE_NOT_FOUND) continue;
    if (e != CL_SUCCESS) throw ClError(e, "clGetDeviceIDs");
    for (unsigned d = 0; d < devs.size(); ++d) {
      DeviceHandle h{describe(platforms[p], devs[d]), platforms[p], devs[d]};
      h.info.index = out.size();
      h.info.platform_index = p;
      h.info.device_index = d;
      out.push_back(std::move(h));
    }
  }
  return out;
}

}  // namespace detail

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> r;
  for (auto& h : detail::enumerate_devices())
    r.push_back(h.info);
  return r;
}

const DeviceInfo& select_device(const std::vector<DeviceInfo>& devices, std::string_view sel) {
  if (devices.empty())
    throw DeviceError("no OpenCL device found (is an ICD, e.g. PoCL, installed?)");
  const std::string s = lower(sel);
  auto first_of = [&](DeviceKind k) -> const DeviceInfo* {
    for (auto& d : devices)
      if (d.kind == k) return &d;
    return nullptr;
  };
  if (s.empty()) {
    const DeviceInfo* gpu = first_of(DeviceKind::GPU);
    return gpu ? *gpu : devices.front();
  }
  if (s == "cpu" || s == "gpu" || s == "accelerator") {
    const auto k = s == "cpu"   ? DeviceKind::CPU
                   : s == "gpu" ? DeviceKind::GPU
                                : DeviceKind::Accelerator;
    if (const DeviceInfo* d = first_of(k)) return *d;
    throw DeviceError("no " + s + " device found (run `clrdx devices` to list them)");  // s: a kind
  }
  std::size_t idx = 0, p = 0, d = 0;
  if (parse_uint(s, idx)) {
    if (idx < devices.size()) return devices[idx];
    throw DeviceError("device index " + printable(s) + " out of range: there are " +
                      std::to_string(devices.size()) + " devices (0.." +
                      std::to_string(devices.size() - 1) + ")");
  }
  if (const auto colon = s.find(':'); colon != std::string::npos &&
                                      parse_uint(std::string_view(s).substr(0, colon), p) &&
                                      parse_uint(std::string_view(s).substr(colon + 1), d)) {
    for (auto& dev : devices)
      if (dev.platform_index == p && dev.device_index == d) return dev;
    throw DeviceError("no device " + printable(s) +
                      " (platform:device); run `clrdx devices` to list them");
  }
  for (auto& dev : devices)
    if (lower(dev.name).find(s) != std::string::npos) return dev;
  // Then the platform: its name ("Intel(R) OpenCL", "NVIDIA CUDA") or version ("OpenCL 3.0
  // PoCL ...": PoCL's platform name does not say PoCL).
  for (auto& dev : devices)
    if (lower(dev.platform).find(s) != std::string::npos ||
        lower(dev.platform_version).find(s) != std::string::npos)
      return dev;
  throw DeviceError("no device matches '" + printable(sel) +
                    "' (expected cpu, gpu, an index, P:D or part of a device or platform name; "
                    "run `clrdx devices` to list them)");
}

}  // namespace rdx
