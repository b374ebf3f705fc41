// The device group entry points (rdx/multi.hpp): the devices a list names, the input's parts, each
// part reduced on its device (device-resident parts enqueued from one thread where their plans
// allow, otherwise each on a thread of its own), and the parts combined in device order.
#include "rdx/multi.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <functional>
#include <future>
#include <string>

#include "core/text.hpp"
#include "dispatch/partial_access.hpp"
#include "dispatch/partial_later.hpp"
#include "dispatch/run_plan.hpp"
#include "exec/wait_gate.hpp"
#include "rdx/partial.hpp"

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
  const void* host = nullptr;    // host data: the part's first element
  const Shard* shard = nullptr;  // device data
};

// Device-resident parts whose plans run in two steps (dispatch/partial_later.hpp): every part's
// work enqueued from this thread, in device order, then each waited for.
std::vector<Partial> enqueued_parts(DeviceGroup& g, const std::vector<PartRun>& parts,
                                    const std::vector<Plan>& plans, bool profile) {
  std::vector<std::function<Partial()>> later;  // dropped on an error: each waits for its device
  for (std::size_t k = 0; k < parts.size(); ++k)
    later.push_back(detail::enqueue_partial(
        g.context(parts[k].device), plans[k],
        BufferAt(parts[k].shard->buffer, parts[k].shard->offset), parts[k].n, profile));
  std::vector<Partial> outs;
  for (auto& f : later)
    outs.push_back(f());
  return outs;
}

// Each part on a thread of its own (reduce_partial): host parts, and plans without a two-step
// form.
std::vector<Partial> threaded_parts(DeviceGroup& g, Type type, Op op, const Options& opts,
                                    const std::vector<PartRun>& parts) {
  // Every part enqueues its work before any waits for its result (exec/wait_gate.hpp).
  detail::WaitGate gate(static_cast<std::ptrdiff_t>(parts.size()));
  std::vector<std::future<Partial>> running;
  for (std::size_t k = 0; k < parts.size(); ++k)
    try {
      running.push_back(std::async(std::launch::async, [&, k]() -> Partial {
        const PartRun& p = parts[k];
        Context& ctx = g.context(p.device);
        detail::WaitGate::enter(&gate);
        struct Leave {
          ~Leave() { detail::WaitGate::leave(); }
        } leave;
        return p.shard ? reduce_partial(ctx, type, BufferAt(p.shard->buffer, p.shard->offset), p.n,
                                        op, opts)
                       : reduce_partial(ctx, type, p.host, p.n, op, opts);
      }));
    } catch (...) {
      // No thread for this part and the ones after it: the started parts must not wait for them.
      gate.abandon(static_cast<std::ptrdiff_t>(parts.size() - k));
      throw;
    }
  // Every thread ends before the first error (in device order) is rethrown.
  std::vector<Partial> outs;
  std::exception_ptr error;
  for (auto& f : running) {
    try {
      outs.push_back(f.get());
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  return outs;
}

GroupResult run_parts(DeviceGroup& g, Type type, Op op, const Options& opts,
                      std::vector<PartRun> parts) {
  // Every part's plan first, on this thread: a request a device refuses fails before any work.
  std::vector<Plan> plans;
  bool enqueued = true;
  for (const PartRun& p : parts) {
    const Context& ctx = g.context(p.device);
    plans.push_back(make_plan(ctx.device_info(), type, op, p.n, opts, ctx.tuning()));
    detail::check_partial_op(plans.back());
    enqueued = enqueued && p.shard && detail::enqueues(plans.back());
  }
  const std::vector<Partial> outs = enqueued ? enqueued_parts(g, parts, plans, opts.profile)
                                             : threaded_parts(g, type, op, opts, parts);

  // In device order: the combined state counts indexes from the first part's first element.
  Partial all = reduce_partial(g.context(0), type, static_cast<const void*>(nullptr), 0, op, opts);
  GroupResult r;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    // A part's own result (its nanargmin may be all NaN where the whole is not: unchecked).
    Result part = detail::PartialAccess::finished(outs[k]);
    part.value = result_value(part.plan.op, part.plan.type, part.value);
    r.parts.push_back({parts[k].device, parts[k].first, parts[k].n, part});
    all = combine(all, outs[k]);
  }
  const Result whole = finish(all);  // no elements: what one device gives
  r.value = whole.value;
  r.index = whole.index;
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
        throw ArgumentError(detail::format("devices '{}': device {} ({}) is named twice (by '{}')",
                                           detail::printable(list), d.index, d.name,
                                           detail::printable(item)));
    out.push_back(d);
  };
  for (const std::string& item : items_of(list)) {
    if (item.empty())
      throw ArgumentError(detail::format("devices '{}': an empty item", detail::printable(list)));
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
        throw DeviceError(detail::format("no {} device found for '{}' (run `clrdx devices`)",
                                         detail::printable(kind), detail::printable(item)));
      continue;
    }
    add(select_device(devices, item), item);
  }
  return out;
}

