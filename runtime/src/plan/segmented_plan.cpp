// Segmented plans (rdx/segmented.hpp): how many work-items reduce each segment, and over how many
// work-groups it is split, from the device and the mean segment length. Pure: no OpenCL calls.
#include "core/format.hpp"
#include "core/text.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "ops/operators.hpp"
#include "ops/user_reduction.hpp"
#include "plan/request.hpp"
#include "rdx/errors.hpp"
#include "rdx/segmented.hpp"
#include "rdx/segmented_custom.hpp"

namespace rdx {
namespace {

using detail::floor_pow2;
using detail::is_pow2;

// GPUs: segments shorter than kLongSegment get the mean length over kItemsPerLane lanes, a power
// of two, at most kShortLanes: the lanes' tree costs barriers, and a lane reading 8 to 128
// elements kept the memory busiest (H200, rows of 256: 8 or 16 lanes 3.98 TB/s, 64 lanes
// 1.93-2.45; a3b5203). Longer ones get a whole group, as CUB gives a block.
constexpr std::uint64_t kItemsPerLane = 8;
constexpr std::uint64_t kShortLanes = 8;
constexpr std::uint64_t kLongSegment = 4096;
// A part (one work-group's share of a segment) gives each lane at least this many elements.
constexpr std::uint64_t kMinPerLaneInPart = 16;
// Work-groups per compute unit that a launch aims for before segments are split into parts.
constexpr std::uint64_t kGroupsPerCu = 8;
constexpr std::uint64_t kMaxParts = 4096;
// GPUs: elements per load where segments are contiguous, and loads in flight per work-item (a
// GPU otherwise waits for each before the next). H200, 2^28 f32: 4-element loads 4 in flight
// gave 3.79-4.26 TB/s on rows of 16 to 4096 and 3.68-3.90 on segments of 4096 or more by
// offsets; 16 in flight 3.28-3.91 there; 1-element loads 16 in flight 3.02-4.29 and 3.51-3.87.
constexpr std::uint64_t kVector = 4;
constexpr std::uint64_t kUnrollVector = 4;
constexpr std::uint64_t kUnrollScalar = 16;
// A user's chunk form (Reduction::chunk): elements a lane turns into one state at once, as
// fast_strided's chunk (plan/fast_tuning.cpp); not yet measured on segments.
constexpr std::uint64_t kStateChunk = 16;
// GPUs, a chunk form over contiguous segments of at most kChunkOneLaneMost elements: one lane a
// segment, its chunks read 4 elements a load. H200, 2^28 f32 along rows of 16 / 32 / 64, var
// (`clrdx bench --op var --layouts rows:W`, 2 rounds): 0.86-1.22 / 0.86-0.98 / 0.58-0.65 ms,
// where the lanes' rule (a chunk a lane: 1 / 2 / 4 lanes, 1-element loads) took 1.49-1.51 /
// 1.29-1.42 / 0.95-1.16 and 8 elements a lane 2.48-2.92 / 2.18-2.33 / 2.54-2.69; minmax, std and
// nanvar alike.
constexpr std::uint64_t kChunkOneLaneMost = 64;
// GPUs, a chunk form over segments from kLongSegment to below kChunkGroupFrom: kChunkLongLanes
// lanes, not the whole group, whose tree merges a wide state (var: four fields, divisions) 8
// levels deep. H200, 2^28 f32 along rows of 4096 (`clrdx bench --layouts rows:4096 --lanes L`, 2
// rounds), var: 16 lanes 311-331 us, 32 336-342, 64 421, 128 593-602, 256 956-1001; minmax:
// 763-817, 749-750, 824, 985-987, 1280-1340. Along rows of 65536 the group was faster (var 317-337
// us against 343-344, minmax 782-793 against 929-938; nanvar 477-488 against 431-446); between, not
// measured.
constexpr std::uint64_t kChunkLongLanes = 16;
constexpr std::uint64_t kChunkGroupFrom = 65536;
// CPUs (PoCL 3.1, 2 cores, 2^24 f32): vector loads into vector accumulators from a mean of 16
// elements (4-element loads: sum 9.0-25.4 GB/s against 5.3-12.1 one by one at 16-128, max
// 2.5-20.3 against 1.4-1.9); below, one by one (segments of 4: 5 GB/s against 2.1).
constexpr std::uint64_t kCpuVectorMin = 16;
// CPUs, by default: groups of 64 work-items, 4-element loads into 2 vector accumulators. From a
// mean of kCpuWideMin contiguous elements, for the operators whose lanes combine (the wide form):
// groups of 16, 16-element loads (unaligned: one AVX-512 register) into 4 vector accumulators.
// The wide form was 1.08-2.26x the 4-element form on 16 Xeon cores and 1.07-2.30x on 2 cores
// from 1024 elements; below 512 it cost the 2 cores (PoCL 3.1) 0.75-0.90x (aa26d19).
constexpr std::size_t kCpuWorkGroup = 64;
constexpr std::uint64_t kUnrollVectorCpu = 2;
constexpr std::uint64_t kCpuWideMin = 512;
// Min and max in f32 accumulators (NaN-aware: a 4-lane select and isnan each) take 16-element
// loads from a mean of kCpuWideF32Extremes, below kCpuWideMin in the 4-element form's groups of
// 64 and 2 accumulators: 1.63-2.05x the 4-element loads on 2 cores (PoCL 3.1) at 64 .. 256;
// other operators gained nothing there (0b0d237).
constexpr std::uint64_t kCpuWideF32Extremes = 64;
// Sums in 4-byte accumulators on CPUs whose native vectors are 64 bytes (AVX-512: a 16-element
// load is one register) take 16-element loads into 4 accumulators from a mean of
// kCpuWideSums512, in the 4-element form's groups of 64: 1.16-1.60x the 4-element form on 16 Xeon
// cores (3c0e89a); AVX2 CPUs keep the 4-element form, the 16-element one cost the 2-core PoCL 3.1
// machine up to 26% at 64 and 128 (37baf27).
constexpr std::uint64_t kCpuWideSums512 = 64;
constexpr std::uint32_t kCpuWideSumsVectorBytes = 64;
constexpr std::size_t kCpuWideWorkGroup = 16;
constexpr std::uint64_t kCpuWideVector = 16;
constexpr std::uint64_t kCpuWideUnroll = 4;
// CPUs, columns (the axis form) of at least kColumnBlockMin inner positions: seg_columns, a
// work-item per block of up to kColumnBlock neighbouring columns walking the rows (the native
// loop's layout), its parts at least kMinRowsInPart rows.
constexpr std::uint64_t kColumnBlockMin = 16;
constexpr std::uint64_t kColumnBlock = 1024;
constexpr std::uint64_t kMaxColumnBlock = 4096;
constexpr std::uint64_t kMinRowsInPart = 16;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return a / b + (a % b != 0);
}

std::uint64_t tunable(const Options& opts, std::string_view name, std::uint64_t dflt) {
  for (const auto& [k, v] : opts.tuning.items())
    if (k != "lanes" && k != "parts" && k != "unroll" && k != "vector" && k != "chunk" &&
        k != "column_block" && k != "fold" && k != "state_chunk")
      throw ArgumentError(
          detail::format("segmented reductions have the tunables lanes, parts, unroll, vector, "
                         "column_block, fold (exact sums), chunk and state_chunk, not '{}'",
                         detail::printable(k)));
  return opts.tuning.get(name).value_or(dflt);
}

// Whether a CPU's sums of short segments take the wide form from kCpuWideSums512 (above).
bool cpu_wide_short_sum(const DeviceInfo& dev, const SegmentedPlan& p) {
  return dev.native_vector_bytes >= kCpuWideSumsVectorBytes && size_of(p.acc) == 4 &&
         detail::op_row(p.op).combine == detail::Combine::Add;
}

// The mean length from which CPUs load 16 contiguous elements at a time into vector
// accumulators (for operators whose lanes combine).
std::uint64_t cpu_wide_min(const DeviceInfo& dev, const SegmentedPlan& p) {
  using detail::Combine;
  switch (detail::op_row(p.op).combine) {
    case Combine::Min:
    case Combine::Max:
      return p.acc == Type::F32 ? kCpuWideF32Extremes : kCpuWideMin;
    case Combine::Add:
      return cpu_wide_short_sum(dev, p) ? kCpuWideSums512 : kCpuWideMin;
    case Combine::Mul:
    case Combine::MinNum:
    case Combine::MaxNum:
    case Combine::And:
    case Combine::Or:
    case Combine::Xor:
      return kCpuWideMin;
  }
  throw std::logic_error("cpu_wide_min: an operator without a combine rule");
}

std::uint64_t target_groups(const DeviceInfo& dev) {
  return std::uint64_t{std::max<std::uint32_t>(dev.compute_units, 1)} *
         (dev.kind == DeviceKind::CPU ? 4 : kGroupsPerCu);
}

// Whether the plan's states combine lane by lane in vectors (VCOMBINE): a built-in operator
// (ops/operators.hpp, lanes_combine); never a user's reduction.
bool vector_lanes(const SegmentedPlan& p) {
  return !p.user() && detail::lanes_combine(p.op, p.acc);
}

// The most columns per work-item: its states (an index too for argmin/argmax; a user's state) in
// local memory.
std::uint64_t max_column_block(const DeviceInfo& dev, const SegmentedPlan& p) {
  const std::uint64_t state = p.user() ? p.state_bytes : is_index_op(p.op) ? 16 : size_of(p.acc);
  return std::max<std::uint64_t>(1, std::min(kMaxColumnBlock, dev.local_mem / state));
}

// The column-block form (seg_columns): lanes 1, 1-element loads, parts to fill the device.
void choose_column_blocks(const DeviceInfo& dev, SegmentedPlan& p, const Options& opts) {
  if (p.column_block > max_column_block(dev, p))
    throw ArgumentError(detail::format("column_block {} is above {} (local memory: {} bytes)",
                                       p.column_block, max_column_block(dev, p), dev.local_mem));
  if (p.by_offsets || p.by_view || p.inner < 2)
    throw ArgumentError("column_block reduces columns (the axis form with an inner axis > 1)");
  for (const char* k : {"lanes", "unroll", "vector"})
    if (tunable(opts, k, 1) != 1)
      throw ArgumentError(detail::format("the column-block form takes no {} but 1", k));
  p.lanes = p.unroll = p.vector = 1;
  p.vector_acc = vector_lanes(p);
  const std::uint64_t outer = p.segments / p.inner;
  const std::uint64_t tasks = std::max<std::uint64_t>(1, outer * ceil_div(p.inner, p.column_block));
  std::uint64_t parts = 1;
  if (tasks < target_groups(dev))
    parts = std::clamp<std::uint64_t>(ceil_div(target_groups(dev), tasks), 1,
                                      std::max<std::uint64_t>(1, p.length / kMinRowsInPart));
  p.parts = std::min(tunable(opts, "parts", parts), kMaxParts);
  if (p.parts < 1) throw ArgumentError("parts must be at least 1");
}

// The exact form (cl/exact_segments.cl): lanes from the mean length on GPUs as the work-group
// form's, without its cap for short segments (a lane's digits cost more than its loads); one
// work-item per segment on CPUs, whose work-items of a group run one after another.
void choose_exact_grid(const DeviceInfo& dev, SegmentedPlan& p, const Options& opts) {
  for (const char* k : {"parts", "unroll", "vector", "column_block"})
    if (opts.tuning.get(k) &&
        *opts.tuning.get(k) != (std::string_view(k) == "column_block" ? 0 : 1))
      throw ArgumentError(detail::format("the exact segmented sum takes no {} tunable", k));
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t lanes = 1;
  if (dev.kind != DeviceKind::CPU)
    lanes = std::min<std::uint64_t>(
        wg, p.length >= kLongSegment
                ? wg
                : floor_pow2(std::max<std::uint64_t>(1, p.length / kItemsPerLane)));
  p.lanes = tunable(opts, "lanes", lanes);
  if (!is_pow2(p.lanes) || p.lanes > wg)
    throw ArgumentError(detail::format(
        "lanes {} is not a power of two between 1 and the work-group size {}", p.lanes, wg));
  p.parts = p.unroll = p.vector = 1;
  p.column_block = 0;
  p.vector_acc = false;
  const std::uint64_t fold = tunable(opts, "fold", dev.fp64 ? 1 : 0);
  if (fold > 1) throw ArgumentError(detail::format("fold {} is not 0 or 1", fold));
  if (fold && !dev.fp64)
    throw UnsupportedError("fold 1: the exact sum's windows need doubles, which this device lacks");
  p.fold = fold != 0;
}

// Fills lanes and parts for a plan whose type, shape and work-group size are set.
void choose_grid(const DeviceInfo& dev, SegmentedPlan& p, const Options& opts) {
  p.shuffle = false;  // the work-group form's choice, below
  if (p.exact) return choose_exact_grid(dev, p, opts);
  if (opts.tuning.get("fold"))
    throw ArgumentError("fold is a tunable of the exact form (Determinism AnyDevice, Exact)");
  // CPUs: columns in blocks, unless the tuning asks for lanes (the work-group form); fewer than
  // 16 only where they fold (2, 4, 8, with vector accumulators).
  const bool folds = p.inner > 1 && 16 % p.inner == 0 && vector_lanes(p);
  const bool blocks = dev.kind == DeviceKind::CPU && !p.by_offsets && !p.by_view &&
                      (p.inner >= kColumnBlockMin || folds) && !opts.tuning.get("lanes");
  // The block is a build constant: one size (a block's last columns may be fewer) keeps the
  // programs few, except the folds, whose block is all their columns.
  const std::uint64_t block =
      p.inner < kColumnBlockMin ? p.inner : std::min(kColumnBlock, max_column_block(dev, p));
  p.column_block = tunable(opts, "column_block", blocks ? block : 0);
  if (p.column_block) return choose_column_blocks(dev, p, opts);
  const std::uint64_t mean = p.length;
  const bool cpu = dev.kind == DeviceKind::CPU;
  const bool contiguous = p.by_offsets || (!p.by_view && p.inner == 1);
  const bool cpu_short = cpu && mean < kCpuVectorMin;
  const bool cpu_wide =
      cpu && contiguous && !p.user() && mean >= cpu_wide_min(dev, p) && vector_lanes(p);
  // From kCpuWideMin: groups of 16 and 4 accumulators.
  const bool cpu_wide_groups = cpu_wide && mean >= kCpuWideMin;
  if (cpu_wide_groups && !opts.work_group_size) {
    // The wide form's groups of 16, or as many as the tunable lanes ask for.
    const std::uint64_t want =
        std::max<std::uint64_t>(kCpuWideWorkGroup, opts.tuning.get("lanes").value_or(1));
    p.work_group_size = detail::checked_work_group(
        dev,
        static_cast<std::size_t>(std::min<std::uint64_t>(want, floor_pow2(dev.max_work_group))));
  }
  const std::uint64_t wg = p.work_group_size;
  std::uint64_t lanes = 1;
  if (!cpu) {
    // A user's chunk form (not in the view form) gives each lane at least a whole chunk: with
    // less, the chunk loop never runs and every element is merged into the state on its own.
    // Contiguous segments of up to kChunkOneLaneMost elements take one lane each, whose chunks
    // then load 4 elements at a time (below).
    const bool chunks = p.state_chunk && !p.by_view;
    const std::uint64_t per_lane = chunks ? std::max(kItemsPerLane, p.state_chunk) : kItemsPerLane;
    lanes = mean >= kLongSegment
                ? (chunks && mean < kChunkGroupFrom ? kChunkLongLanes : wg)
                : std::min(kShortLanes, floor_pow2(std::max<std::uint64_t>(1, mean / per_lane)));
    if (chunks && contiguous && mean <= kChunkOneLaneMost) lanes = 1;
    lanes = std::min<std::uint64_t>(lanes, wg);
    // Columns (neighbouring segments: the axis form with inner > 1, some views): a group's
    // work-items take neighbouring segments first, as many as there are (up to a group), so that
    // each load of the group reads neighbouring elements; the lanes are what is left of the group.
    if (p.neighbours() > 1)
      lanes = std::min(lanes, wg / std::min<std::uint64_t>(floor_pow2(p.neighbours()), wg));
  }
  lanes = tunable(opts, "lanes", lanes);
  if (!is_pow2(lanes) || lanes > wg)
    throw ArgumentError(detail::format(
        "lanes {} is not a power of two between 1 and the work-group size {}", lanes, wg));
  const std::uint64_t groups = std::max<std::uint64_t>(1, ceil_div(p.segments, wg / lanes));
  const std::uint64_t target = target_groups(dev);
  std::uint64_t parts = 1;
  if (groups < target)
    parts =
        std::clamp<std::uint64_t>(ceil_div(target, groups), 1,
                                  std::max<std::uint64_t>(1, mean / (lanes * kMinPerLaneInPart)));
  parts = std::min(tunable(opts, "parts", parts), kMaxParts);
  if (parts < 1) throw ArgumentError("parts must be at least 1");
  p.lanes = lanes;
  p.parts = parts;
  const std::uint64_t vector = cpu_wide ? kCpuWideVector : kVector;
  // A user's chunk form with one lane a contiguous segment reads its chunks 4 elements a load
  // (cl/segmented.cl); on GPUs only: PoCL's loops took 1.1-1.2x longer so (var along rows of 16).
  const bool chunk_loads =
      p.user() && p.state_chunk && p.state_chunk % 4 == 0 && lanes == 1 && contiguous;
  p.vector =
      tunable(opts, "vector",
              p.user() ? (chunk_loads && !cpu ? 4 : 1) : (contiguous && !cpu_short ? vector : 1));
  if (p.vector != 1 && p.vector != 4 && p.vector != 16)
    throw ArgumentError(detail::format("vector {} is not 1, 4 or 16", p.vector));
  if (p.vector != 1 && p.user() && !(p.vector == 4 && chunk_loads))
    throw ArgumentError(
        "a user's reduction loads one element at a time: vector 1 (vector 4 only for its chunk "
        "form, one lane a contiguous segment)");
  p.vector_acc = cpu && p.vector > 1 && vector_lanes(p);
  if (p.vector == 16 && !p.vector_acc)
    throw ArgumentError(
        "vector 16 loads into vector accumulators: CPUs, operators whose lanes combine");
  // 4 vector accumulators: the wide form's groups of 16, and short sums on AVX-512 CPUs.
  const bool four_accumulators = cpu_wide_groups || (cpu_wide && cpu_wide_short_sum(dev, p));
  p.unroll = tunable(opts, "unroll",
                     p.vector > 1 ? (four_accumulators ? kCpuWideUnroll
                                     : cpu             ? kUnrollVectorCpu
                                                       : kUnrollVector)
                                  : kUnrollScalar);
  if (!is_pow2(p.unroll) || p.unroll > 16)
    throw ArgumentError(detail::format("unroll {} is not 1, 2, 4, 8 or 16", p.unroll));
  if (p.vector > 1 && !contiguous)
    throw ArgumentError(detail::format(
        "vector {} reads contiguous segments: not columns (an inner axis > 1)", p.vector));
  // The tree's levels below 32 lanes by warp shuffles (cl/segmented.cl, SEG_SHUFFLE): segments of
  // 4096 up to 1.11x the local-memory tree on the H200, other layouts unchanged (d2e12f2).
  p.shuffle = dev.compiles_ptx() && lanes > 1 && p.neighbours() == 1 && !p.user() &&
              !is_index_op(p.op) && (size_of(p.acc) == 4 || size_of(p.acc) == 8) && wg % 32 == 0;
}

// Elements per pass of host inputs: of every input (a user's reduction may read several).
void choose_chunk(const DeviceInfo& dev, SegmentedPlan& p, const Options& opts,
                  std::span<const Type> inputs) {
  // The chunk form runs in seg_reduce's element loop only: not the view form, column blocks or
  // the exact form.
  if (p.by_view || p.column_block || p.exact) p.state_chunk = 0;
  std::uint64_t most = detail::max_alloc_elements(dev, p.type);
  for (Type t : inputs)
    most = std::min(most, detail::max_alloc_elements(dev, t));
  p.chunk = std::min(tunable(opts, "chunk", most), most);
  if (p.chunk < 1) throw ArgumentError("chunk must be at least 1");
  if (p.exact && p.in_passes())
    throw UnsupportedError(detail::format(
        "segmented exact sums run in one pass: {} elements exceed {} per pass (the device's "
        "largest allocation, or the tunable chunk)",
        p.n, p.chunk));
}

SegmentedPlan base_plan(const DeviceInfo& dev, Type type, Op op, std::uint64_t n,
                        const Options& opts) {
  if (!detail::auto_strategy(opts))
    throw ArgumentError(
        detail::format("segmented reductions choose their own form (strategy auto), not '{}'",
                       detail::printable(opts.strategy)));
  SegmentedPlan p;
  p.type = type;
  p.op = op;
  p.n = n;
  p.acc = detail::checked_acc(dev, type, op, opts.acc);
  p.exact = detail::exact_form(opts.determinism, type, p.acc, op);
  p.work_group_size = detail::checked_work_group(
      dev, opts.work_group_size || dev.kind != DeviceKind::CPU
               ? opts.work_group_size
               : std::min<std::size_t>(kCpuWorkGroup, floor_pow2(dev.max_work_group)));
  return p;
}

// A user's reduction: the inputs' and fields' types against the device; no accumulator option
// (the fields have their types).
SegmentedPlan user_base_plan(const DeviceInfo& dev, const Reduction& r,
                             std::span<const Type> inputs, std::uint64_t n, const Options& opts) {
  if (r.fields.empty() || inputs.empty()) detail::validate(r, inputs.size());  // its message
  for (Type t : inputs)
    if (t == Type::F64 && !dev.fp64)
      throw UnsupportedError(
          detail::format("f64 needs cl_khr_fp64, which device '{}' does not have", dev.name));
  for (const Field& f : r.fields)
    if (f.type == Type::F64 && !dev.fp64)
      throw UnsupportedError(detail::format(
          "the field '{}' is f64, which needs cl_khr_fp64; device '{}' does not have it",
          detail::printable(f.name), dev.name));
  if (opts.acc)
    throw ArgumentError("a user's reduction takes no accumulator type: its fields have theirs");
  Options plain = opts;  // the fields decide the form, not the first input's type
  plain.determinism = Determinism::RunToRun;
  SegmentedPlan p = base_plan(dev, inputs[0], Op::Sum, n, plain);
  if (opts.determinism != Determinism::RunToRun) {
    switch (detail::field_sums(r)) {
      case detail::FieldSums::FloatSums:  // each field summed exactly (cl/exact_segments.cl)
        p.exact = true;
        break;
      case detail::FieldSums::NoFloats:  // integer fields: the order does not matter
        break;
      case detail::FieldSums::Other:
        throw UnsupportedError(detail::format(
            "determinism {}: the segmented reduction '{}' has float fields that are not sums "
            "(a + b); only float sums and integer fields are reproducible",
            name(opts.determinism), detail::printable(r.name)));
    }
  }
  p.acc = r.fields[0].type;
  p.reduction = r.name.empty() ? "custom" : r.name;
  p.state_bytes = detail::state_layout(r).bytes;
  if (!r.chunk.empty() && inputs.size() == 1) {
    const std::uint64_t c = tunable(opts, "state_chunk", kStateChunk);
    if (c > 1 && (c % 8 != 0 || c > 1024))
      throw ArgumentError(
          detail::format("state_chunk {} is not 1 or a multiple of 8 up to 1024", c));
    p.state_chunk = c > 1 ? c : 0;
  }
  return p;
}

SegmentedPlan offsets_form(const DeviceInfo& dev, SegmentedPlan p, std::uint64_t segments,
                           const Options& opts, std::span<const Type> inputs) {
  p.by_offsets = true;
  p.segments = segments;
  p.length = segments ? p.n / segments : 0;
  choose_grid(dev, p, opts);
  choose_chunk(dev, p, opts, inputs);
  return p;
}

// The axis form of `shape` along `axis` (its element count checked against p.n's type).
struct AxisShape {
  std::uint64_t n = 1, length = 0, inner = 1, segments = 1;
};
AxisShape axis_shape(std::span<const std::uint64_t> shape, std::size_t axis) {
  if (shape.empty()) throw ArgumentError("reduce_axis: the shape has no dimensions");
  if (axis >= shape.size())
    throw ArgumentError(
        detail::format("reduce_axis: axis {} of a {}-dimensional array", axis, shape.size()));
  std::uint64_t outer = 1, inner = 1, n = 1;
  bool overflow = false;
  const auto mul = [&](std::uint64_t& acc, std::uint64_t d) {
    if (d && acc > ~std::uint64_t{0} / d) overflow = true;
    acc *= d;
  };
  for (std::size_t k = 0; k < shape.size(); ++k) {
    mul(n, shape[k]);
    if (k < axis) mul(outer, shape[k]);
    if (k > axis) mul(inner, shape[k]);
  }
  if (overflow) throw ArgumentError("reduce_axis: the shape's element count overflows 64 bits");
  std::uint64_t segments = outer;
  mul(segments, inner);
  if (overflow) throw ArgumentError("reduce_axis: the shape's result count overflows 64 bits");
  if (segments > (~std::uint64_t{0}) / 16)
    throw ArgumentError(
        detail::format("reduce_axis: {} results overflow a 64-bit byte count", segments));
  return {n, shape[axis], inner, segments};
}

SegmentedPlan axis_form(const DeviceInfo& dev, SegmentedPlan p, const AxisShape& a,
                        const Options& opts, std::span<const Type> inputs) {
  p.length = a.length;
  p.inner = a.inner;
  p.segments = a.segments;
  choose_grid(dev, p, opts);
  choose_chunk(dev, p, opts, inputs);
  return p;
}

// The axis form of a view, where there is one: offset 0, the reduced axes one axis (or none:
// length 1) of stride `inner`, and the kept ones an outer axis of stride length * inner and an
// inner one of stride 1 (either may be missing).
std::optional<AxisShape> axis_of_view(const ViewForm& f) {
  if (f.offset != 0 || f.reduced_shape.size() > 1 || f.kept_shape.size() > 2) return {};
  const bool none = f.reduced_shape.empty();
  const std::uint64_t length = none ? 1 : f.reduced_shape[0];
  const auto fits = [&](std::uint64_t outer, std::uint64_t inner, std::int64_t outer_stride) {
    if (!none && f.reduced_strides[0] != static_cast<std::int64_t>(inner)) return false;
    return outer == 1 || outer_stride == static_cast<std::int64_t>(length * inner);
  };
  AxisShape a{f.segments * f.length, length, 1, f.segments};
  if (f.segments == 0) return a;  // nothing to walk
  const std::size_t k = f.kept_shape.size();
  if (k == 0) return fits(1, 1, 0) ? std::optional(a) : std::nullopt;
  if (f.kept_strides[k - 1] == 1 &&
      fits(k == 2 ? f.kept_shape[0] : 1, f.kept_shape[k - 1], k == 2 ? f.kept_strides[0] : 0)) {
    a.inner = f.kept_shape[k - 1];
    return a;
  }
  if (k == 1 && fits(f.kept_shape[0], 1, f.kept_strides[0])) return a;
  return {};
}

SegmentedPlan view_or_axis_form(const DeviceInfo& dev, SegmentedPlan p, const ViewForm& f,
                                const Options& opts, std::span<const Type> inputs) {
  if (f.segments > (~std::uint64_t{0}) / 16)
    throw ArgumentError(
        detail::format("reduce_axes: {} results overflow a 64-bit byte count", f.segments));
  if (const auto a = axis_of_view(f)) return axis_form(dev, p, *a, opts, inputs);
  p.by_view = true;
  p.view = f;
  p.length = f.length;
  p.inner = 1;
  p.segments = f.segments;
  choose_grid(dev, p, opts);
  choose_chunk(dev, p, opts, inputs);
  return p;
}

}  // namespace

