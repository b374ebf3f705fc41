// Runs a segmented plan: cl/segmented.cl's seg_reduce, then seg_finish when segments are split
// into parts (see that file's launch rules); the exact form (SegmentedPlan::exact) runs
// cl/exact_segments.cl's exact_segments instead.
#include "strategies/run_segmented.hpp"

#include "core/format.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/cl_check.hpp"
#include "core/context_impl.hpp"
#include "core/pinned_bytes.hpp"
#include "core/type_table.hpp"
#include "exec/exec.hpp"
#include "ops/exact_sum.hpp"
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

// The view form's build constants: its axes' counts (cl/view.h).
std::string view_options(const SegmentedPlan& p) {
  if (!p.by_view) return "";
  return detail::format(" -DVIEW -DVIEW_KEPT={} -DVIEW_REDUCED={}", p.view.kept_shape.size(),
                        p.view.reduced_shape.size());
}

// The view form's geometry as cl/view.h reads it: the kept axes' extents and strides, the
// reduced axes' extents and strides, the offset.
std::vector<std::int64_t> view_geometry(const ViewForm& v) {
  std::vector<std::int64_t> g;
  for (std::uint64_t e : v.kept_shape)
    g.push_back(static_cast<std::int64_t>(e));
  g.insert(g.end(), v.kept_strides.begin(), v.kept_strides.end());
  for (std::uint64_t e : v.reduced_shape)
    g.push_back(static_cast<std::int64_t>(e));
  g.insert(g.end(), v.reduced_strides.begin(), v.reduced_strides.end());
  g.push_back(static_cast<std::int64_t>(v.offset));
  return g;
}

std::string build_options(const SegmentedPlan& p, bool checked) {
  if (p.exact)
    return detail::format("-DLANES={} {}{}{}{}{}", p.lanes, exact_cl_options(p.type, p.acc),
                          p.by_offsets ? " -DOFFSETS" : "", checked ? " -DCHECKED" : "",
                          p.fold ? " -DEXACT_FOLD" : "", view_options(p));
  std::string o = detail::format("-DLANES={} -DPARTS={} -DSEG_UNROLL={} -DSEG_VEC={}", p.lanes,
                                 p.parts, p.unroll, p.vector);
  if (checked) o += " -DCHECKED";
  if (p.vector_acc) o += " -DSEG_VACC";
  if (p.state_chunk) o += detail::format(" -DRDX_CHUNK={}", p.state_chunk);
  if (p.shuffle) o += " -DSEG_SHUFFLE";
  if (p.by_offsets) o += " -DOFFSETS";
  o += view_options(p);
  if (p.column_block) {
    o += detail::format(" -DCOL_BLOCK={}", p.column_block);
    if (p.vector_acc) o += " -DSEG_COL_VEC";
    if (p.column_fold()) o += detail::format(" -DSEG_COL_FOLD={}", p.inner);
  } else if (p.neighbours() > 1) {
    o += " -DCOLUMNS";
  }
  return o;
}

// Scratch that segmented calls keep per context, held for a whole call: seg_check's flag and the
// parts' partial states (a call's states and indices up to kKeptPartBytes together, so at most
// that much in each of the two buffers; more are made for the call alone). Made and released on
// every call, they cost NVIDIA's driver 7-36 us a call (H100; 0e461e6). The flag is 0 between
// calls once a call has read it as 0; any other way out of a call leaves it to be zeroed by the
// next.
struct SegmentedScratch {
  std::mutex mutex;
  bool flag_zero = false;
  cl::Buffer flag;                    // null until a call checks offsets
  std::unique_ptr<PinnedBytes> word;  // where the flag is read back
  cl::Buffer part_v, part_i;          // null until a call splits segments into parts
  std::uint64_t part_v_bytes = 0, part_i_bytes = 0;
};
constexpr std::uint64_t kKeptPartBytes = std::uint64_t{1} << 20;

