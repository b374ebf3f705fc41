// clrdx: list devices and strategies, reduce a file or generated data, verify every strategy
// against the host reference, benchmark strategies and devices side by side.
// Exit codes: 0 success, 1 OpenCL or run-time failure, 2 usage or bad input.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "rdx/rdx.hpp"

int main(int argc, char** argv) {
  using namespace clrdx;
  CLI::App app{"clrdx: portable OpenCL reductions (librdx " + std::string(rdx::version()) + ")"};
  app.set_version_flag("--version", std::string("clrdx ") + RDX_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Devices: SEL is cpu, gpu, an index from `clrdx devices`, P:D (platform:device) or part of "
      "a device name; default: $RDX_DEVICE, else the first GPU, else the first device.\n"
      "Exit codes: 0 success, 1 OpenCL or run-time failure, 2 usage or bad input.");

  DevicesArgs dv;
  auto* devices = app.add_subcommand("devices", "List OpenCL devices and their index");
  devices->add_flag("--json", dv.json, "Print a JSON array");

  StrategiesArgs st;
  auto* strategies = app.add_subcommand("strategies", "List strategies, kernel files and seeds");
  strategies->add_flag("--json", st.json, "Print a JSON array");
  strategies->add_option("--device", st.device,
                         "Also show the form each strategy takes on SEL (or all)");

  ReduceArgs rd;
  auto* reduce = app.add_subcommand("reduce", "Reduce a file or generated data");
  reduce->add_option("--type", rd.type, "Element type: i8 u8 i16 u16 i32 u32 i64 u64 f32 f64");
  reduce->add_option("--op", rd.op, "sum prod min max and or xor argmin argmax")->required();
  reduce->add_option("--device", rd.device, "Device selector SEL");
  reduce->add_option("--strategy", rd.strategy, "Strategy name (see `clrdx strategies`) or auto")
      ->capture_default_str();
  reduce->add_option("--acc", rd.acc, "Accumulator type (widens, e.g. i32 into i64)");
  reduce->add_option("--wg", rd.wg, "Work-group size (a power of two; default: the plan's)");
  auto* input = reduce->add_option("--input", rd.input,
                                   "Raw little-endian elements of --type, or a NumPy .npy file");
  auto* gen = reduce->add_option("--generate", rd.generate,
                                 "Pattern: ones, iota (element i = i), mod:K (i % K) or random");
  reduce->add_option("--count", rd.count, "Elements to generate (e.g. 1000, 4Ki, 16Mi, 2^20)");
  reduce->add_option("--seed", rd.seed, "Seed of --generate random")->capture_default_str();
  reduce->add_flag("--json", rd.json, "Print one JSON object");
  input->excludes(gen);
  gen->excludes(input);

  VerifyArgs vf;
  auto* verify = app.add_subcommand(
      "verify", "Check every strategy x type x operator x size against the host reference");
  verify->add_option("--device", vf.device, "Device selector SEL, or all");
  verify->add_option("--strategy", vf.strategy, "Strategy name, or all")->capture_default_str();
  verify->add_option("--max-n", vf.max_n, "Largest random size")->capture_default_str();
  verify->add_option("--seed", vf.seed, "Seed of data and random sizes")->capture_default_str();
  verify->add_flag("--quick", vf.quick, "Sizes up to 2^17 only");
  verify->add_flag("--json", vf.json, "Print one JSON object per (device, strategy)");

  BenchArgs bn;
  auto* bench = app.add_subcommand(
      "bench", "Time strategies on device-resident data (element i = i % 7), seed-001 table");
  bench->add_option("--device", bn.device, "Device selector SEL, or all");
  bench->add_option("--strategy", bn.strategy, "Strategy name, a comma list, or all")
      ->capture_default_str();
  bench->add_option("--type", bn.type, "Element type")->capture_default_str();
  bench->add_option("--op", bn.op, "Operator")->capture_default_str();
  bench->add_option("--sizes", bn.sizes, "Comma list of sizes (Ki, Mi, Gi, 2^K)")
      ->capture_default_str();
  bench->add_option("--repeat", bn.repeat, "Timed calls per row (median reported)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  bench->add_option("--peak", bn.peak, "Peak GB/s for the % column (default: measured copy)");
  bench->add_option("--json", bn.json_file, "Also write one JSON object per row to FILE");
  bench->add_option("--plot", bn.plot_file, "Also plot GB/s against n to FILE.png");
  bench->add_option("--wg", bn.wg, "Work-group size override");
  bench->add_option("--groups-per-cu", bn.groups_per_cu, "fast_*: work-groups per compute unit");
  bench->add_option("--vw", bn.vector_width, "fast_*: elements per vector load (1-16)");
  bench->add_option("--unroll", bn.unroll, "fast_strided: loads in flight (1, 2, 4)");
  bench->add_option("--label", bn.label, "Name rows by this label instead of the strategy");

  bool cache_clear = false;
  auto* cache = app.add_subcommand(
      "cache", "Show (or --clear) the on-disk cache of built kernels ($RDX_CACHE_DIR)");
  cache->add_flag("--clear", cache_clear, "Remove every cached kernel binary");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "clrdx: " << e.what() << " (see clrdx --help)\n";
    return 2;
  }

  try {
    if (*devices) return cmd_devices(dv);
    if (*strategies) return cmd_strategies(st);
    if (*reduce) return cmd_reduce(rd);
    if (*verify) return cmd_verify(vf);
    if (*bench) return cmd_bench(bn);
    if (*cache) return cmd_cache(cache_clear);
  } catch (const rdx::ArgumentError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const rdx::UnsupportedError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const rdx::DeviceError& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "clrdx: " << e.what() << "\n";
    return 1;
  }
  return 2;
}
