// The device group entry points (rdx/multi.hpp): the devices a list names, the input's parts, each
// part reduced on its device on a thread of its own, and the parts combined in device order.
#include "rdx/multi.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <functional>
#include <future>
#include <string>

#include "exec/exec.hpp"
#include "exec/run_exact.hpp"
#include "exec/run_plan.hpp"
#include "ops/exact_sum.hpp"
#include "plan/request.hpp"

namespace rdx {
namespace {

std::string lower_trimmed(std::string_view s) {
  std::string r;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::vector<std::string> items_of(std::string_view list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    items.push_back(lower_trimmed(list.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

// One part of a group's reduction, as a thread computes it.
struct PartRun {
  std::size_t device = 0;
  std::uint64_t first = 0, n = 0;
  const void* host = nullptr;         // host data: the part's first element
  const cl::Buffer* shard = nullptr;  // device data
};

struct PartOut {
  Result result;
  detail::ExactSum sum;  // the exact form's
};

GroupResult run_parts(DeviceGroup& g, Type type, Op op, const Options& opts,
                      std::vector<PartRun> parts, std::uint64_t total) {
  const DeviceInfo& dev0 = g.context(0).device_info();
  const Type acc = detail::checked_acc(dev0, type, op, opts.acc);
  if (op == Op::Prod && is_float(acc))
    throw UnsupportedError(
        "a device group does not multiply floats (their parts' rules of zeros and infinities do "
        "not combine after rounding): reduce them on one device");
  const bool exact = detail::exact_form(opts.determinism, type, acc, op);
  // Every part's plan first, on this thread: a request a device refuses fails before any work.
  std::vector<Plan> plans;
  for (const PartRun& p : parts) {
    const Context& ctx = g.context(p.device);
    plans.push_back(make_plan(ctx.device_info(), type, op, p.n, opts, ctx.tuning()));
  }
  std::vector<std::future<PartOut>> running;
  for (std::size_t k = 0; k < parts.size(); ++k)
    running.push_back(std::async(std::launch::async, [&, k]() -> PartOut {
      const PartRun& p = parts[k];
      Context& ctx = g.context(p.device);
      if (exact) {
        double seconds = 0;
        PartOut out;
        out.sum = detail::exact_total(ctx, plans[k], p.host, p.shard, p.n, opts.profile, &seconds);
        out.result = detail::rounded_result(out.sum, plans[k], p.n, seconds);
        return out;
      }
      return {p.shard ? reduce(ctx, type, *p.shard, p.n, op, opts)
                      : reduce(ctx, type, p.host, p.n, op, opts),
              {}};
    }));
  // Every thread ends before the first error (in device order) is rethrown.
  std::vector<PartOut> outs;
  std::exception_ptr error;
  for (auto& f : running) {
    try {
      outs.push_back(f.get());
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);

  GroupResult r;
  if (parts.empty()) {  // no elements: what one device gives
    const Result empty = reduce(g.context(0), type, static_cast<const void*>(nullptr), 0, op, opts);
    r.value = empty.value;
    r.index = empty.index;
    return r;
  }
  for (std::size_t k = 0; k < parts.size(); ++k)
    r.parts.push_back({parts[k].device, parts[k].first, parts[k].n, outs[k].result});
  if (exact) {
    detail::ExactSum sum = detail::exact_zero(type);
    for (const PartOut& o : outs)
      detail::add_exact(sum, o.sum);
    r.value = detail::round_exact(sum, type, acc, total);
    return r;
  }
  // In device order, each part's index made global.
  const auto outcome = [&](std::size_t k) {
    const Result& res = outs[k].result;
    return detail::Outcome{
        res.value,
        res.index ? std::optional<std::uint64_t>(*res.index + parts[k].first) : std::nullopt};
  };
  detail::Outcome all = outcome(0);
  for (std::size_t k = 1; k < parts.size(); ++k)
    all = detail::combine_outcomes(plans[0], all, outcome(k));
  r.value = all.value;
  r.index = all.index;
  return r;
}

}  // namespace

bool is_device_list(std::string_view selector) {
  if (selector.find(',') != std::string_view::npos) return true;
  const std::string s = lower_trimmed(selector);
  return s == "all" || (s.size() > 4 && s.compare(s.size() - 4, 4, ":all") == 0);
}

std::vector<DeviceInfo> select_devices(const std::vector<DeviceInfo>& devices,
                                       std::string_view list) {
  std::vector<DeviceInfo> out;
  const auto add = [&](const DeviceInfo& d, const std::string& item) {
    for (const DeviceInfo& o : out)
      if (o.index == d.index)
        throw ArgumentError(fmt::format("devices '{}': device {} ({}) is named twice (by '{}')",
                                        list, d.index, d.name, item));
    out.push_back(d);
  };
  for (const std::string& item : items_of(list)) {
    if (item.empty()) throw ArgumentError(fmt::format("devices '{}': an empty item", list));
    if (item == "all") {
      if (devices.empty()) throw DeviceError("no OpenCL device found");
      for (const DeviceInfo& d : devices)
        add(d, item);
      continue;
    }
    if (item.size() > 4 && item.compare(item.size() - 4, 4, ":all") == 0) {
      const std::string kind = item.substr(0, item.size() - 4);
      bool any = false;
      for (const DeviceInfo& d : devices)
        if (name(d.kind) == kind) {
          add(d, item);
          any = true;
        }
      if (!any)
        throw DeviceError(
            fmt::format("no {} device found for '{}' (run `clrdx devices`)", kind, item));
      continue;
    }
    add(select_device(devices, item), item);
  }
  return out;
}

DeviceGroup::DeviceGroup(std::string_view selectors) {
  for (const DeviceInfo& d : select_devices(list_devices(), selectors)) {
    owned_.push_back(std::make_unique<Context>(std::to_string(d.index)));
    contexts_.push_back(owned_.back().get());
  }
  shares_.assign(contexts_.size(), 1.0 / static_cast<double>(contexts_.size()));
}

DeviceGroup::DeviceGroup(std::vector<Context*> contexts) : contexts_(std::move(contexts)) {
  if (contexts_.empty()) throw ArgumentError("DeviceGroup: no contexts");
  for (std::size_t k = 0; k < contexts_.size(); ++k) {
    if (!contexts_[k]) throw ArgumentError(fmt::format("DeviceGroup: context {} is null", k));
    for (std::size_t j = 0; j < k; ++j)
      if (contexts_[j] == contexts_[k])
        throw ArgumentError(fmt::format("DeviceGroup: contexts {} and {} are the same", j, k));
  }
  shares_.assign(contexts_.size(), 1.0 / static_cast<double>(contexts_.size()));
}

DeviceGroup::~DeviceGroup() = default;
DeviceGroup::DeviceGroup(DeviceGroup&&) noexcept = default;
DeviceGroup& DeviceGroup::operator=(DeviceGroup&&) noexcept = default;

void DeviceGroup::set_shares(std::span<const double> weights) {
  if (weights.size() != contexts_.size())
    throw ArgumentError(
        fmt::format("set_shares: {} weights for {} devices", weights.size(), contexts_.size()));
  double sum = 0;
  for (double w : weights) {
    if (!(w > 0) || !std::isfinite(w))
      throw ArgumentError(fmt::format("set_shares: weight {} is not positive and finite", w));
    sum += w;
  }
  for (std::size_t k = 0; k < weights.size(); ++k)
    shares_[k] = weights[k] / sum;
}

GroupResult reduce(DeviceGroup& g, Type type, const void* data, std::uint64_t n, Op op,
                   const Options& opts) {
  if (n && !data) throw ArgumentError("reduce: data is null but n > 0");
  detail::byte_size(type, n);  // throws when n elements overflow a byte count
  std::vector<PartRun> parts;
  long double cumulative = 0;
  std::uint64_t first = 0;
  for (std::size_t k = 0; k < g.size(); ++k) {
    cumulative += g.shares()[k];
    const std::uint64_t end =
        k + 1 == g.size()
            ? n
            : std::min<std::uint64_t>(n, static_cast<std::uint64_t>(
                                             std::floor(cumulative * static_cast<long double>(n))));
    if (end > first)
      parts.push_back({k, first, end - first,
                       static_cast<const unsigned char*>(data) + detail::byte_size(type, first),
                       nullptr});
    first = std::max(first, end);
  }
  return run_parts(g, type, op, opts, std::move(parts), n);
}

GroupResult reduce(DeviceGroup& g, Type type, std::span<const Shard> shards, Op op,
                   const Options& opts) {
  if (shards.size() != g.size())
    throw ArgumentError(
        fmt::format("reduce: {} shards for a group of {} devices", shards.size(), g.size()));
  std::vector<PartRun> parts;
  std::uint64_t first = 0;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    if (shards[k].n) {
      detail::check_device_input(g.context(k), shards[k].buffer, type, shards[k].n,
                                 fmt::format("reduce (shard {})", k).c_str());
      parts.push_back({k, first, shards[k].n, nullptr, &shards[k].buffer});
    }
    if (first > ~std::uint64_t{0} - shards[k].n)
      throw ArgumentError("reduce: the shards' lengths overflow 64 bits");
    first += shards[k].n;
  }
  return run_parts(g, type, op, opts, std::move(parts), first);
}

}  // namespace rdx
