// clrdx bench --layouts: segmented and axis reductions timed the way the segmented yardsticks
// time them (bench/yardsticks: cub_segmented_reduce.cu, native_cpu_segmented.cpp): data (element
// i = i % 7), offsets and results stay on the device; one call = every segment reduced, waited
// for; the median over --repeat calls after warm-up. GB/s counts input bytes only.
#include "core/format.hpp"

#include <algorithm>
#include <iostream>

#include "commands.hpp"
#include "core/files.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "timing.hpp"

namespace clrdx {
namespace {

// The yardsticks' hash for the power-law mix.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::vector<std::uint64_t> layout_offsets(const Layout& l, std::uint64_t n) {
  std::vector<std::uint64_t> off{0};
  if (l.kind == Layout::Kind::PowerLaw) {
    for (std::uint64_t s = 0; off.back() < n; ++s)
      off.push_back(std::min(n, off.back() + (std::uint64_t{1} << (splitmix64(s) % 17))));
  } else {
    for (std::uint64_t b = l.width; b <= n; b += l.width)
      off.push_back(b);
  }
  return off;
}

cl::Buffer device_buffer(rdx::Context& ctx, std::size_t bytes, const void* init) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(ctx.cl_context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &err);
  if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateBuffer(bench)");
  if (init && bytes) {
    err = ctx.queue().enqueueWriteBuffer(b, CL_TRUE, 0, bytes, init);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clEnqueueWriteBuffer(bench)");
  }
  return b;
}

// Segment k's elements, gathered from the host copy of the input in the order the segment
// reduces them (offsets: [off[k], off[k + 1]); rows and columns of `width`; apart:W, the view
// form: element (l / W, k, l % W) of W x (n / W^2) x W).
std::vector<unsigned char> segment_elements(const rdx::SegmentedPlan& p,
                                            const std::vector<unsigned char>& host,
                                            const std::vector<std::uint64_t>& off,
                                            std::uint64_t width, std::uint64_t k) {
  const std::size_t es = rdx::size_of(p.type);
  if (p.by_offsets) return {host.begin() + off[k] * es, host.begin() + off[k + 1] * es};
  std::vector<unsigned char> elems;
  for (std::uint64_t l = 0; l < p.length; ++l) {
    const std::uint64_t at = p.by_view      ? l / width * (p.n / width) + k * width + l % width
                             : p.inner == 1 ? k * width + l
                                            : l * width + k;
    elems.insert(elems.end(), host.begin() + at * es, host.begin() + (at + 1) * es);
  }
  return elems;
}

// The segments check_sample checks: up to 200 spread over the result, the first and the last
// among them.
std::vector<std::uint64_t> sample_segments(std::uint64_t segments) {
  std::vector<std::uint64_t> r;
  const std::uint64_t step = std::max<std::uint64_t>(1, segments / 200);
  for (std::uint64_t k = 0; k < segments;
       k = k + step < segments || k + 1 == segments ? k + step : segments - 1)
    r.push_back(k);
  return r;
}

// A composite's results (SegmentedStats' form) sampled as check_sample does, each segment
// against verify's host reference (check_stat_result; dot: the input with itself).
std::string check_stat_sample(rdx::Stat s, const rdx::SegmentedStats& r,
                              const std::vector<unsigned char>& host,
                              const std::vector<std::uint64_t>& off, std::uint64_t width) {
  const rdx::SegmentedPlan& p = r.plan;
  for (std::uint64_t k : sample_segments(p.segments)) {
    const std::vector<unsigned char> elems = segment_elements(p, host, off, width, k);
    const std::uint64_t count = elems.size() / rdx::size_of(p.type);
    if (count == 0) continue;  // an empty segment: the composite's empty value, not a reference's
    rdx::StatResult one;
    one.value = r.value(k);
    if (s == rdx::Stat::MinMax) {
      one.index = r.indices[k];
      one.max = r.max(k);
      one.max_index = r.max_indices[k];
    }
    if (std::string why = rdx::check_stat_result(one, s, p.type, elems.data(), elems.data(), count);
        !why.empty())
      return rdx::detail::format("segment {}: {}", k, why);
  }
  return "";
}

// The results reduce_axes_into wrote to `out` (stat_result_types' types) read back in
// SegmentedStats' form.
rdx::SegmentedStats read_stats(rdx::Context& ctx, rdx::Stat s, const rdx::SegmentedPlan& p,
                               const std::vector<rdx::Type>& types,
                               const std::vector<cl::Buffer>& out) {
  rdx::SegmentedStats r;
  r.stat = s;
  r.type = types[0];
  r.plan = p;
  auto read = [&](std::size_t j, void* to, std::size_t bytes) {
    const cl_int err = ctx.queue().enqueueReadBuffer(out[j], CL_TRUE, 0, bytes, to);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clEnqueueReadBuffer(bench results)");
  };
  r.values.resize(p.segments * rdx::size_of(r.type));
  read(0, r.values.data(), r.values.size());
  if (s == rdx::Stat::MinMax) {
    r.indices.resize(p.segments);
    r.max_values.resize(r.values.size());
    r.max_indices.resize(p.segments);
    read(1, r.indices.data(), p.segments * 8);
    read(2, r.max_values.data(), r.max_values.size());
    read(3, r.max_indices.data(), p.segments * 8);
  }
  return r;
}

