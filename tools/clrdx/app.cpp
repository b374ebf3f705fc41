#include "app.hpp"

#include <CLI/CLI.hpp>
#include "core/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/files.hpp"
#include "core/text.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/tuning.hpp"
#include "rdx/verify.hpp"

namespace clrdx {
namespace {

// The composites' names and their other names: "minmax ... count ... all count_nonzero".
std::string stat_names() {
  std::string r = names_of(rdx::kAllStats);
  for (rdx::Stat s : rdx::kAllStats)
    if (!rdx::alias(s).empty()) r += rdx::detail::format(" {}", rdx::alias(s));
  return r;
}

bool is_pow2(std::uint64_t x) {
  return x && !(x & (x - 1));
}

std::string strategy_names() {
  std::string r = "auto";
  for (auto& s : rdx::strategies())
    r += rdx::detail::format(" {}", s.name);
  return r;
}

// reduce's --strategy: a name, auto or "" (auto), in rdx::make_plan's words when unknown.
void check_reduce_strategy(const std::string& name) {
  if (name.empty() || name == "auto" || known_strategy(name)) return;
  throw rdx::ArgumentError(rdx::detail::format("unknown strategy '{}' (expected one of: {})",
                                               rdx::detail::printable(name), strategy_names()));
}

// verify's --strategy: all, auto or one name (as cmd_verify takes it).
void check_verify_strategy(const std::string& name) {
  if (name == "all" || name == "auto" || known_strategy(name)) return;
  throw rdx::ArgumentError(rdx::detail::format(
      "unknown strategy '{}' (see `clrdx strategies`, or all)", rdx::detail::printable(name)));
}

// Every integer option is added by add_integer or add_integer_list, which read its text with
// parse_integer (options.hpp), the one reader of integers, within [min, max] (default: the
// variable's type): CLI11 alone reads 010 as octal, 0x10 as hex, "" as 0 and -1 into an unsigned
// variable as its largest value, and clamps what does not fit. The validator hands CLI11 the
// value in plain decimal (010 becomes 10). Its message quotes the text through printable().
template <std::integral T>
CLI::Validator integer_validator(T min, T max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        try {
          text = std::to_string(parse_integer<T>(text, {}, min, max));
          return {};
        } catch (const rdx::ArgumentError& e) {
          return e.what();
        }
      },
      "");
}

template <std::integral T>
CLI::Option* add_integer(CLI::App& sub, const std::string& name, T& value, const std::string& help,
                         T min = std::numeric_limits<T>::min(),
                         T max = std::numeric_limits<T>::max()) {
  return sub.add_option(name, value, help)->transform(integer_validator<T>(min, max));
}

template <std::integral T>
CLI::Option* add_integer(CLI::App& sub, const std::string& name, std::optional<T>& value,
                         const std::string& help) {
  using L = std::numeric_limits<T>;
  return sub.add_option(name, value, help)->transform(integer_validator<T>(L::min(), L::max()));
}

// A list option: comma-separated, or repeated (--axis 0,2 or --axis 0 --axis 2). Split here, not
// by CLI11, which drops empty items: "" and "0,,2" are refused.
template <std::integral T>
CLI::Option* add_integer_list(CLI::App& sub, const std::string& name, std::vector<T>& values,
                              const std::string& help) {
  auto read = [&values, name](const std::vector<std::string>& given) {
    values.clear();
    for (const std::string& text : given)
      for (const std::string& item : split_list(text)) {
        try {
          values.push_back(parse_integer<T>(item));
        } catch (const rdx::ArgumentError& e) {
          throw CLI::ValidationError(name, item == text
                                               ? std::string(e.what())
                                               : rdx::detail::format("{} (in '{}')", e.what(),
                                                                     rdx::detail::printable(text)));
        }
      }
  };
  return sub.add_option_function<std::vector<std::string>>(name, read, help)
      ->type_name(std::is_signed_v<T> ? "INT" : "UINT");
}

void check_work_group_size(std::size_t wg) {
  if (wg != 0 && !is_pow2(wg))
    throw rdx::ArgumentError(rdx::detail::format("work-group size {} is not a power of two", wg));
}