std::uint64_t SegmentedPlan::depth_for(std::uint64_t count) const {
  if (!in_passes()) return one_pass_depth(count);
  // Passes: a segment's pieces (at most `piece` elements each) are combined in order on the host,
  // so the first piece's result goes through pieces - 1 more combines.
  std::uint64_t piece = chunk, pieces = 1;
  if (by_offsets) {
    pieces = count > 1 ? ceil_div(count - 1, chunk) + 1 : 1;
  } else if (length * inner > chunk) {
    piece = inner <= chunk ? chunk / inner : 1;  // rows per pass
    pieces = ceil_div(count, piece);
  }
  return one_pass_depth(std::min(count, piece)) + std::max<std::uint64_t>(pieces, 1) - 1;
}

std::uint64_t SegmentedPlan::one_pass_depth(std::uint64_t count) const {
  if (exact) return 1;  // correctly rounded
  const std::uint64_t per_part = ceil_div(ceil_div(count, parts), lanes);
  const std::uint64_t tree = std::bit_width(lanes) - 1;  // lanes: a power of two
  // Vector loads: the elements before and after the aligned body, one more each per lane.
  // Vector accumulators: their fold, then their lanes'.
  // 4-element loads: a lane may take up to 3 more of the body (its last load) and the head's and
  // the tail's elements (up to 3 each, fewer than 4 lanes: 1 each with 4 or more).
  const std::uint64_t edges = lanes >= 4 ? 2 : 6;
  // Column blocks: a column's elements in order (vector accumulators: 16 columns at once); the
  // fold: each lane's chain is shorter than per_part, then 3 accumulator combines, up to 8
  // lanes per column and fewer than 16 elements left.
  if (column_block) return per_part + (parts > 1 ? parts : 0) + (column_fold() ? 22 : 0);
  // 16-element loads (CPUs): no head, up to 15 tail elements, 4 levels of lanes to fold.
  const std::uint64_t fold = std::bit_width(vector) - 1;  // vector: 1, 4 or 16
  return per_part + tree + (parts > 1 ? parts : 0) + (vector > 1 ? vector - 1 + edges : 0) +
         (vector_acc ? unroll + fold : 0);
}

