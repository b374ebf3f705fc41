// clrdx bench: per device and size, every strategy on the same device-resident data (element
// i = i % 7, the yardsticks' contract); one call = reduce + read the scalar back; the median
// over --repeat calls after warm-up. Table in the shape of seed 001's.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/format.hpp"
#include "core/text.hpp"
#include "ops/operators.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string_view>

#include "commands.hpp"
#include "core/files.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "timing.hpp"

namespace clrdx {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The read kernel of the peak: every work-item sums vector loads (VT, `vb` bytes) of the `inputs`
// buffers over one of three layouts (LAYOUT 0: grid-stride, 1: a block per group, 2: a range per
// work-item) and stores nothing unless the sum hits `sentinel`, so the loads stay live and no
// write traffic is timed.
std::string read_kernel_source(unsigned inputs, unsigned vb) {
  std::string args, load, tail;
  for (unsigned k = 0; k < inputs; ++k) {
    args += rdx::detail::format("__global const VT* a{}, ", k);
    load += rdx::detail::format(" + a{}[j]", k);
    tail += rdx::detail::format(" + ((__global const uchar*)a{})[vecs * {} + j]", k, vb);
  }
  return rdx::detail::format(R"(
#define VT uint{vw}
#define LOAD(j) ((VT)(0){load})
__kernel void rdx_peak_read({args}ulong vecs, ulong tail_bytes, uint sentinel,
                            __global uint* out) {{
#if LAYOUT == 0
  const ulong step = get_global_size(0), end = vecs;
  ulong i = get_global_id(0);
#elif LAYOUT == 1
  const ulong step = get_local_size(0), per = (vecs + get_num_groups(0) - 1) / get_num_groups(0);
  const ulong end = min(vecs, (get_group_id(0) + 1) * per);
  ulong i = get_group_id(0) * per + get_local_id(0);
#else
  const ulong step = 1, per = (vecs + get_global_size(0) - 1) / get_global_size(0);
  const ulong end = min(vecs, (get_global_id(0) + 1) * per);
  ulong i = get_global_id(0) * per;
#endif
  VT s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (; i + 3 * step < end; i += 4 * step) {{
    s0 += LOAD(i);
    s1 += LOAD(i + step);
    s2 += LOAD(i + 2 * step);
    s3 += LOAD(i + 3 * step);
  }}
  for (; i < end; i += step) s0 += LOAD(i);
  uint t = 0;
  if (get_global_id(0) == 0)
    for (ulong j = 0; j < tail_bytes; ++j) t += 0{tail};
  if (any((s0 + s1 + s2 + s3) == (VT)(sentinel)) || t == sentinel) out[0] = t;
}}
)",
                             fmt::arg("vw", vb / 4), fmt::arg("args", args), fmt::arg("load", load),
                             fmt::arg("tail", tail));
}