// n elements of `type` must have a 64-bit byte count (the host buffers are n * size bytes).
void check_byte_count(std::uint64_t n, rdx::Type type) {
  if (n > UINT64_MAX / rdx::size_of(type))
    throw rdx::ArgumentError(
        rdx::detail::format("{} elements of {} overflow a 64-bit byte count", n, rdx::name(type)));
}

// Stand-in devices have every extension and allow work-groups up to this size (above any real
// device's), so what make_plan refuses on them it refuses everywhere.
constexpr std::size_t kStandInMaxWorkGroup = std::size_t{1} << 20;

rdx::DeviceInfo stand_in(rdx::DeviceKind kind) {
  rdx::DeviceInfo d;
  d.name = "any device";
  d.kind = kind;
  d.compute_units = 1;
  d.max_work_group = kStandInMaxWorkGroup;
  d.local_mem = std::uint64_t{1} << 30;
  d.global_mem = d.max_alloc = std::uint64_t{1} << 62;
  d.fp64 = d.int64_atomics = d.subgroups = true;
  d.extensions = "cl_khr_fp64 cl_khr_int64_base_atomics cl_khr_subgroups";
  return d;
}

// The device-independent refusals of rdx::make_plan (operator for the type, accumulator, a
// strategy's smallest work-group, fast_* tuning values): it runs on a CPU and a GPU stand-in
// (auto picks differently) and the request is refused only when both refuse it. A work-group
// size beyond the stand-ins' is left to the real device, and so is anything unsupported.
void check_plan(rdx::Type type, rdx::Op op, std::uint64_t n, rdx::Options opts) {
  if (opts.work_group_size > kStandInMaxWorkGroup) opts.work_group_size = 0;
  std::string refusal;
  for (auto kind : {rdx::DeviceKind::CPU, rdx::DeviceKind::GPU}) {
    try {
      rdx::make_plan(stand_in(kind), type, op, n, opts);
      return;
    } catch (const rdx::UnsupportedError&) {
      return;
    } catch (const rdx::ArgumentError& e) {
      if (refusal.empty()) refusal = e.what();
    }
  }
  throw rdx::ArgumentError(refusal);
}

// reduce's outputs are never a file it reads (compared by device and inode, so a hard link or a
// symbolic link is caught too), nor the same file twice: the results would replace it.
void check_outputs_apart(const ReduceArgs& a) {
  std::vector<std::pair<std::string, std::string>> reads = {{"--input", a.input},
                                                            {"--segments", a.segments}};
  for (int k = 0; k < 3; ++k)
    reads.emplace_back(rdx::detail::format("--input{}", k + 2), a.inputs[k]);
  reads.emplace_back("the tuning file", rdx::tuning_file());
  const std::pair<std::string, std::string> writes[] = {{"--output", a.output},
                                                        {"--output-indices", a.output_indices}};
  for (const auto& [out_name, out] : writes) {
    if (out.empty()) continue;
    for (const auto& [in_name, in] : reads)
      if (!in.empty() && rdx::detail::same_file(out, in))
        throw rdx::ArgumentError(rdx::detail::format(
            "{} {} is the same file as {} {}: the results would replace it; name another file",
            out_name, rdx::detail::printable(out), in_name, rdx::detail::printable(in)));
  }
  if (a.output_indices.empty()) return;
  // Where each write lands, links followed to their end: a dangling link and the new file it
  // names are one file before either exists.
  std::error_code ec1, ec2;
  const auto out = std::filesystem::weakly_canonical(rdx::detail::link_target(a.output), ec1);
  const auto idx =
      std::filesystem::weakly_canonical(rdx::detail::link_target(a.output_indices), ec2);
  if (rdx::detail::same_file(a.output, a.output_indices) || (!ec1 && !ec2 && out == idx))
    throw rdx::ArgumentError(rdx::detail::format(
        "--output-indices {} is the same file as --output {}: name another file",
        rdx::detail::printable(a.output_indices), rdx::detail::printable(a.output)));
}

// Which of reduce's options that only --generate uses were given (whatever their values).
struct GenerateOnly {
  bool count = false, seed = false;
};