std::vector<double> shares_from_throughput(std::span<const std::optional<std::uint64_t>> mbps) {
  double sum = 0;
  bool all = !mbps.empty();
  for (const auto& m : mbps) {
    all = all && m && *m > 0;
    if (m) sum += static_cast<double>(*m);
  }
  std::vector<double> shares;
  for (const auto& m : mbps)
    shares.push_back(all ? static_cast<double>(*m) / sum : 1.0 / static_cast<double>(mbps.size()));
  return shares;
}

namespace {

// The group's shares from its devices' tuning tables.
std::vector<double> measured_shares(const std::vector<Context*>& contexts) {
  std::vector<std::optional<std::uint64_t>> mbps;
  for (const Context* c : contexts)
    mbps.push_back(resolve_host_mbps(c->tuning(), c->device_info()));
  return shares_from_throughput(mbps);
}

}  // namespace

DeviceGroup::DeviceGroup(std::string_view selectors) {
  for (const DeviceInfo& d : select_devices(list_devices(), selectors)) {
    owned_.push_back(std::make_unique<Context>(std::to_string(d.index)));
    contexts_.push_back(owned_.back().get());
  }
  shares_ = measured_shares(contexts_);
}

DeviceGroup::DeviceGroup(std::vector<Context*> contexts) : contexts_(std::move(contexts)) {
  if (contexts_.empty()) throw ArgumentError("DeviceGroup: no contexts");
  for (std::size_t k = 0; k < contexts_.size(); ++k) {
    if (!contexts_[k]) throw ArgumentError(detail::format("DeviceGroup: context {} is null", k));
    for (std::size_t j = 0; j < k; ++j)
      if (contexts_[j] == contexts_[k])
        throw ArgumentError(detail::format("DeviceGroup: contexts {} and {} are the same", j, k));
  }
  shares_ = measured_shares(contexts_);
}

DeviceGroup::~DeviceGroup() = default;
DeviceGroup::DeviceGroup(DeviceGroup&&) noexcept = default;
DeviceGroup& DeviceGroup::operator=(DeviceGroup&&) noexcept = default;

void DeviceGroup::set_shares(std::span<const double> weights) {
  if (weights.size() != contexts_.size())
    throw ArgumentError(
        detail::format("set_shares: {} weights for {} devices", weights.size(), contexts_.size()));
  double top = 0;
  for (double w : weights) {
    if (!(w > 0) || !std::isfinite(w))
      throw ArgumentError(detail::format("set_shares: weight {} is not positive and finite", w));
    top = std::max(top, w);
  }
  // Scaled by the largest first: the sum of weights near DBL_MAX would overflow to inf.
  double sum = 0;
  for (double w : weights)
    sum += w / top;
  for (std::size_t k = 0; k < weights.size(); ++k)
    shares_[k] = weights[k] / top / sum;
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
  return run_parts(g, type, op, opts, std::move(parts));
}

GroupResult reduce(DeviceGroup& g, Type type, std::span<const Shard> shards, Op op,
                   const Options& opts) {
  if (shards.size() != g.size())
    throw ArgumentError(
        detail::format("reduce: {} shards for a group of {} devices", shards.size(), g.size()));
  std::vector<PartRun> parts;
  std::uint64_t first = 0;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    if (shards[k].n || shards[k].buffer())  // an empty shard may have no buffer (rdx/multi.hpp)
      detail::check_device_input(g.context(k), BufferAt(shards[k].buffer, shards[k].offset), type,
                                 shards[k].n, detail::format("reduce (shard {})", k));
    if (shards[k].n) parts.push_back({k, first, shards[k].n, nullptr, &shards[k]});
    if (first > ~std::uint64_t{0} - shards[k].n)
      throw ArgumentError("reduce: the shards' lengths overflow 64 bits");
    first += shards[k].n;
  }
  return run_parts(g, type, op, opts, std::move(parts));
}

}  // namespace rdx
