// The tunables of fast_strided and fast_blocked, with the measurements behind their defaults, and
// the grid a plan gets from them (see fast_tuning.hpp).
#include "plan/fast_tuning.hpp"

#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "ops/operators.hpp"
#include "plan/request.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {

// H200, f32 sum: within 1% of the best of 20 grid / work-group / unroll / vector configurations at
// 2^24 and 2^28 (bench/sweep_fast.sh gpu fast_strided 16Mi,256Mi). host_finish_items 16: on the
// H100 the capped grid won 13 of 15 comparisons at 8 to 16 elements a work-item, and lost 4 of 7
// at 32 (657ff15).
const std::array<ParamSpec, 9> kFastStridedParams = {{
    {"wg", 256, "work-group size"},
    {"groups_per_cu", 8, "work-groups per compute unit: the grid's upper bound"},
    {"vector_bytes", 16, "bytes per vector load (elements: vector_bytes / element size, 1-16)"},
    {"unroll", 2, "independent vector loads in flight per work-item (1, 2, 4)"},
    {"min_per_item", 0, "fewest elements per work-item (0: one round of unroll vector loads)"},
    {"host_finish_items", 16,
     "a grid is capped at one group per work-item of a group (the host combines the partials) "
     "while each work-item then reads at most this many elements (1: no cap)"},
    {"scalar_map", 0, "accepted for portability: strided maps users' reductions lane by lane"},
    {"chunk", 16,
     "a user's reduction with a chunk form: elements a work-item turns into one state at once "
     "(a multiple of 8 and of the vector width; 1: element by element)"},
    {"large_bytes", 0,
     "inputs of at least this many bytes run groups of 512, 32 a compute unit, where neither wg "
     "nor groups_per_cu is set (built-in operators with vector loads; by default never, on "
     "NVIDIA from 2^32; a value above any input's size turns it off)"},
}};

// PoCL 5, 16 cores, f32 sum: 8 groups per compute unit beat 1, 2 and 4; one work-item per group,
// 64-byte vectors (bench/sweep_fast.sh cpu fast_blocked).
const std::array<ParamSpec, 8> kFastBlockedParams = {{
    {"wg", 1, "work-group size"},
    {"groups_per_cu", 8, "work-groups per compute unit: the grid's upper bound"},
    {"vector_bytes", 64, "bytes per vector load (elements: vector_bytes / element size, 1-16)"},
    {"unroll", 1, "unused: each work-item reads one contiguous range"},
    {"min_per_item", std::uint64_t{1} << 15, "fewest elements in a work-item's range"},
    {"scalar_map", 0,
     "1: a user's reduction maps lane by lane even where it has a vector form (same bits)"},
    {"chunk", 64,
     "a user's reduction with a chunk form: elements a work-item turns into one state at once "
     "(a multiple of 8; 1: element by element)"},
    {"host_items", 65536,
     "host inputs of at most this many elements are reduced by the calling thread, without a "
     "launch (built-in operators; 1: never)"},
}};

namespace {

std::uint64_t clamp_u(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  return std::max(lo, std::min(v, hi));
}

bool is_pow2(std::uint64_t x) {
  return x && !(x & (x - 1));
}

// Each tunable from Options::tuning, else the tuning table, else the strategy's default; a name
// in Options::tuning that the strategy does not have is an ArgumentError.
class Tunables {
 public:
  Tunables(std::span<const ParamSpec> specs, const Params& opts, Params table,
           const std::string& strategy)
      : specs_(specs), opts_(opts), table_(std::move(table)) {
    for (const auto& [name, value] : opts.items())
      if (!find(name)) {
        std::string names;
        for (const ParamSpec& s : specs) {
          if (!names.empty()) names += ' ';
          names += s.name;
        }
        throw ArgumentError(detail::format("strategy {} has no tunable '{}' (its tunables: {})",
                                           strategy, printable(name), names));
      }
  }
  // 0 in Options or in the table leaves the value to the next level. (value_or, not `v && *v`:
  // GCC 12 -O3 branched on an empty optional's uninitialised payload there, which valgrind's
  // memcheck reports from tests/valgrind.)
  std::uint64_t operator()(std::string_view name) const {
    if (const std::uint64_t v = opts_.get(name).value_or(0)) return v;
    if (const std::uint64_t v = table_.get(name).value_or(0)) return v;
    return find(name)->default_value;
  }
  // Whether anything above the default sets it.
  bool set(std::string_view name) const {
    return opts_.get(name).value_or(0) != 0 || table_.get(name).value_or(0) != 0;
  }