// The inputs' numbers an expression names: x and x0 are 0, x1 is 1 ... (numbers and a.field
// members skipped; the library checks the expression itself).
std::vector<bool> inputs_named(std::string_view e) {
  std::vector<bool> named(4, false);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t p = 0; p < e.size();) {
    const bool member = p > 0 && e[p - 1] == '.';
    if (!ident(e[p])) {
      ++p;
      continue;
    }
    const std::size_t b = p;
    // A number's exponent sign (1e-5) stays in the number.
    while (p < e.size() &&
           (ident(e[p]) || (std::isdigit(static_cast<unsigned char>(e[b])) &&
                            (e[p] == '+' || e[p] == '-') && std::strchr("eEpP", e[p - 1]))))
      ++p;
    const std::string_view id = e.substr(b, p - b);
    if (member || std::isdigit(static_cast<unsigned char>(id[0]))) continue;
    if (id == "x") named[0] = true;
    if (id.size() == 2 && id[0] == 'x' && id[1] >= '0' && id[1] <= '3') named[id[1] - '0'] = true;
  }
  return named;
}

// --inputK is x(K-1): given in order, each read by what runs (a map, a custom reduction's map
// or dot), none ignored.
void check_input_bindings(const ReduceArgs& a, const ReduceRequest& req) {
  int last = 0;  // the highest --inputK given, K >= 2
  for (int k = 0; k < 3; ++k)
    if (!a.inputs[k].empty()) last = k + 2;
  if (last == 0) return;
  if (a.input.empty())
    throw rdx::ArgumentError(rdx::detail::format("--input{} needs --input", last));
  for (int k = 2; k < last; ++k)
    if (a.inputs[k - 2].empty())
      throw rdx::ArgumentError(rdx::detail::format(
          "--input{} needs --input{}: --inputK is x{{K-1}} in the map, so give them in order", last,
          k));
  if (req.stat) return;  // each composite takes its own count of inputs (rdx::input_count)
  if (a.map.empty() && !req.custom)
    throw rdx::ArgumentError(rdx::detail::format(
        "--op {} reads --input only: --input2.. are read by a --map that names x1.. (or by dot)",
        rdx::name(req.op)));
  const std::vector<bool> named = inputs_named(a.map.empty() ? "x" : a.map);
  for (int k = 2; k <= last; ++k)
    if (!named[k - 1])
      throw rdx::ArgumentError(rdx::detail::format(
          "--input{} is x{}, which the map{} does not read", k, k - 1,
          a.map.empty() ? " (x, the default with --combine)"
                        : rdx::detail::format(" `{}`", rdx::detail::printable(a.map))));
}

void validate_reduce(const ReduceArgs& a, GenerateOnly given) {
  // In cmd_reduce's order, so a command line with several bad values names the same one.
  const ReduceRequest req = reduce_request(a);
  const rdx::Op op = req.op;
  const std::optional<rdx::Type> type = req.type;
  const rdx::Options& opts = req.opts;

  std::optional<std::uint64_t> count;  // known for generated data; a file's is read later
  if (!a.input.empty()) {
    // The file itself is opened and checked by cmd_reduce; a count or seed would be ignored.
    for (auto [option, set] : {std::pair{"--count", given.count}, std::pair{"--seed", given.seed}})
      if (set)
        throw rdx::ArgumentError(
            rdx::detail::format("{} applies to --generate only, not to --input", option));
  } else if (!a.generate.empty()) {
    if (!type) throw rdx::ArgumentError("--generate needs --type");
    if (a.count.empty()) throw rdx::ArgumentError("--generate needs --count");
    count = parse_count(a.count, "--count");
    const std::uint64_t seed = parse_count(a.seed, "--seed");
    rdx::generate(*type, a.generate, 0, seed);  // the pattern's syntax, no data
    check_byte_count(*count, *type);
  } else {
    throw rdx::ArgumentError("give --input FILE or --generate PATTERN --count N");
  }

  check_input_bindings(a, req);
  if (!a.axis.empty() || !a.segments.empty()) {
    if (!a.axis.empty() && !a.segments.empty())
      throw rdx::ArgumentError("--axis and --segments are two ways to segment: give one");
    const char* what = !a.axis.empty() ? "--axis" : "--segments";
    if (a.input.empty())
      throw rdx::ArgumentError(rdx::detail::format("{} needs --input FILE", what));
    check_reduce_strategy(a.strategy);
    if (a.strategy != "auto")
      throw rdx::ArgumentError(
          rdx::detail::format("{} chooses its own form: --strategy must be auto", what));
    check_work_group_size(a.wg);
    if (!a.output_indices.empty()) {
      if (a.output.empty()) throw rdx::ArgumentError("--output-indices goes with --output");
      if (req.stat != rdx::Stat::MinMax)
        throw rdx::ArgumentError(
            "--output-indices goes with --op minmax (argmin/argmax: --output writes the indices)");
      check_writable_location(a.output_indices);
    }
    if (!a.output.empty()) check_writable_location(a.output);
    check_outputs_apart(a);
    return;
  }
  if (!a.output.empty() || !a.output_indices.empty())
    throw rdx::ArgumentError("--output goes with --axis or --segments");
  check_reduce_strategy(a.strategy);
  check_work_group_size(a.wg);
  if (type && !req.whole_input() && a.map.empty()) check_plan(*type, op, count.value_or(1), opts);
  if (count && *count == 0 && !req.whole_input() && rdx::is_index_op(op))
    throw rdx::ArgumentError(
        rdx::detail::format("{} of an empty input has no result", rdx::name(op)));
  if (count && *count == 0 && req.stat == rdx::Stat::MinMax)
    throw rdx::ArgumentError("minmax of an empty input has no result");
}