// The best read bandwidth in GB/s of a bare read kernel over the very buffers that the rows
// reduce, so that it reads the same bytes from the same level of the memory hierarchy (a buffer
// that fits in a cache is read from it, by the rows and by this alike). The best over three
// layouts (layout 2 with one work-item a group is fast_blocked's form on CPUs), work-group sizes
// and group counts, each launch timed like a call (enqueue to completion, on the host's clock)
// and taken at its fastest, after launches for as long as a row warms up.
double measure_read_bandwidth(rdx::Context& ctx, const std::vector<rdx::DeviceArray>& inputs,
                              std::uint64_t bytes) {
  const auto& dev = ctx.device_info();
  // 16-byte loads (coalesced uint4 on GPUs); a CPU's full SIMD register where it is wider.
  const unsigned vb = dev.kind == rdx::DeviceKind::CPU && dev.native_vector_bytes >= 32
                          ? std::min(dev.native_vector_bytes, 64u)
                          : 16;
  const auto inputs_n = static_cast<unsigned>(inputs.size());
  const std::uint64_t per_input = bytes / inputs_n, vecs = per_input / vb;
  const std::uint64_t cus = std::max<std::uint64_t>(dev.compute_units, 1);
  const auto& q = ctx.queue();
  cl_int err = CL_SUCCESS;
  cl::Buffer out(ctx.cl_context(), CL_MEM_WRITE_ONLY, sizeof(cl_uint), nullptr, &err);
  if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateBuffer(read bandwidth)");
  double best = 0;
  for (const int layout : {0, 1, 2}) {
    cl::Program program(ctx.cl_context(), read_kernel_source(inputs_n, vb), false, &err);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateProgramWithSource(read bandwidth)");
    if (program.build({ctx.cl_device()}, rdx::detail::format("-DLAYOUT={}", layout).c_str()) !=
        CL_SUCCESS)
      throw rdx::Error(
          rdx::detail::format("bench: the read-bandwidth kernel does not build on this device: {}",
                              program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(ctx.cl_device())));
    cl::Kernel kernel(program, "rdx_peak_read", &err);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clCreateKernel(read bandwidth)");
    unsigned arg = 0;
    const auto set = [&](const auto& value) {
      if ((err = kernel.setArg(arg++, value)) != CL_SUCCESS)
        throw rdx::ClError(err, "clSetKernelArg(read bandwidth)");
    };
    for (const auto& in : inputs)
      set(in.buffer);
    set(cl_ulong{vecs});
    set(cl_ulong{per_input % vb});
    set(cl_uint{0x9e3779b9u});
    set(out);
    const std::size_t max_wg =
        kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(ctx.cl_device(), &err);
    if (err != CL_SUCCESS) throw rdx::ClError(err, "clGetKernelWorkGroupInfo(read bandwidth)");
    // (work-group size, groups): neighbouring work-items on neighbouring vectors for layouts 0
    // and 1; one work-item per group, each on a range of at least 64 vectors, for layout 2.
    std::vector<std::pair<std::size_t, std::uint64_t>> shapes;
    for (const std::size_t wg :
         layout == 2 ? std::vector<std::size_t>{1} : std::vector<std::size_t>{64, 256}) {
      const std::size_t local = std::min(wg, max_wg);
      const std::uint64_t per_item = layout == 2 ? 64 : 1;
      const std::uint64_t most = std::max<std::uint64_t>(1, vecs / (local * per_item));
      for (const std::uint64_t g : {cus, 4 * cus, 8 * cus, 16 * cus})
        if (const std::pair s{local, std::clamp<std::uint64_t>(g, 1, most)};
            std::find(shapes.begin(), shapes.end(), s) == shapes.end())
          shapes.push_back(s);
    }
    const auto launch = [&](const cl::NDRange& global, const cl::NDRange& group) {
      const auto t0 = Clock::now();
      if ((err = q.enqueueNDRangeKernel(kernel, cl::NullRange, global, group)) != CL_SUCCESS)
        throw rdx::ClError(err, "clEnqueueNDRangeKernel(read bandwidth)");
      if ((err = q.finish()) != CL_SUCCESS) throw rdx::ClError(err, "clFinish");
      return seconds_since(t0);
    };
    for (const auto& [local, groups] : shapes) {
      const cl::NDRange global(local * groups), group(local);
      // The first shape warms up as a row does (PoCL 5 ran a process's first configuration
      // 1.3-2.2x slower, timing.cpp); later ones after one launch. Then at least 4 timed
      // launches, more while they stay under 40 ms.
      const auto w0 = Clock::now();
      for (int i = 0;
           i == 0 || (best == 0 && i < kMostWarmUpCalls && seconds_since(w0) < kWarmUpSeconds); ++i)
        launch(global, group);
      double fastest = 0, spent = 0;
      for (int i = 0; i < 4 || (i < 40 && spent < 0.04); ++i) {
        const double t = launch(global, group);
        spent += t;
        fastest = fastest > 0 ? std::min(fastest, t) : t;
      }
      best = std::max(best, static_cast<double>(bytes) / fastest / 1e9);
    }
  }
  return best;
}

std::string format_time(double s) {
  if (s < 1e-3) return rdx::detail::format("{:.1f} us", s * 1e6);
  if (s < 1) return rdx::detail::format("{:.3f} ms", s * 1e3);
  return rdx::detail::format("{:.3f} s", s);
}