 private:
  const ParamSpec* find(std::string_view name) const {
    for (const ParamSpec& s : specs_)
      if (s.name == name) return &s;
    return nullptr;
  }
  std::span<const ParamSpec> specs_;
  const Params& opts_;
  Params table_;
};

// fast_blocked (auto on CPUs): few work-items, each reading one long contiguous range with wide
// vectors (PoCL runs a work-group as a loop; LLVM vectorises the range). fast_strided (auto
// elsewhere): a grid of compute units x groups_per_cu groups reading neighbouring vectors.
void tune_fast(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& tuning,
               std::span<const ParamSpec> specs, bool blocked, bool host_may_finish) {
  const Tunables t(specs, o.tuning, resolve_tuning(tuning, dev, p.strategy, p.type, p.op),
                   p.strategy);
  const std::uint64_t es = size_of(p.type);
  const std::uint64_t cus = std::max<std::uint32_t>(dev.compute_units, 1);
  // Vector loads where lanes combine (ops/operators.hpp), and for argmin/argmax on the strided
  // layout, whose kernel combines a vector's elements one by one with their indices (cl/fast.cl);
  // else one element at a time.
  const bool lanes = lanes_combine(p.op, p.acc);
  std::uint64_t vw = 1;
  if (lanes || (!blocked && op_row(p.op).indexed)) vw = clamp_u(t("vector_bytes") / es, 1, 16);
  // On a CPU a vector, of elements or of accumulators, is at most one SIMD register: a wider
  // one is split anyway, and its type has no defined calling convention there (LLVM warns,
  // -Wpsabi, on every compile).
  if (dev.kind == DeviceKind::CPU && dev.native_vector_bytes) {
    const std::uint64_t lane = std::max<std::uint64_t>(es, size_of(p.acc));
    vw = std::min<std::uint64_t>(vw, std::max<std::uint64_t>(dev.native_vector_bytes / lane, 1));
  }
  // A built-in operator's vector loads over a large input (kLargeWg above); not for users'
  // reductions (host_may_finish is false for them), nor where a grid is asked for.
  const bool large = !blocked && lanes && vw > 1 && host_may_finish && t("large_bytes") &&
                     p.n * es >= t("large_bytes") && !o.work_group_size && !t.set("wg") &&
                     !t.set("groups_per_cu") && dev.max_work_group >= kLargeWg;
  if (large)
    p.work_group_size = kLargeWg;
  else if (!o.work_group_size)
    p.work_group_size = std::min<std::size_t>(t("wg"), p.work_group_size);
  const std::uint64_t gpc = large ? kLargeGroupsPerCu : t("groups_per_cu");
  const std::uint64_t unroll = blocked ? 1 : t("unroll");
  std::uint64_t groups;
  if (blocked) {
    groups = clamp_u((p.n + t("min_per_item") - 1) / t("min_per_item") / p.work_group_size, 1,
                     cus * gpc);
  } else {
    // By default one round of UNROLL vector loads per work-item, so that a small input spreads
    // over many groups and every load is in flight at once (docs/performance.md).
    const std::uint64_t min_per_item = t.set("min_per_item") ? t("min_per_item") : vw * unroll;
    const std::uint64_t per_group = p.work_group_size * std::max<std::uint64_t>(min_per_item, vw);
    groups = clamp_u((p.n + per_group - 1) / per_group, 1, cus * gpc);
    // On NVIDIA's driver the last group's atomic finish cost a few microseconds more than the
    // host's combine of at most a group's partials (cl/fast.cl, docs/performance.md): a grid of
    // one group per work-item of a group, while each work-item then reads at most
    // host_finish_items elements in at most kMostCappedRounds rounds of loads (of one element:
    // kMostCappedRoundsScalar), for groups of at most kMostHostPartials (what was measured). Not
    // where a minimum per work-item is asked for.
    const std::uint64_t wg = p.work_group_size;
    const std::uint64_t per_item = (p.n + wg * wg - 1) / (wg * wg);  // with a grid of wg groups
    if (host_may_finish && !t.set("min_per_item") && groups > wg && wg <= kMostHostPartials &&
        per_item <= t("host_finish_items") &&
        per_item <= (vw > 1 ? kMostCappedRounds : kMostCappedRoundsScalar) * vw * unroll)
      groups = wg;
  }
  if (unroll != 1 && unroll != 2 && unroll != 4)
    throw ArgumentError(detail::format("unroll {} is not 1, 2 or 4", unroll));
  if (!is_pow2(vw) || vw > 16)
    throw ArgumentError(detail::format("vector width {} is not 1, 2, 4, 8 or 16", vw));
  p.params = Params()
                 .set("groups", groups)
                 .set("vector_width", vw)
                 .set("blocked", blocked ? 1 : 0)
                 .set("unroll", unroll)
                 // A grid whose partials the last group would combine at one per work-item or
                 // fewer hands them to the host instead (cl/fast.cl, HOST_FINISH).
                 .set("host_finish", host_may_finish && groups <= p.work_group_size ? 1 : 0);
  // For users' reductions (dispatch/run_user.cpp reads it), only where Options or the table set it.
  if (t("scalar_map")) p.params.set("scalar_map", 1);
  // Only where auto picked the strategy: a plan asked for by name runs its kernel.
  if (blocked && host_may_finish && detail::auto_strategy(o) && t("host_items") > 1)
    p.params.set("host_items", t("host_items"));
  if (!host_may_finish) {  // a user's reduction: its chunk size (fast_user_plan keeps it or not)
    const std::uint64_t chunk = t("chunk");
    if (chunk != 1 && (chunk % 8 != 0 || chunk % vw != 0 || chunk > 1024))
      throw ArgumentError(detail::format(
          "chunk {} is not 1 or a multiple of 8 and of the vector width {} up to 1024", chunk, vw));
    p.params.set("chunk", chunk == 1 ? 0 : chunk);
  }
}

}  // namespace