void validate_verify(const VerifyArgs& a) {
  check_verify_strategy(a.strategy);
  parse_type_list(a.types);
  parse_op_list(a.ops);
  // --quick does not use --max-n, but a bad value is refused all the same.
  // The largest random case has up to max_n elements of up to 8 bytes, in host memory.
  const std::uint64_t max_n = parse_count(a.max_n, "--max-n");
  if (!a.quick && max_n > UINT64_MAX / 8)
    throw rdx::ArgumentError(rdx::detail::format(
        "--max-n {} is too large: {} elements of 8 bytes overflow a 64-bit byte count",
        rdx::detail::printable(a.max_n), max_n));
  parse_count(a.seed, "--seed");
}

// --op when it names no composite: a built-in operator, or an error that lists both kinds.
rdx::Op operator_named(const std::string& op) {
  try {
    return rdx::parse_op(op);
  } catch (const rdx::ArgumentError&) {
    throw rdx::ArgumentError(rdx::detail::format("unknown operator '{}' (expected one of: {} {})",
                                                 rdx::detail::printable(op), names_of(rdx::kAllOps),
                                                 stat_names()));
  }
}

void validate_bench(const BenchArgs& a) {
  const rdx::Type type = rdx::parse_type(a.type);
  const std::optional<rdx::Stat> stat = rdx::find_stat(a.op);  // a composite, as reduce's --op
  const rdx::Op op = stat ? rdx::Op::Sum : operator_named(a.op);
  if (stat && !a.map.empty())
    throw rdx::ArgumentError(rdx::detail::format(
        "--map goes with a built-in operator, not the composite {}", rdx::name(*stat)));
  if (stat) {  // its accumulator's checks (a bool's mean, an integer's norm2 ...)
    const std::vector<rdx::Type> in(rdx::input_count(*stat), type);
    for (rdx::DeviceKind kind : {rdx::DeviceKind::CPU, rdx::DeviceKind::GPU})
      rdx::stat_result_types(stand_in(kind), *stat, in);
  }
  for (const std::uint64_t n : parse_counts(a.sizes, "--sizes"))
    check_byte_count(n, type);
  const auto names = parse_strategy_list(a.strategy);
  parse_determinism_list(a.determinism);
  if (std::isnan(a.peak) || std::isinf(a.peak) || a.peak < 0)
    throw rdx::ArgumentError(rdx::detail::format(
        "bad --peak {}: expected GB/s (0 or none: measure the device)", a.peak));
  check_work_group_size(a.wg);
  if (!a.layouts.empty()) {
    parse_layouts(a.layouts);
    if (!a.map.empty() || a.strategy != "all")
      throw rdx::ArgumentError("--layouts times segmented reductions: no --map or --strategy");
    if (!a.groups_per_cu.empty() || !a.vector_width.empty() || !a.unroll.empty() || a.rounds > 1)
      throw rdx::ArgumentError(
          "--groups-per-cu, --vw, --unroll and --rounds go without --layouts (segmented: "
          "--lanes, --parts, --seg-unroll, --seg-vector, --column-block)");
    return;
  }
  if (a.lanes || a.parts || a.seg_unroll || a.seg_vector || a.column_block)
    throw rdx::ArgumentError(
        "--lanes, --parts, --seg-unroll, --seg-vector and --column-block go with --layouts");
  rdx::Options opts;
  opts.work_group_size = a.wg;
  if (!a.map.empty())
    rdx::Reduction::transform(op, type, a.map);  // argmin/argmax, bitwise on floats
  if (stat) return;                              // a strategy's refusal of it is a skipped row
  for (const BenchTuning& t : bench_tunings(a)) {
    opts.tuning = bench_tuning(t, type);
    for (const auto& name : names) {
      opts.strategy = name;
      check_plan(type, op, std::uint64_t{1} << 20, opts);
    }
  }
}