// Up to 200 segments spread over the result (the first and the last among them) against the
// host reference; "" when they pass.
std::string check_sample(rdx::Context& ctx, const rdx::SegmentedPlan& p, const cl::Buffer& values,
                         const cl::Buffer& indices, const std::vector<unsigned char>& host,
                         const std::vector<std::uint64_t>& off, std::uint64_t width) {
  rdx::SegmentedResult r;
  r.acc = p.acc;
  r.plan = p;
  r.values.resize(p.segments * rdx::size_of(p.acc));
  r.indices.resize(rdx::is_index_op(p.op) ? p.segments : 0);
  cl_int err = ctx.queue().enqueueReadBuffer(values, CL_TRUE, 0, r.values.size(), r.values.data());
  if (err == CL_SUCCESS && !r.indices.empty())
    err =
        ctx.queue().enqueueReadBuffer(indices, CL_TRUE, 0, r.indices.size() * 8, r.indices.data());
  if (err != CL_SUCCESS) throw rdx::ClError(err, "clEnqueueReadBuffer(bench results)");
  const std::size_t es = rdx::size_of(p.type);
  for (std::uint64_t k : sample_segments(p.segments)) {
    // One segment as a result of its own: its elements gathered, its value and index alone.
    const std::vector<unsigned char> elems = segment_elements(p, host, off, width, k);
    const std::uint64_t count = elems.size() / es;
    rdx::SegmentedResult one;
    one.acc = p.acc;
    one.plan = p;
    one.plan.segments = 1;
    one.values.assign(r.values.begin() + k * rdx::size_of(p.acc),
                      r.values.begin() + (k + 1) * rdx::size_of(p.acc));
    if (!r.indices.empty()) one.indices = {r.indices[k]};
    const std::uint64_t seg[] = {0, count};
    if (std::string why = rdx::check_segments(one, elems.data(), seg); !why.empty())
      return rdx::detail::format("segment {}: {}", k, why);
  }
  return "";
}

}  // namespace