std::uint64_t fast_default(bool blocked, std::string_view name) {
  for (const ParamSpec& s : blocked ? std::span<const ParamSpec>(kFastBlockedParams)
                                    : std::span<const ParamSpec>(kFastStridedParams))
    if (s.name == name) return s.default_value;
  throw std::logic_error(detail::format("fast_default: no tunable {}", detail::printable(name)));
}

void tune_fast_strided(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t) {
  tune_fast(dev, p, o, t, kFastStridedParams, false, true);
}

void tune_fast_blocked(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t) {
  tune_fast(dev, p, o, t, kFastBlockedParams, true, true);
}

void tune_fast_device_finish(const DeviceInfo& dev, Plan& p, const Options& o, const TuningTable& t,
                             bool blocked) {
  tune_fast(dev, p, o, t,
            blocked ? std::span<const ParamSpec>(kFastBlockedParams)
                    : std::span<const ParamSpec>(kFastStridedParams),
            blocked, false);
}

FastGrid fast_grid(const Plan& p) {
  FastGrid g;
  g.groups = p.params.get("groups").value_or(0);
  g.vector_width = static_cast<unsigned>(p.params.get("vector_width").value_or(1));
  g.blocked = p.params.get("blocked").value_or(0) != 0;
  g.unroll = static_cast<unsigned>(p.params.get("unroll").value_or(1));
  g.host_finish = p.params.get("host_finish").value_or(0) != 0;
  return g;
}

}  // namespace rdx::detail