void validate_tune(const TuneArgs& a) {
  const std::vector<rdx::Type> types = parse_type_list(a.types);
  parse_op_list(a.ops);
  for (const std::uint64_t n : parse_counts(a.sizes, "--sizes")) {
    if (n == 0) throw rdx::ArgumentError("tune --sizes: 0 is not a size to time");
    for (rdx::Type t : types)
      check_byte_count(n, t);
  }
  if (std::isnan(a.margin) || a.margin < 0 || a.margin > 1)
    throw rdx::ArgumentError(
        rdx::detail::format("bad --margin {}: a fraction between 0 and 1", a.margin));
}

}  // namespace

ReduceRequest reduce_request(const ReduceArgs& a) {
  ReduceRequest r;
  if (!a.combine.empty() || !a.identity.empty()) {
    if (a.combine.empty() || a.identity.empty())
      throw rdx::ArgumentError("a custom reduction needs both --combine and --identity");
    if (!a.op.empty())
      throw rdx::ArgumentError("--op and --combine exclude each other (--combine is the operator)");
    r.custom = true;
  } else if (a.op.empty()) {
    throw rdx::ArgumentError("give --op, or --combine and --identity for a custom reduction");
  } else if (const auto s = rdx::find_stat(a.op)) {
    r.stat = *s;
  } else {
    r.op = operator_named(a.op);
    if (!a.map.empty() && rdx::is_index_op(r.op))
      throw rdx::ArgumentError(rdx::detail::format(
          "{} takes no --map (its state has an index); minmax gives both with their indexes",
          rdx::name(r.op)));
  }
  if (!a.type.empty()) r.type = rdx::parse_type(a.type);
  r.opts.strategy = a.strategy;
  r.opts.work_group_size = a.wg;
  if (!a.acc.empty()) r.opts.acc = rdx::parse_type(a.acc);
  if (!a.determinism.empty()) r.opts.determinism = parse_determinism(a.determinism);
  return r;
}