int cmd_bench_segmented(const BenchArgs& a) {
  const rdx::Type type = rdx::parse_type(a.type);
  const std::optional<rdx::Stat> stat = rdx::find_stat(a.op);  // a composite, as bench's --op
  const rdx::Op op = stat ? rdx::Op::Sum : rdx::parse_op(a.op);
  const std::string_view op_name = stat ? rdx::name(*stat) : rdx::name(op);
  const auto sizes = parse_counts(a.sizes);
  const auto layouts = parse_layouts(a.layouts);
  const auto levels = parse_determinism_list(a.determinism);
  rdx::generate(type, a.data, 0);  // an unknown --data pattern fails before any device work
  if (!a.json_file.empty()) check_writable_location(a.json_file);
  std::string json_rows;
  bool all_ok = true;
  for (const auto& dev : pick_devices(a.device)) {
    rdx::Context ctx(std::to_string(dev.index));
    for (const std::uint64_t n : sizes) {
      const std::uint64_t bytes = n * rdx::size_of(type);
      rdx::detail::print("\n{} ({}), segmented {} {} of n = {} ({:.1f} MiB)\n", dev.name,
                         dev.platform, op_name, rdx::name(type), n, bytes / 1048576.0);
      rdx::detail::print("  {:<16} {:>10} {:>12} {:>10}  {}\n", "layout", "segments", "time",
                         "GB/s", "plan");
      const auto host = rdx::generate(type, a.data, n);
      const cl::Buffer in = bench_input(ctx, host);
      for (const Layout& l : layouts) {
        for (const rdx::Determinism level : levels) {
          rdx::Options opts;
          opts.determinism = level;
          opts.work_group_size = a.wg;
          if (a.lanes) opts.tuning.set("lanes", a.lanes);
          if (a.parts) opts.tuning.set("parts", a.parts);
          if (a.seg_unroll) opts.tuning.set("unroll", a.seg_unroll);
          if (a.seg_vector) opts.tuning.set("vector", a.seg_vector);
          if (a.column_block) opts.tuning.set("column_block", *a.column_block);
          // Rows of a level other than the default are named layout:level.
          const std::string label = level == rdx::Determinism::RunToRun
                                        ? l.name
                                        : rdx::detail::format("{}:{}", l.name, rdx::name(level));
          std::cerr << rdx::detail::format("bench: {} n={} {}\n", dev.name, n, label);
          std::vector<std::uint64_t> off;
          std::uint64_t segments = 0;
          std::vector<std::uint64_t> shape;
          std::size_t axis = 0;
          const bool apart = l.kind == Layout::Kind::Apart;
          if (l.kind == Layout::Kind::Uniform || l.kind == Layout::Kind::PowerLaw) {
            off = layout_offsets(l, n);
            segments = off.size() - 1;
          } else if (apart) {  // NumPy's a.reshape(W, n / W^2, W).sum(axis=(0, 2))
            segments = n / l.width / l.width;
            shape = {l.width, segments, l.width};
          } else {
            shape = {n / l.width, l.width};
            axis = l.kind == Layout::Kind::Rows ? 1 : 0;
            segments = l.kind == Layout::Kind::Rows ? n / l.width : l.width;
          }
          if (segments == 0 || (!shape.empty() && n % l.width) ||
              (apart && n % (l.width * l.width))) {
            rdx::detail::print("  {:<16} skipped: n is not a multiple of the width{}\n", label,
                               apart ? "'s square" : "");
            continue;
          }
          std::vector<std::int64_t> axes = {l.kind == Layout::Kind::Rows ? 1 : 0};
          if (apart) axes = {0, 2};
          rdx::SegmentedPlan plan;
          std::string why;
          Timed timed;
          if (stat) {
            try {  // rdx::reduce_axes_into (results on the device), or reduce_segments
              // dot's second input: a copy (reading one buffer twice would hit caches)
              std::vector<rdx::DeviceArray> ins = {{type, in, 0}};
              if (rdx::input_count(*stat) == 2) ins.push_back({type, bench_input(ctx, host), 0});
              const std::vector<rdx::Type> in_types(ins.size(), type);
              const std::vector<rdx::Type> types =
                  rdx::stat_result_types(ctx.device_info(), *stat, in_types, opts);
              std::vector<cl::Buffer> outs;
              for (rdx::Type t : types)
                outs.push_back(device_buffer(ctx, segments * rdx::size_of(t), nullptr));
              rdx::SegmentedStats by_offsets;
              timed = time_call(
                  [&] {
                    if (shape.empty()) {
                      by_offsets = rdx::reduce_segments(ctx, *stat, ins, n, off, opts);
                      plan = by_offsets.plan;
                    } else {
                      plan = rdx::reduce_axes_into(ctx, *stat, ins, rdx::View::contiguous(shape),
                                                   axes, outs, opts);
                    }
                    return rdx::Result{};
                  },
                  a.repeat);
              why = check_stat_sample(
                  *stat, shape.empty() ? by_offsets : read_stats(ctx, *stat, plan, types, outs),
                  host, off, shape.empty() ? 0 : l.width);
            } catch (const rdx::UnsupportedError& e) {  // a level or form it does not have
              rdx::detail::print("  {:<16} skipped: {}\n", label, e.what());
              continue;
            }
          } else {
            const cl::Buffer offsets = device_buffer(ctx, off.size() * 8, off.data());
            // The values' type: the plan's accumulator (an f16 sum's is f32), which the tunables
            // do not change.
            rdx::Options untuned = opts;
            untuned.tuning = {};
            const rdx::Type acc =
                rdx::plan_segments(ctx.device_info(), type, op, n, segments, untuned).acc;
            const cl::Buffer values = device_buffer(ctx, segments * rdx::size_of(acc), nullptr);
            const cl::Buffer indices =
                device_buffer(ctx, rdx::is_index_op(op) ? segments * 8 : 1, nullptr);
            timed = time_call(
                [&] {
                  plan =
                      shape.empty() ? rdx::reduce_segments_into(ctx, type, in, n, offsets, segments,
                                                                op, values, &indices, opts)
                      : apart ? rdx::reduce_axes_into(ctx, type, in, rdx::View::contiguous(shape),
                                                      axes, op, values, &indices, opts)
                              : rdx::reduce_axis_into(ctx, type, in, shape, axis, op, values,
                                                      &indices, opts);
                  return rdx::Result{};
                },
                a.repeat);
            why = check_sample(ctx, plan, values, indices, host, off, shape.empty() ? 0 : l.width);
          }
          if (!why.empty()) all_ok = false;
          const std::uint64_t read = bytes * (stat ? rdx::input_count(*stat) : 1);
          const double gbps = static_cast<double>(read) / timed.seconds / 1e9;
          rdx::detail::print("  {:<16} {:>10} {:>10.1f} us {:>10.1f}  {}{}\n", label, segments,
                             timed.seconds * 1e6, gbps, plan.describe(),
                             why.empty() ? "" : " WRONG: " + why);
          json_rows += nlohmann::json{{"impl", "clrdx_segmented"},
                                      {"device", dev.name},
                                      {"platform", dev.platform},
                                      {"op", std::string(op_name)},
                                      {"type", std::string(rdx::name(type))},
                                      {"layout", l.name},
                                      {"determinism", std::string(rdx::name(level))},
                                      {"n", n},
                                      {"segments", segments},
                                      {"call_us", timed.seconds * 1e6},
                                      {"GBps", gbps},
                                      {"plan", plan.describe()},
                                      {"checked", why.empty()}}
                           .dump() +
                       "\n";
        }
      }
    }
  }
  if (!a.json_file.empty()) rdx::detail::write_file_atomically(a.json_file, json_rows);
  return all_ok ? 0 : 1;
}

}  // namespace clrdx
