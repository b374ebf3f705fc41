// One reduction over several devices at once (docs/multidevice.md): host input split across the
// devices by their shares, each part copied and reduced on its own device, the parts concurrently,
// and the parts' results combined on the host in device order; or device-resident input given as
// one shard per device. Integer results, min, max and the bitwise operators are what one device
// gives; argmin/argmax return the global first index; float sums under Determinism AnyDevice and
// Exact are the same bits as on one device (the parts' exact sums are added as integers, then
// rounded once). Float sums under RunToRun combine rounded parts; float products are refused
// (UnsupportedError).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "rdx/context.hpp"
#include "rdx/device_info.hpp"
#include "rdx/reduce.hpp"

namespace rdx {

// The devices a list of selectors names, in order: comma-separated items, each "all" (every
// device), "gpu:all", "cpu:all" or "accelerator:all" (every device of that kind), or a selector
// of select_device (cpu, gpu, an index, P:D, part of a name). ArgumentError for an empty item or
// a device named twice, DeviceError for an item that names none.
std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& devices,
                                       std::string_view list);
// Whether a selector names a list (a comma, or an ":all" item) rather than one device.
bool is_device_list(std::string_view selector);

// The devices of one reduction, and each one's share of host input.
class DeviceGroup {
 public:
  // A Context per device of select_devices(list_devices(), selectors).
  explicit DeviceGroup(std::string_view selectors);
  // The app's Contexts (not owned: they outlive the group); none null, none twice.
  explicit DeviceGroup(std::vector<Context*> contexts);
  ~DeviceGroup();
  DeviceGroup(DeviceGroup&&) noexcept;
  DeviceGroup& operator=(DeviceGroup&&) noexcept;

  std::size_t size() const { return contexts_.size(); }
  Context& context(std::size_t k) const { return *contexts_.at(k); }
  // Each device's share of host input, summing to 1: in proportion to the devices' measured
  // host-input throughput (TuneEntry::host_mbps, which `clrdx tune` stores) when every device has
  // one, else equal; set_shares replaces them.
  const std::vector<double>& shares() const { return shares_; }
  // Positive finite weights, one per device (ArgumentError otherwise), made shares.
  void set_shares(std::span<const double> weights);

 private:
  std::vector<std::unique_ptr<Context>> owned_;
  std::vector<Context*> contexts_;
  std::vector<double> shares_;
};

// Shares from throughputs: proportional when every device has one (positive), else equal.
std::vector<double> shares_from_throughput(std::span<const std::optional<std::uint64_t>> mbps);

// Elements [first, first + n) of the input, reduced by device `device` of the group.
struct GroupPart {
  std::size_t device = 0;
  std::uint64_t first = 0, n = 0;
  Result result;  // its own result (argmin/argmax: the index within the part)
};

struct GroupResult {
  Scalar value;
  std::optional<std::uint64_t> index;  // argmin/argmax: the global first index
  std::vector<GroupPart> parts;        // the devices that had elements, in device order
};

// Host data: n elements split by g.shares() (contiguous parts in device order).
GroupResult reduce(DeviceGroup& g, Type type, const void* data, std::uint64_t n, Op op,
                   const Options& opts = {});

// Device-resident data: shards[k] (n elements of `type` from element `offset` of a buffer of
// device k's context on, as rdx::BufferAt) holds the input's k-th piece; g.size() shards
// (ArgumentError otherwise). An empty shard (n == 0) may have a null buffer (OpenCL has no buffer
// of 0 bytes); a buffer given is checked as any rdx::BufferAt.
struct Shard {
  cl::Buffer buffer;
  std::uint64_t n = 0;
  std::uint64_t offset = 0;
};
GroupResult reduce(DeviceGroup& g, Type type, std::span<const Shard> shards, Op op,
                   const Options& opts = {});

}  // namespace rdx