// The plot script: $RDX_PLOT_SCRIPT, else the installed one (RDX_DATA_FROM_BIN, share/rdx, from
// the folder of the running clrdx), else the source tree's tools/clrdx/plot_bench.py.
std::string find_plot_script() {
  std::error_code ec;
  if (const char* env = std::getenv("RDX_PLOT_SCRIPT")) {
    if (!std::filesystem::is_regular_file(env, ec))
      throw rdx::Error(rdx::detail::format("bench --plot: RDX_PLOT_SCRIPT={} is not a file",
                                           rdx::detail::printable(env)));
    return env;
  }
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  for (const std::filesystem::path& p :
       {exe.parent_path() / RDX_DATA_FROM_BIN / "plot_bench.py",
        std::filesystem::path(RDX_SOURCE_DIR) / "tools/clrdx/plot_bench.py"})
    if (std::filesystem::is_regular_file(p, ec)) return p.lexically_normal().string();
  throw rdx::Error(
      "bench --plot: cannot find plot_bench.py (looked in share/rdx beside clrdx's bin folder; "
      "set RDX_PLOT_SCRIPT)");
}

// The executable `name` in a folder of $PATH, or "" when there is none.
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    const std::string file = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(file.c_str(), X_OK) == 0 && !std::filesystem::is_directory(file)) return file;
  }
  return {};
}

struct Plotter {
  std::string python, script;
};

// What --plot needs, checked before anything is measured: python3 and gnuplot on PATH (the
// script draws through gnuplot) and the plot script.
Plotter find_plotter() {
  if (find_on_path("gnuplot").empty())
    throw rdx::Error(
        "bench --plot needs gnuplot on PATH (Debian: gnuplot-nox, which tools/setup.sh --plot "
        "installs)");
  Plotter p;
  p.python = find_on_path("python3");
  if (p.python.empty()) throw rdx::Error("bench --plot needs python3 on PATH");
  p.script = find_plot_script();
  return p;
}

// Runs the plot script on the JSON rows; throws rdx::Error when it cannot run or fails.
void plot(const Plotter& p, const std::string& rows, const std::string& png) {
  std::vector<std::string> args = {p.python, p.script, rows, png};
  std::vector<char*> argv;
  for (auto& arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = ::posix_spawn(&pid, p.python.c_str(), nullptr, nullptr, argv.data(), environ))
    throw rdx::Error(rdx::detail::format("bench --plot: cannot run {}: {}",
                                         rdx::detail::printable(p.python), std::strerror(err)));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      throw rdx::Error(rdx::detail::format("bench --plot: {}", std::strerror(errno)));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw rdx::Error(rdx::detail::format("bench --plot: {} {} failed",
                                         rdx::detail::printable(p.python),
                                         rdx::detail::printable(p.script)));
}