namespace {

void options_devices(CLI::App& sub, App& app) {
  sub.add_flag("--json", app.devices.json, "Print a JSON array");
}

void options_strategies(CLI::App& sub, App& app) {
  sub.add_flag("--json", app.strategies.json, "Print a JSON array");
  sub.add_option("--device", app.strategies.device,
                 "Also show the form each strategy takes on SEL (or all)");
}

void options_reduce(CLI::App& sub, App& app) {
  ReduceArgs& rd = app.reduce;
  sub.add_option("--type", rd.type, "Element type: " + names_of(rdx::kAllTypes));
  sub.add_option("--op", rd.op,
                 "Operator: " + names_of(rdx::kAllOps) + "; or composite: " + stat_names());
  sub.add_option("--map", rd.map,
                 "OpenCL C expression of each element: x (x0..x3: the inputs), i (its index); "
                 "with --op sum, max... (transform-reduce), count, any, all (the predicate) or "
                 "--combine");
  sub.add_option("--combine", rd.combine,
                 "Custom operator: OpenCL C expression of two accumulator values a and b");
  sub.add_option("--identity", rd.identity, "Custom operator: its identity (e.g. 0)");
  for (int k = 0; k < 3; ++k)
    sub.add_option(rdx::detail::format("--input{}", k + 2), rd.inputs[k],
                   rdx::detail::format("Input array x{} of the same length (dot, maps)", k + 1));
  sub.add_option("--device", rd.device,
                 "Device selector SEL, or a list (all, gpu:all, 0,1): one reduction over them");
  sub.add_option("--strategy", rd.strategy, "Strategy name (see `clrdx strategies`) or auto")
      ->capture_default_str();
  sub.add_option("--acc", rd.acc, "Accumulator type (widens, e.g. i32 into i64)");
  sub.add_option("--determinism", rd.determinism,
                 "Float sums: run_to_run (default), any_device (the same bits on every device, "
                 "grid and order: fixed bins) or exact (correctly rounded; the same bits on every "
                 "device too)");
  add_integer(sub, "--wg", rd.wg, "Work-group size (a power of two; default: the plan's)");
  auto* input = sub.add_option("--input", rd.input,
                               "Raw little-endian elements of --type, or a NumPy .npy file");
  auto* gen = sub.add_option(
      "--generate", rd.generate,
      "Pattern: ones, iota (element i = i), mod:K (i % K), random (floats in [0, 1)) or wide "
      "(floats of random signs and exponents across the range)");
  sub.add_option("--count", rd.count, "Elements to generate (e.g. 1000, 4Ki, 16Mi, 2^20)");
  sub.add_option("--seed", rd.seed, "Seed of --generate random")->capture_default_str();
  add_integer_list(sub, "--axis", rd.axis,
                   "Reduce over these axes of an N-D .npy --input, as NumPy's axis=(0, 2): one or "
                   "more, comma-separated or repeated (0: the first, -1: the last); one "
                   "result per position of the other axes");
  sub.add_option("--segments", rd.segments,
                 "One result per segment: a 1-D .npy of 64-bit offsets (segments + 1, from 0, "
                 "never decreasing), or raw u64");
  sub.add_option("--output", rd.output,
                 "With --axis or --segments: write the results to this .npy file (argmin/argmax: "
                 "their indices; minmax: minima and maxima along one more axis of 2) instead of "
                 "printing them");
  sub.add_option("--output-indices", rd.output_indices,
                 "With --output and --op minmax: also write the indexes of the minima and maxima "
                 "to this .npy file (<u8, along one more axis of 2; 2^64 - 1: an empty segment)");
  sub.add_flag("--json", rd.json, "Print one JSON object");
  input->excludes(gen);
  gen->excludes(input);
}

void options_verify(CLI::App& sub, App& app) {
  VerifyArgs& vf = app.verify;
  sub.add_option("--device", vf.device, "Device selector SEL, or all");
  sub.add_option("--strategy", vf.strategy, "Strategy name, or all")->capture_default_str();
  sub.add_option("--max-n", vf.max_n, "Largest random size")->capture_default_str();
  sub.add_option("--seed", vf.seed, "Seed of data and random sizes")->capture_default_str();
  sub.add_flag("--quick", vf.quick, "Sizes up to 2^17 only");
  sub.add_option("--types", vf.types, "Comma list of element types, or all")->capture_default_str();
  sub.add_option("--ops", vf.ops, "Comma list of operators, or all")->capture_default_str();
  sub.add_flag("--json", vf.json, "Print one JSON object per (device, strategy)");
}

void options_bench(CLI::App& sub, App& app) {
  BenchArgs& bn = app.bench;
  sub.add_option("--device", bn.device, "Device selector SEL, or all");
  sub.add_option("--strategy", bn.strategy, "Strategy name, a comma list, or all")
      ->capture_default_str();
  sub.add_option("--type", bn.type, "Element type")->capture_default_str();
  sub.add_option("--op", bn.op,
                 "Operator: " + names_of(rdx::kAllOps) +
                     "; or composite (as rdx::reduce runs it): " + stat_names())
      ->capture_default_str();
  sub.add_option("--sizes", bn.sizes, "Comma list of sizes (Ki, Mi, Gi, 2^K)")
      ->capture_default_str();
  add_integer(sub, "--repeat", bn.repeat, "Timed calls per row (median reported)", 1, 100000)
      ->capture_default_str();
  sub.add_option("--peak", bn.peak,
                 "Peak GB/s for the % column (default: a measured read of the same bytes)");
  sub.add_option("--json", bn.json_file, "Also write one JSON object per row to FILE");
  sub.add_option(
      "--plot", bn.plot_file,
      "Also plot to FILE.png (one bar per strategy at one size, GB/s against n across sizes)");
  add_integer(sub, "--wg", bn.wg, "Work-group size override");
  add_integer_list(sub, "--groups-per-cu", bn.groups_per_cu,
                   "fast_*, any_device and exact sums: work-groups per compute unit (a comma "
                   "list: each value its own rows, named .../gN)");
  add_integer_list(sub, "--vw", bn.vector_width,
                   "fast_*: elements per vector load (1-16); any_device sums: lanes (2-16) (a "
                   "comma list: rows .../vwN)");
  add_integer_list(sub, "--unroll", bn.unroll,
                   "fast_strided: loads in flight (1, 2, 4); any_device sums on GPUs: 1, 2, 4, 8 "
                   "(a comma list: rows .../uN)");
  add_integer(sub, "--rounds", bn.rounds,
              "Time every row this many times, round after round on the same data (rows of "
              "round 2 on are named ...#R), for comparisons over alternating rounds",
              1u, 100u)
      ->capture_default_str();
  sub.add_option("--label", bn.label, "Name rows by this label instead of the strategy");
  sub.add_option("--map", bn.map, "Time --op over this map of x0..x3 (transform-reduce)");
  sub.add_option("--determinism", bn.determinism,
                 "Time each strategy under these levels (a comma list of run_to_run, any_device, "
                 "exact; rows of the others are named STRATEGY:LEVEL)")
      ->capture_default_str();
  sub.add_option("--data", bn.data,
                 "Elements: a pattern of reduce --generate (ones, iota, mod:K, random, wide; "
                 "seed 1); mod:7 is the yardsticks' data")
      ->capture_default_str();
  add_integer(sub, "--inputs", bn.inputs, "Arrays the map reads (1-4), each its own copy", 1u, 4u)
      ->capture_default_str();
  sub.add_option("--layouts", bn.layouts,
                 "Segmented reductions instead: a comma list of uniform:L (segments of L by "
                 "offsets), powerlaw, rows:W and columns:W (axes of an n/W x W matrix), apart:W "
                 "(axes 0 and 2 of a W x n/W^2 x W array)");
  add_integer(sub, "--lanes", bn.lanes, "Segmented: work-items per segment (a power of two)");
  add_integer(sub, "--parts", bn.parts, "Segmented: work-groups per segment");
  add_integer(sub, "--seg-unroll", bn.seg_unroll, "Segmented: loads in flight per work-item");
  add_integer(sub, "--seg-vector", bn.seg_vector,
              "Segmented: elements per load (1, 4, or 16 on CPUs)");
  add_integer(sub, "--column-block", bn.column_block,
              "Segmented, columns: neighbouring columns per work-item (0: the work-group form)");
}

void options_tune(CLI::App& sub, App& app) {
  TuneArgs& tn = app.tune;
  sub.add_option("--device", tn.device, "Device selector SEL");
  sub.add_option("--types", tn.types, "Comma list of element types")->capture_default_str();
  sub.add_option("--ops", tn.ops, "Comma list of operators")->capture_default_str();
  sub.add_option("--sizes", tn.sizes, "Comma list of sizes timed (Ki, Mi, Gi, 2^K)")
      ->capture_default_str();
  add_integer(sub, "--repeat", tn.repeat, "Timed calls per size (median)", 1, 100000)
      ->capture_default_str();
  sub.add_option("--margin", tn.margin, "Fraction a candidate must beat the built-in plan by")
      ->capture_default_str();
  sub.add_option("--file", tn.file,
                 "Tuning file (default: $RDX_TUNING_FILE, else ~/.config/rdx/tuning.json)");
  sub.add_flag("--dry-run", tn.dry_run, "Measure and print, write nothing");
  sub.add_flag("--clear", tn.clear, "Remove this device's entries from the tuning file");
}

void options_cache(CLI::App& sub, App& app) {
  sub.add_flag("--clear", app.cache_clear, "Remove every cached kernel binary");
}

// Every subcommand, in the order of `clrdx --help`: the one place a command is named.
constexpr Command kCommands[] = {
    {"devices", "List OpenCL devices and their index", options_devices, nullptr,
     [](const App& a) { return cmd_devices(a.devices); }},
    // strategies: --device is a selector, resolved against the devices found
    {"strategies", "List strategies, kernel files and seeds", options_strategies, nullptr,
     [](const App& a) { return cmd_strategies(a.strategies); }},
    {"reduce", "Reduce a file or generated data", options_reduce,
     [](const App& a, const CLI::App& sub) {
       validate_reduce(a.reduce, {sub.count("--count") > 0, sub.count("--seed") > 0});
     },
     [](const App& a) { return cmd_reduce(a.reduce); }},
    {"verify", "Check every strategy x type x operator x size against the host reference",
     options_verify, [](const App& a, const CLI::App&) { validate_verify(a.verify); },
     [](const App& a) { return cmd_verify(a.verify); }},
    {"bench", "Time strategies on device-resident data (--data; i % 7 by default), seed-001 table",
     options_bench, [](const App& a, const CLI::App&) { validate_bench(a.bench); },
     [](const App& a) {
       return a.bench.layouts.empty() ? cmd_bench(a.bench) : cmd_bench_segmented(a.bench);
     }},
    {"tune",
     "Measure auto's grids on a device and store the best in the tuning file, with the device's "
     "host-input throughput (a device group's shares)",
     options_tune, [](const App& a, const CLI::App&) { validate_tune(a.tune); },
     [](const App& a) { return cmd_tune(a.tune); }},
    {"cache", "Show (or --clear) the on-disk cache of built kernels ($RDX_CACHE_DIR)",
     options_cache, nullptr, [](const App& a) { return cmd_cache(a.cache_clear); }},
};

}  // namespace