// The flag of s, made on first use, and zeroed in the queue unless a call left it 0.
const cl::Buffer& offsets_flag(Exec& ex, SegmentedScratch& s) {
  const cl_uint zero = 0;
  if (!s.word) {
    cl_int err = CL_SUCCESS;
    cl::Buffer made(ex.ctx.context, CL_MEM_READ_WRITE, sizeof zero, nullptr, &err);
    RDX_CHECK_OUT(err, "clCreateBuffer(the offsets' flag)");
    s.flag = made;
    s.word = std::make_unique<PinnedBytes>(ex.ctx.context, ex.queue, sizeof zero);
  }
  // Zeroed by a fill in the queue, not a blocking write: no host round trip before the launch.
  if (!s.flag_zero) RDX_CHECK(ex.queue.enqueueFillBuffer(s.flag, zero, 0, sizeof zero));
  s.flag_zero = false;
  return s.flag;
}

// count partial states (and indices, for argmin/argmax): s's buffers, grown to a power of two,
// or the call's own beyond kKeptPartBytes.
States part_states(Exec& ex, SegmentedScratch& s, std::uint64_t count) {
  const std::uint64_t v = count * ex.state_bytes(), i = ex.indexed() ? count * 8 : 0;
  if (v + i > kKeptPartBytes) return ex.states(count);
  const auto grow = [&](cl::Buffer& b, std::uint64_t& have, std::uint64_t want) {
    if (have >= want) return;
    const std::uint64_t bytes = std::bit_ceil(std::max<std::uint64_t>(want, 4096));
    cl_int err = CL_SUCCESS;
    cl::Buffer made(ex.ctx.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    RDX_CHECK_OUT(err, detail::format("clCreateBuffer({} bytes of partial states)", bytes));
    b = made;
    have = bytes;
  };
  grow(s.part_v, s.part_v_bytes, v);
  if (i) grow(s.part_i, s.part_i_bytes, i);
  return States{s.part_v, i ? s.part_i : s.part_v, count};
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

SegmentedPlan run_segmented(Context::Impl& ctx, const SegmentedPlan& p, const BufferAt& input,
                            const cl::Buffer* offsets, const cl::Buffer& values,
                            const cl::Buffer* indices, bool check_offsets, const UserRun* user,
                            std::span<const ExactFieldPlace> exact_fields,
                            const StateResults* results) {
  if (p.user() != (user != nullptr))
    throw std::logic_error("run_segmented: a user's plan runs with its UserRun, and only it");
  if (results && (!takes_results(p) || results->out.empty() || results->out.size() > 4 ||
                  results->out.size() != results->types.size()))
    throw std::logic_error("run_segmented: results of a composite along axes, one to four");
  SegmentedPlan ran = p;
  const Plan kp = kernel_plan(p);
  // Taken before the Exec, so released after it ends: it waits for what it launched, also on
  // errors; anything else this call enqueued (the flag's fill) stays ahead of the next call's
  // commands on the same in-order queue.
  std::shared_ptr<SegmentedScratch> kept;
  std::unique_lock<std::mutex> kept_lock;
  if (check_offsets || (p.parts > 1 && !p.exact)) {
    kept = ctx.cached<SegmentedScratch>("segmented scratch");
    kept_lock = std::unique_lock<std::mutex>(kept->mutex);
  }
  Exec ex(ctx, kp);
  if (user) ex.user = *user;
  ex.in_offset = input.offset;
  const cl::Buffer& in = input.buffer;
  std::string opts = build_options(p, check_offsets);
  // A composite's results: its definitions followed by the statements (cl/seg_result.h).
  std::string definitions;
  if (results) {
    definitions = *user->definitions + "\n#define RDX_RESULT " + results->statements + "\n";
    ex.user->definitions = &definitions;
    opts += " -DSEG_RESULTS";
    for (std::size_t j = 0; j < results->types.size(); ++j)
      opts += detail::format(" -DR{}_T={}", j, type_row(results->types[j]).cl_name);
  }
  // The offsets' check runs first, on the same queue; the kernels after it read its flag.
  cl::Buffer bad;
  if (check_offsets) {
    SegmentedPlan checker = p;  // segmented.cl's options, also for the exact form
    checker.exact = false;
    Kernel check = ex.kernel("segmented.cl", "seg_check", build_options(checker, true));
    bad = offsets_flag(ex, *kept);
    ex.args(check, *offsets, p.segments, p.n, bad);
    ex.launch(check, p.segments + 1, std::min<std::size_t>(check.wg, 64));
  }
  const auto wait = [&] {
    if (!check_offsets) {
      RDX_CHECK(ex.queue.finish());
      return;
    }
    cl_uint flags = 0;
    ex.read_bytes(bad, 0, sizeof flags, kept->word->data());
    std::memcpy(&flags, kept->word->data(), sizeof flags);
    if (flags) throw ArgumentError("offsets: " + describe_bad_offsets(flags));
    kept->flag_zero = true;
  };
  if (p.segments == 0) {
    wait();
    return ran;
  }
  // Every reducing kernel's parameters after its input: the geometry (offsets, the view's, or
  // length and inner) and the segment count. Returns the next argument's index.
  cl::Buffer view;
  if (p.by_view) {
    const std::vector<std::int64_t> g = view_geometry(p.view);
    view = ex.buffer(g.size() * sizeof g[0], g.data());
  }
  const auto geometry_args = [&](Kernel& k, cl_uint i) {
    if (p.by_offsets) {
      ex.arg(k, i++, *offsets);
    } else if (p.by_view) {
      ex.arg(k, i++, view);
    } else {
      ex.arg(k, i++, p.length);
      ex.arg(k, i++, p.inner);
    }
    ex.arg(k, i++, p.segments);
    return i;
  };
  if (p.exact) {
    // Built-in: one sum into the values; a user's reduction: each field into its states' place.
    const ExactFieldPlace whole{"", p.type, 0};
    const std::span<const ExactFieldPlace> sums =
        user ? exact_fields : std::span<const ExactFieldPlace>(&whole, 1);
    for (const ExactFieldPlace& field : sums) {
      SegmentedPlan fp = p;  // the field's values, rounded in its type
      fp.type = field.type;
      fp.acc = user ? field.type : p.acc;
      std::string fopts = build_options(fp, check_offsets);
      if (user) fopts += " -DEXACT_FIELD=" + field.name;
      Kernel k = ex.kernel("exact_segments.cl", "exact_segments", fopts);
      ran.work_group_size = k.wg;
      ran.lanes = std::min<std::uint64_t>(p.lanes, k.wg);
      ex.arg(k, 0, in);
      cl_uint i = geometry_args(k, 1);
      ex.arg(k, i++, values);
      ex.arg(k, i++, std::uint64_t{user ? user->state_bytes : size_of(p.acc)});
      ex.arg(k, i++, std::uint64_t{field.offset});
      if (check_offsets) ex.arg(k, i++, bad);
      ex.input_args(k, i);
      const std::uint64_t per_group = k.wg / ran.lanes;
      ex.launch(k, (p.segments + per_group - 1) / per_group * k.wg, k.wg);
    }
    wait();
    return ran;
  }
  Kernel reduce = ex.kernel("segmented.cl", p.column_block ? "seg_columns" : "seg_reduce", opts);
  ran.work_group_size = reduce.wg;
  ran.lanes = std::min<std::uint64_t>(p.lanes, reduce.wg);
  const bool indexed = !user && is_index_op(p.op);
  const cl::Buffer& out_i = indexed ? *indices : values;

  const std::uint64_t per_group = reduce.wg / ran.lanes;
  const std::uint64_t groups = (p.segments + per_group - 1) / per_group * p.parts;
  // seg_columns: a work-item (local size 1) per block of columns of an outer slice, per part.
  const std::uint64_t column_tasks =
      p.column_block
          ? p.segments / p.inner * ((p.inner + p.column_block - 1) / p.column_block) * p.parts
          : 0;
  const States part =
      p.parts > 1 ? part_states(ex, *kept, p.segments * p.parts) : States{values, out_i, 0};
  // The parameters seg_reduce and seg_finish share after their inputs: the geometry, the empty
  // value (not for a user's reduction), the outputs and, when checked, the offsets' flag.
  // Returns the next argument's index.
  const auto common_args = [&](Kernel& k, cl_uint i, const States& out) {
    i = geometry_args(k, i);
    if (!user) ex.arg(k, i++, empty_value(p));
    ex.arg(k, i++, out.values);
    ex.arg(k, i++, out.indices);
    if (results)
      for (std::size_t j = 0; j < 4; ++j)
        ex.arg(k, i++, results->out[j < results->out.size() ? j : 0]);
    if (check_offsets) ex.arg(k, i++, bad);
    return i;
  };
  ex.arg(reduce, 0, in);
  ex.input_args(reduce, common_args(reduce, 1, part));  // a user's further inputs
  if (p.column_block)
    ex.launch(reduce, column_tasks, 1);
  else
    ex.launch(reduce, groups * reduce.wg, reduce.wg);
  if (p.parts > 1) {
    Kernel finish = ex.kernel("segmented.cl", "seg_finish", opts);
    ex.arg(finish, 0, part.values);
    ex.arg(finish, 1, part.indices);
    ex.input_args(finish, common_args(finish, 2, States{values, out_i, p.segments}));
    ex.launch(finish, p.segments, std::min<std::size_t>(finish.wg, 64));
  }
  wait();
  return ran;
}

void identity_states(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                     const cl::Buffer& out, std::uint64_t count) {
  if (count == 0) return;
  const Plan kp = kernel_plan(p);
  Exec ex(ctx, kp);
  ex.user = user;
  Kernel k = ex.kernel("segmented.cl", "seg_identity", build_options(p, false));
  ex.args(k, out, count);
  ex.launch(k, count, std::min<std::size_t>(k.wg, 64));
}

void merge_states(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                  const cl::Buffer& out, std::uint64_t first, const cl::Buffer& piece,
                  std::uint64_t count) {
  if (count == 0) return;
  const Plan kp = kernel_plan(p);
  Exec ex(ctx, kp);
  ex.user = user;
  Kernel k = ex.kernel("segmented.cl", "seg_merge", build_options(p, false));
  ex.args(k, out, first, piece, count);
  ex.launch(k, count, std::min<std::size_t>(k.wg, 64));
}

void state_results(Context::Impl& ctx, const SegmentedPlan& p, const UserRun& user,
                   const cl::Buffer& states, const std::string& results,
                   std::span<const Type> out_types, std::span<const cl::Buffer> out) {
  if (p.by_offsets || p.exact || out.empty() || out.size() > 4 || out.size() != out_types.size())
    throw std::logic_error("state_results: an axis or view plan, one to four outputs");
  if (p.segments == 0) return;
  const std::string definitions = *user.definitions + "\n#define RDX_RESULT " + results + "\n";
  UserRun run = user;
  run.definitions = &definitions;
  std::string opts = view_options(p);
  for (std::size_t j = 0; j < out_types.size(); ++j)
    opts += detail::format(" -DR{}_T={}", j, type_row(out_types[j]).cl_name);
  const Plan kp = kernel_plan(p);
  Exec ex(ctx, kp);
  ex.user = run;
  Kernel k = ex.kernel("seg_results.cl", "seg_results", opts);
  const auto at = [&](std::size_t j) -> const cl::Buffer& { return out[j < out.size() ? j : 0]; };
  ex.args(k, states, p.segments, p.length, p.inner, at(0), at(1), at(2), at(3));
  ex.launch(k, p.segments, std::min<std::size_t>(k.wg, 64));
  RDX_CHECK(ex.queue.finish());
}

}  // namespace rdx::detail