std::uint64_t SegmentedPlan::neighbours() const {
  if (by_offsets) return 1;
  if (!by_view) return inner;
  const auto unit = [](std::span<const std::int64_t> s) {
    return !s.empty() && (s.back() == 1 || s.back() == -1);
  };
  return unit(view.kept_strides) && !unit(view.reduced_strides) ? view.kept_shape.back() : 1;
}

std::string SegmentedPlan::describe() const {
  std::string r = detail::format("segmented {} {} ", user() ? reduction : name(op), name(type));
  const auto dims = [](std::span<const std::uint64_t> shape, std::span<const std::int64_t> st) {
    std::string d;
    for (std::size_t k = 0; k < shape.size(); ++k)
      d += detail::format("{}{}:{}", k ? "," : "", shape[k], st[k]);
    return d;
  };
  if (by_offsets)
    r += detail::format("segments={} n={}", segments, n);
  else if (by_view)
    r += detail::format("view kept=({}) reduced=({}) offset={} segments={}",
                        dims(view.kept_shape, view.kept_strides),
                        dims(view.reduced_shape, view.reduced_strides), view.offset, segments);
  else
    r += detail::format("axis length={} inner={} segments={}", length, inner, segments);
  if (acc != type && !user()) r += detail::format(" acc={}", name(acc));
  if (host_loop) return r + " host_loop=1";
  if (exact)
    return r +
           detail::format(" exact wg={} lanes={} fold={}", work_group_size, lanes, fold ? 1 : 0);
  if (column_block)
    r += detail::format(" column_block={} parts={}{}", column_block, parts,
                        vector_acc ? " vector_acc=1" : "");
  else
    r += detail::format(" wg={} lanes={} parts={} unroll={} vector={}{}{}", work_group_size, lanes,
                        parts, unroll, vector, vector_acc ? " vector_acc=1" : "",
                        shuffle ? " shuffle=1" : "");
  if (state_chunk) r += detail::format(" state_chunk={}", state_chunk);
  return in_passes() ? r + detail::format(" chunk={}", chunk) : r;
}