std::span<const Command> commands() {
  return kCommands;
}

App::App()
    : cli_(std::make_unique<CLI::App>("clrdx: portable OpenCL reductions (librdx " +
                                      std::string(rdx::version()) + ")")) {
  CLI::App& app = *cli_;
  app.set_version_flag("--version", "clrdx " + std::string(rdx::version()));
  app.require_subcommand(1);
  app.footer(
      "Devices: SEL is cpu, gpu, an index from `clrdx devices`, P:D (platform:device) or part of "
      "a device name, else of a platform's name (intel, pocl, nvidia); default: $RDX_DEVICE, "
      "else the first GPU, else the first device.\n"
      "Exit codes: 0 success, 1 OpenCL or run-time failure, 2 usage or bad input.");

  for (const Command& c : kCommands)
    c.options(*app.add_subcommand(std::string(c.name), std::string(c.help)), *this);
}

App::~App() = default;

namespace {

// What a command line without a command is told, in place of CLI11's "A subcommand is
// required": the unknown word given as the command (the first that is not an option: clrdx's own
// options, --help and --version, take no value), or that a command is needed; with the commands.
// None where a command was parsed, or where the first word is a known one.
std::optional<std::string> command_error(const CLI::App& cli, int argc, const char* const* argv) {
  if (!cli.get_subcommands().empty()) return std::nullopt;
  std::string names;
  for (const Command& c : kCommands)
    names += rdx::detail::format("{}{}", names.empty() ? "" : " ", c.name);
  for (int k = 1; k < argc; ++k) {
    const std::string_view word = argv[k];
    if (word.starts_with('-')) continue;
    for (const Command& c : kCommands)
      if (word == c.name) return std::nullopt;
    return rdx::detail::format("unknown command '{}' (expected one of: {})",
                               rdx::detail::printable(word), names);
  }
  return rdx::detail::format("a command is required (one of: {})", names);
}

}  // namespace

ParseResult App::parse(int argc, const char* const* argv) {
  ParseResult r;
  try {
    cli_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      r.kind = ParseResult::Kind::Error;
      // CLI11's messages quote the arguments given: printable, as every message (one line),
      // except a ValidationError's, whose text is an integer option's (add_integer), already so.
      const bool escaped = dynamic_cast<const CLI::ValidationError*>(&e) != nullptr;
      r.text = command_error(*cli_, argc, argv)
                   .value_or(escaped ? std::string(e.what()) : rdx::detail::printable(e.what()));
      return r;
    }
    std::ostringstream out, err;  // --help, --version: what CLI11 would print
    cli_->exit(e, out, err);
    r.kind = ParseResult::Kind::Info;
    r.text = out.str();
    return r;
  }
  for (const Command& c : kCommands)
    if (cli_->got_subcommand(std::string(c.name))) {
      r.kind = ParseResult::Kind::Run;
      r.command = &c;
      return r;
    }
  r.text = "a subcommand is required";  // require_subcommand(1) makes this unreachable
  return r;
}

void App::validate(const Command& command) const {
  if (command.validate) command.validate(*this, *cli_->get_subcommand(std::string(command.name)));
}

}  // namespace clrdx