// A private temporary file ($TMPDIR, else /tmp), removed when this goes out of scope.
class TempFile {
 public:
  explicit TempFile(const std::string& suffix) {
    std::error_code ec;
    const auto dir = std::filesystem::temp_directory_path(ec);
    std::string name = (ec ? std::filesystem::path("/tmp") : dir) / ("clrdx_bench.XXXXXX" + suffix);
    const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
    if (fd < 0)
      throw rdx::Error(rdx::detail::format("cannot create a temporary file {}: {}",
                                           rdx::detail::printable(name), std::strerror(errno)));
    ::close(fd);
    path_ = name;
  }
  ~TempFile() { ::unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Row {
  std::string strategy;
  double seconds = 0;
  double device_seconds = 0;  // median device time of the kernels (profiled calls)
  bool ok = false;
  unsigned round = 1;
  std::string result, note;
};

// The median device time of separate calls with Options::profile (`call` makes one with the
// options it is given): half of `repeat` calls, at least 3, and 3 where a call took over 0.2 s.
double median_device_seconds(double call_seconds, int repeat, const rdx::Options& opts,
                             const std::function<double(const rdx::Options&)>& call) {
  rdx::Options prof = opts;
  prof.profile = true;
  const int calls = std::max(3, (call_seconds > 0.2 ? 3 : repeat) / 2);
  std::vector<double> times;
  for (int i = 0; i < calls; ++i)
    times.push_back(call(prof));
  return median(times);
}

}  // namespace

std::vector<BenchTuning> bench_tunings(const BenchArgs& a) {
  const auto values = [](const std::vector<unsigned>& v) {
    return v.empty() ? std::vector<unsigned>{0} : v;
  };
  const auto part = [](const std::vector<unsigned>& v, const char* tag, unsigned x) {
    return v.size() > 1 ? rdx::detail::format("/{}{}", tag, x) : std::string();
  };
  std::vector<BenchTuning> all;
  for (unsigned g : values(a.groups_per_cu))
    for (unsigned vw : values(a.vector_width))
      for (unsigned u : values(a.unroll))
        all.push_back({g, vw, u,
                       part(a.groups_per_cu, "g", g) + part(a.vector_width, "vw", vw) +
                           part(a.unroll, "u", u)});
  return all;
}

rdx::Params bench_tuning(const BenchTuning& t, rdx::Type type) {
  rdx::Params p;
  if (t.groups_per_cu) p.set("groups_per_cu", t.groups_per_cu);
  if (t.vector_width) p.set("vector_bytes", std::uint64_t{t.vector_width} * rdx::size_of(type));
  if (t.unroll) p.set("unroll", t.unroll);
  return p;
}

int cmd_bench(const BenchArgs& a) {
  const rdx::Type type = rdx::parse_type(a.type);
  // A composite (mean, var, ...; rdx/stats.hpp) or a built-in operator, as clrdx reduce reads
  // --op.
  const std::optional<rdx::Stat> stat = rdx::find_stat(a.op);
  const rdx::Op op = stat ? rdx::Op::Sum : rdx::parse_op(a.op);
  const std::string_view op_name = stat ? rdx::name(*stat) : rdx::name(op);
  const auto sizes = parse_counts(a.sizes);
  const auto names = parse_strategy_list(a.strategy);
  const auto levels = parse_determinism_list(a.determinism);
  rdx::generate(type, a.data, 0);  // an unknown --data pattern fails before any device work
  // What the results go to is checked before the (long) measurement.
  std::optional<Plotter> plotter;
  if (!a.plot_file.empty()) plotter = find_plotter();
  if (!a.json_file.empty()) check_writable_location(a.json_file);
  std::optional<TempFile> plot_rows;  // --plot without --json: the rows go to a private file
  if (plotter && a.json_file.empty()) plot_rows.emplace(".jsonl");
  const auto devices = pick_devices(a.device);
  // Each round times every strategy under every level with every tuning, in that order.
  struct Case {
    std::string name;
    rdx::Determinism level;
    BenchTuning tuning;
  };
  std::vector<Case> cases;
  for (const auto& nm : names)
    for (rdx::Determinism d : levels)
      for (const BenchTuning& t : bench_tunings(a))
        cases.push_back({nm, d, t});
  const bool keep_rows = !a.json_file.empty() || plotter;
  std::string json_rows;  // one JSON object per line
  bool all_ok = true;

  for (const auto& dev : devices) {
    rdx::Context ctx(std::to_string(dev.index));
    const double roundtrip = rdx::measure_roundtrip(ctx);
    rdx::detail::print("\n{}: round trip of an empty kernel + one scalar read: {}\n", dev.name,
                       format_time(roundtrip));
    for (const std::uint64_t n : sizes) {
      const std::uint64_t bytes = n * rdx::size_of(type);
      const std::string title =
          rdx::detail::format("\n{} ({}), {} {} of n = {} ({:.1f} MiB)", dev.name, dev.platform,
                              op_name, rdx::name(type), n, bytes / 1048576.0);
      if (bytes > dev.max_alloc || n == 0) {
        rdx::detail::print("{}\n  skipped: {} bytes {}\n", title, bytes,
                           n == 0 ? "(empty input)" : "exceed the device's largest allocation");
        continue;
      }
      const auto host = rdx::generate(type, a.data, n);
      const auto ref =
          stat ? rdx::Reference{} : rdx::reference_reduce(type, type, op, host.data(), n);
      const cl::Buffer buf = bench_input(ctx, host);
      // --map: distinct copies of the data for x1.. (reading one buffer twice would hit caches);
      // dot's second input, likewise.
      std::vector<rdx::DeviceArray> mapped = {{type, buf}};
      const unsigned inputs = stat            ? static_cast<unsigned>(rdx::input_count(*stat))
                              : a.map.empty() ? 1
                                              : a.inputs;
      for (unsigned k = 1; k < inputs; ++k)
        mapped.push_back({type, bench_input(ctx, host)});
      const std::uint64_t read_bytes = bytes * mapped.size();
      const bool measured = a.peak <= 0;
      double peak = a.peak;
      if (measured) {
        std::cerr << rdx::detail::format("bench: {} n={}: measuring read bandwidth\n", dev.name, n);
        peak = measure_read_bandwidth(ctx, mapped, read_bytes);
      }

      std::vector<Row> rows;
      for (unsigned round = 1; round <= a.rounds; ++round)
        for (const Case& c : cases) {
          const std::string& name = c.name;
          const rdx::Determinism level = c.level;
          const BenchTuning& t = c.tuning;
          Row row;
          row.round = round;
          row.strategy =
              (a.label.empty() ? name : a.label) + t.suffix +
              (level == rdx::Determinism::RunToRun ? "" : ":" + std::string(rdx::name(level))) +
              (round > 1 ? rdx::detail::format("#{}", round) : "");
          rdx::Options opts;
          opts.strategy = name;
          opts.determinism = level;
          opts.work_group_size = a.wg;
          opts.tuning = bench_tuning(t, type);
          // A float sum under AnyDevice or Exact: the fixed bins or the exact sum, whose grid is
          // "groups".
          if (!stat && level != rdx::Determinism::RunToRun && rdx::is_float(type) &&
              rdx::detail::exact_sum_policy(op)) {
            opts.tuning = {};
            if (t.groups_per_cu)
              opts.tuning.set("groups", std::uint64_t{t.groups_per_cu} * dev.compute_units);
            if (t.vector_width && level == rdx::Determinism::AnyDevice)
              opts.tuning.set("lanes", t.vector_width);
            if (t.unroll && level == rdx::Determinism::AnyDevice)
              opts.tuning.set("unroll", t.unroll);
          }
          std::cerr << rdx::detail::format("bench: {} n={} {}\n", dev.name, n, name);
          try {
            if (stat) {  // the composite, checked against verify's host reference
              rdx::StatResult last;
              const Timed timed = time_call(
                  [&] {
                    last = rdx::reduce(ctx, *stat, mapped, n, opts);
                    return rdx::Result{last.value, last.index, last.plan};
                  },
                  a.repeat);
              row.seconds = timed.seconds;
              row.result = last.value.to_string() +
                           (last.max ? rdx::detail::format(" .. {}", last.max->to_string()) : "");
              const std::string why = rdx::check_stat_result(
                  last, *stat, type, host.data(), host.data(), n);  // dot: two equal inputs
              row.ok = why.empty();
              if (!row.ok) row.note = "WRONG: " + why;
              if (!row.ok) all_ok = false;
              rows.push_back(row);
              continue;
            }
            if (!a.map.empty()) {  // unchecked: the host cannot evaluate the map
              const rdx::Reduction red = rdx::Reduction::transform(op, type, a.map);
              const Timed timed = time_call(
                  [&] {
                    const rdx::StateResult s = rdx::reduce(ctx, red, mapped, n, opts);
                    return rdx::Result{s.fields.at(0), std::nullopt, s.plan};
                  },
                  a.repeat);
              row.seconds = timed.seconds;
              row.device_seconds = median_device_seconds(
                  timed.seconds, a.repeat, opts,
                  [&](auto& o) { return rdx::reduce(ctx, red, mapped, n, o).device_seconds; });
              row.result = timed.result.value.to_string();
              row.ok = true;
              row.note = "(map: result not checked)";
              rows.push_back(row);
              continue;
            }
            const Timed timed = time_reduce(ctx, type, buf, n, op, opts, a.repeat);
            const rdx::Result& r = timed.result;
            row.seconds = timed.seconds;
            row.device_seconds = median_device_seconds(timed.seconds, a.repeat, opts, [&](auto& o) {
              return rdx::reduce(ctx, type, buf, n, op, o).device_seconds;
            });
            row.result =
                r.value.to_string() + (r.index ? rdx::detail::format(" @{}", *r.index) : "");
            const std::string why = rdx::check_result(r.plan, r.value, r.index, ref);
            row.ok = why.empty();
            if (!row.ok) row.note = "WRONG: " + why;
          } catch (const rdx::UnsupportedError& e) {
            row.note = rdx::detail::format("skipped: {}", e.what());
          } catch (const rdx::ArgumentError& e) {
            // A float sum under any_device or exact runs with auto only: another strategy's row
            // is skipped, as an unsupported one is.
            if (level == rdx::Determinism::RunToRun || name == "auto") throw;
            row.note = rdx::detail::format("skipped: {}", e.what());
          }
          if (!row.ok && row.note.rfind("skipped", 0) != 0) all_ok = false;
          rows.push_back(row);
        }

      std::string peak_src = "given", peak_label = "given";
      if (measured) {
        // Read again after the rows, the faster kept: on a busy 2-core PoCL machine the read
        // before them could get one free core (27-29 GB/s, else 48-57) and the rows two (168%).
        std::cerr << rdx::detail::format("bench: {} n={}: measuring read bandwidth again\n",
                                         dev.name, n);
        peak = std::max(peak, measure_read_bandwidth(ctx, mapped, read_bytes));
        peak_src = "measured read";
        peak_label =
            rdx::detail::format("measured read of the same {:.1f} MiB", read_bytes / 1048576.0);
        // A (correct) row that still read faster is the fastest read measured: the peak, named.
        const Row* fastest = nullptr;
        for (const Row& r : rows)
          if (r.ok && r.seconds > 0 && (!fastest || r.seconds < fastest->seconds)) fastest = &r;
        if (fastest && static_cast<double>(read_bytes) / fastest->seconds / 1e9 > peak) {
          peak_label += rdx::detail::format(", by {}: the bare read's best was {:.1f} GB/s",
                                            fastest->strategy, peak);
          peak = static_cast<double>(read_bytes) / fastest->seconds / 1e9;
        }
      }
      rdx::detail::print("{}, peak {:.1f} GB/s ({})\n", title, peak, peak_label);
      const double first_t = rows.front().seconds;
      double local_t = 0;
      for (auto& r : rows)
        if (r.strategy == rdx::kBaselineStrategy) local_t = r.seconds;
      rdx::detail::print("  {:<16} {:>12} {:>10} {:>7} {:>8} {:>8} {:>9}  {}\n", "strategy", "time",
                         "GB/s", "% peak", "step x", "cumul x", "vs local", "result");
      double prev_t = 0;
      for (auto& r : rows) {
        if (r.seconds <= 0) {
          rdx::detail::print("  {:<16} {}\n", r.strategy, r.note);
          continue;
        }
        const double gbps = static_cast<double>(read_bytes) / r.seconds / 1e9;
        rdx::detail::print("  {:<16} {:>12} {:>10.2f} {:>6.1f}% {:>8.3f} {:>8.3f} {:>9} {} {}\n",
                           r.strategy, format_time(r.seconds), gbps, 100 * gbps / peak,
                           prev_t > 0 ? prev_t / r.seconds : 1.0,
                           first_t > 0 ? first_t / r.seconds : 1.0,
                           local_t > 0 ? rdx::detail::format("{:.3f}", local_t / r.seconds) : "-",
                           r.result, r.note);
        prev_t = r.seconds;
        if (keep_rows)
          json_rows +=
              nlohmann::json{{"device", dev.name},
                             {"platform", dev.platform},
                             {"strategy", r.strategy},
                             {"round", r.round},
                             {"type", std::string(rdx::name(type))},
                             {"op", std::string(op_name)},
                             {"map", a.map},
                             {"inputs", mapped.size()},
                             {"n", n},
                             {"call_us", r.seconds * 1e6},
                             {"dev_us", r.device_seconds * 1e6},
                             {"dev_GBps", r.device_seconds > 0 ? static_cast<double>(read_bytes) /
                                                                     r.device_seconds / 1e9
                                                               : 0.0},
                             {"GBps", gbps},
                             {"peak_GBps", peak},
                             {"peak_source", peak_src},
                             {"peak_bytes", peak_src == "given" ? 0 : read_bytes},
                             {"roundtrip_us", roundtrip * 1e6},
                             {"result", r.result},
                             {"ok", r.ok}}
                  .dump() +
              "\n";
      }
    }
  }
  const std::string rows_path = plot_rows ? plot_rows->path() : a.json_file;
  if (!rows_path.empty()) rdx::detail::write_file_atomically(rows_path, json_rows);
  if (plotter) plot(*plotter, rows_path, a.plot_file);
  return all_ok ? 0 : 1;
}

}  // namespace clrdx