SegmentedPlan plan_segments(const DeviceInfo& dev, Type type, Op op, std::uint64_t n,
                            std::uint64_t segments, const Options& opts) {
  return offsets_form(dev, base_plan(dev, type, op, n, opts), segments, opts, {});
}

SegmentedPlan plan_axis(const DeviceInfo& dev, Type type, Op op,
                        std::span<const std::uint64_t> shape, std::size_t axis,
                        const Options& opts) {
  const AxisShape a = axis_shape(shape, axis);
  return axis_form(dev, base_plan(dev, type, op, a.n, opts), a, opts, {});
}

SegmentedPlan plan_segments(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                            std::uint64_t n, std::uint64_t segments, const Options& opts) {
  return offsets_form(dev, user_base_plan(dev, r, inputs, n, opts), segments, opts, inputs);
}

SegmentedPlan plan_axis(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                        std::span<const std::uint64_t> shape, std::size_t axis,
                        const Options& opts) {
  const AxisShape a = axis_shape(shape, axis);
  return axis_form(dev, user_base_plan(dev, r, inputs, a.n, opts), a, opts, inputs);
}

SegmentedPlan plan_axes(const DeviceInfo& dev, Type type, Op op, const View& v,
                        std::span<const std::int64_t> axes, const Options& opts) {
  const ViewForm f = view_form(v, axes);
  return view_or_axis_form(dev, base_plan(dev, type, op, f.segments * f.length, opts), f, opts, {});
}

SegmentedPlan plan_axes(const DeviceInfo& dev, const Reduction& r, std::span<const Type> inputs,
                        const View& v, std::span<const std::int64_t> axes, const Options& opts) {
  const ViewForm f = view_form(v, axes);
  return view_or_axis_form(dev, user_base_plan(dev, r, inputs, f.segments * f.length, opts), f,
                           opts, inputs);
}

}  // namespace rdx
