// Runs a segmented plan: cl/segmented.cl's seg_reduce, then seg_finish when segments are split
// into parts (see that file's launch rules).
#include "exec/run_segmented.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/cl_check.hpp"
#include "exec/exec.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"
#include "rdx/reduce.hpp"

namespace rdx::detail {
namespace {

// The plan's kernels as Exec builds them: its definitions (type, acc, operator) and size.
Plan kernel_plan(const SegmentedPlan& p) {
  Plan k;
  k.strategy = "segmented";
  k.type = p.type;
  k.acc = p.acc;
  k.op = p.op;
  k.n = p.n;
  k.work_group_size = p.work_group_size;
  return k;
}

// What an empty segment gives: the operator's identity; argmin/argmax: 0 (index NO_INDEX).
Scalar empty_value(const SegmentedPlan& p) {
  if (is_index_op(p.op)) return Scalar::from_bytes(p.acc, "\0\0\0\0\0\0\0\0");
  return identity(p.op, p.acc);
}

std::string build_options(const SegmentedPlan& p) {
  std::string o = fmt::format("-DLANES={} -DPARTS={}", p.lanes, p.parts);
  if (p.by_offsets) o += " -DOFFSETS";
  if (!p.by_offsets && p.inner > 1) o += " -DCOLUMNS";
  return o;
}

std::string describe_bad_offsets(cl_uint bad) {
  std::string r;
  const auto add = [&](const char* s) { r += r.empty() ? s : std::string("; ") + s; };
  if (bad & 1) add("the first offset is not 0");
  if (bad & 2) add("an offset points past the data");
  if (bad & 4) add("the offsets decrease");
  return r;
}

}  // namespace

void check_host_offsets(std::span<const std::uint64_t> offsets, std::uint64_t n) {
  if (offsets.empty())
    throw ArgumentError("offsets: at least one offset (0) is needed, segments + 1 in all");
  if (offsets[0] != 0)
    throw ArgumentError(fmt::format("offsets: the first offset is {}, not 0", offsets[0]));
  for (std::size_t k = 1; k < offsets.size(); ++k) {
    if (offsets[k] < offsets[k - 1])
      throw ArgumentError(fmt::format("offsets: offset {} ({}) is below offset {} ({})", k,
                                      offsets[k], k - 1, offsets[k - 1]));
    if (offsets[k] > n)
      throw ArgumentError(fmt::format("offsets: offset {} ({}) points past the data ({} elements)",
                                      k, offsets[k], n));
  }
}

void check_device_offsets(Context::Impl& ctx, const SegmentedPlan& p, const cl::Buffer& offsets) {
  const Plan kp = kernel_plan(p);
  Exec ex(ctx, kp);
  Kernel k = ex.kernel("segmented.cl", "seg_check", build_options(p));
  const cl_uint zero = 0;
  cl::Buffer bad = ex.buffer(sizeof zero, &zero);
  ex.args(k, offsets, p.segments, p.n, bad);
  ex.launch(k, p.segments + 1, std::min<std::size_t>(k.wg, 64));
  cl_uint flags = 0;
  ex.read_bytes(bad, 0, sizeof flags, &flags);
  if (flags) throw ArgumentError("offsets: " + describe_bad_offsets(flags));
}

SegmentedPlan run_segmented(Context::Impl& ctx, const SegmentedPlan& p, const cl::Buffer& in,
                            const cl::Buffer* offsets, const cl::Buffer& values,
                            const cl::Buffer* indices) {
  SegmentedPlan ran = p;
  if (p.segments == 0) return ran;
  const Plan kp = kernel_plan(p);
  Exec ex(ctx, kp);
  const std::string opts = build_options(p);
  Kernel reduce = ex.kernel("segmented.cl", "seg_reduce", opts);
  ran.work_group_size = reduce.wg;
  ran.lanes = std::min<std::uint64_t>(p.lanes, reduce.wg);
  const bool indexed = is_index_op(p.op);
  const cl::Buffer& out_i = indexed ? *indices : values;
  const Scalar empty = empty_value(p);

  const std::uint64_t per_group = reduce.wg / ran.lanes;
  const std::uint64_t groups = (p.segments + per_group - 1) / per_group * p.parts;
  const States part = p.parts > 1 ? ex.states(p.segments * p.parts) : States{values, out_i, 0};
  if (p.by_offsets)
    ex.args(reduce, in, *offsets, p.segments, empty, part.values, part.indices);
  else
    ex.args(reduce, in, p.length, p.inner, p.segments, empty, part.values, part.indices);
  ex.launch(reduce, groups * reduce.wg, reduce.wg);
  if (p.parts > 1) {
    Kernel finish = ex.kernel("segmented.cl", "seg_finish", opts);
    ex.arg(finish, 0, part.values);
    ex.arg(finish, 1, part.indices);
    cl_uint i = 2;
    if (p.by_offsets) {
      ex.arg(finish, i++, *offsets);
    } else {
      ex.arg(finish, i++, p.length);
      ex.arg(finish, i++, p.inner);
    }
    ex.arg(finish, i++, p.segments);
    ex.arg(finish, i++, empty);
    ex.arg(finish, i++, values);
    ex.arg(finish, i++, out_i);
    ex.launch(finish, p.segments, std::min<std::size_t>(finish.wg, 64));
  }
  RDX_CHECK(ex.queue.finish());
  return ran;
}

}  // namespace rdx::detail
