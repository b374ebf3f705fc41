// clrdx-mpi: one reduction of a file by the ranks of mpirun (docs/multidevice.md). Each rank
// reads only its own byte range of the data (equal runs of elements, in rank order), streams it
// through rdx::Stream on its own device (the node's GPU of its node rank), and the ranks' partial
// states are combined in rank order (rdx_mpi): rank 0 prints one result, as `clrdx reduce`
// prints it, the same as one process's for integers, min, max, argmin/argmax and, under
// --determinism any_device or exact, float sums. Exit codes as clrdx: 0, 1 run time, 2 bad input;
// only rank 0 prints an error's line.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "failure.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/mpi.hpp"
#include "rdx/multi.hpp"
#include "rdx/rdx.hpp"

namespace {

struct Args {
  clrdx::ReduceArgs reduce;
  bool json = false;
};

// The device of this rank: item (node rank mod count) of the --device list, each ":all" item
// standing for the devices it names; without a list, the machine's GPUs, or its default device
// where it has none. Only this rank's own item is looked up, so a bad item is blamed on the rank
// that needs it.
rdx::DeviceInfo device_of(const std::string& list, const rdx::mpi::NodeRank& node) {
  const std::vector<rdx::DeviceInfo> all = rdx::list_devices();
  std::string chosen = list;
  if (chosen.empty()) {
    bool gpu = false;
    for (const rdx::DeviceInfo& d : all)
      gpu = gpu || d.kind == rdx::DeviceKind::GPU;
    if (!gpu) return rdx::select_device(all, "");
    chosen = "gpu:all";
  }
  // One entry a device: the library's reading of each item (select_devices: trimmed, any case,
  // `all` and KIND:all expanded), or the error of an item that names none.
  struct Item {
    std::string text;
    std::optional<rdx::DeviceInfo> device;
    std::exception_ptr error;
  };
  std::vector<Item> items;
  for (const std::string& item : clrdx::split_list(chosen)) {
    if (item.find_first_not_of(" \t") == std::string::npos)
      throw rdx::ArgumentError(rdx::detail::format("--device {}: an empty item", chosen));
    try {
      for (const rdx::DeviceInfo& d : rdx::select_devices(all, item))
        items.push_back({item, d, nullptr});
    } catch (const rdx::Error&) {
      items.push_back({item, std::nullopt, std::current_exception()});
    }
  }
  const Item& mine = items[static_cast<std::size_t>(node.rank) % items.size()];
  if (mine.device) return *mine.device;
  const auto where = [&](const rdx::Error& e) {
    return rdx::detail::format("--device {}: item '{}', this rank's (node rank {}): {}", chosen,
                               mine.text, node.rank, e.what());
  };
  try {
    std::rethrow_exception(mine.error);
  } catch (const rdx::DeviceError& e) {
    throw rdx::DeviceError(where(e));
  } catch (const rdx::ArgumentError& e) {
    throw rdx::ArgumentError(where(e));
  }
}

int run(int argc, char** argv, int rank, int ranks) {
  CLI::App app{
      "clrdx-mpi: one reduction of a file by the ranks of mpirun. Each rank reads its own range "
      "of the data on its own device; rank 0 prints the result.\n"
      "  mpirun -n 4 clrdx-mpi --input big.npy --op sum --determinism any_device",
      "clrdx-mpi"};
  Args a;
  clrdx::ReduceArgs& r = a.reduce;
  app.add_option("--input", r.input, "A .npy file, or raw elements of --type (a regular file)")
      ->required();
  app.add_option("--op", r.op, "A built-in operator: " + clrdx::names_of(rdx::kAllOps))->required();
  app.add_option("--type", r.type, "The elements' type (a raw file; a .npy file's must agree)");
  app.add_option("--acc", r.acc, "The accumulator's type (wider than the elements')");
  app.add_option("--determinism", r.determinism,
                 "run_to_run (default), any_device or exact: float sums the same bits as one "
                 "process's, whatever the ranks");
  app.add_option("--strategy", r.strategy, "A strategy of `clrdx strategies`, or auto (default)");
  app.add_option("--device", r.device,
                 "Devices, as clrdx reduce's --device LIST (all, gpu:all, 0,1): each rank takes "
                 "item (node rank mod count); default: the node's GPUs, else its default device");
  app.add_flag("--json", a.json, "Print a JSON object (ranks, rank 0's device and plan, hex)");
  std::ostringstream quiet;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help
      if (rank == 0) app.exit(e, std::cout, std::cerr);
      return 0;
    }
    if (rank == 0) std::cerr << "clrdx-mpi: " << e.what() << " (see clrdx-mpi --help)\n";
    return 2;
  }
  try {
    const clrdx::ReduceRequest req = clrdx::reduce_request(r);
    if (req.whole_input())
      throw rdx::ArgumentError("clrdx-mpi reduces with the built-in operators: " +
                               clrdx::names_of(rdx::kAllOps));
    std::optional<rdx::Context> ctx;
    std::optional<clrdx::InputFile> file;
    // First every rank opens its device and its range of the file (any rank's error reaches
    // every rank); the empty states agree on the request. Then the timed part: the ranges read
    // and reduced, the states combined.
    // A collective: every rank calls it, before anything that may fail on one rank.
    const rdx::mpi::NodeRank node = rdx::mpi::node_rank(MPI_COMM_WORLD);
    rdx::mpi::allreduce(MPI_COMM_WORLD, [&] {
      const rdx::DeviceInfo d = device_of(r.device, node);
      ctx.emplace(std::to_string(d.index));
      file.emplace(clrdx::open_input(r.input, req.type));
      if (!file->data_bytes)
        throw rdx::ArgumentError(rdx::detail::format(
            "{} is not a regular file: the ranks read their own ranges of one", r.input));
      const std::uint64_t es = rdx::size_of(file->type);
      const auto [first, end] = rdx::mpi::run_of(*file->data_bytes / es, rank, ranks);
      clrdx::keep_range(*file, first * es, (end - first) * es);
      return rdx::reduce_partial(*ctx, file->type, nullptr, 0, req.op, req.opts);
    });
    const auto t0 = std::chrono::steady_clock::now();
    const std::optional<rdx::Partial> all = rdx::mpi::reduce(MPI_COMM_WORLD, [&] {
      return clrdx::reduce_file_partial(*ctx, std::move(*file), req.op, req.opts);
    });
    if (!all) return 0;
    const rdx::Result res = rdx::finish(*all);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    nlohmann::json j;
    if (a.json)
      j = {{"ranks", ranks},
           {"device", ctx->device_info().name},
           {"strategy", all->plan().strategy},
           {"type", std::string(rdx::name(res.plan.type))},
           {"acc", std::string(rdx::name(res.plan.acc))},
           {"op", std::string(rdx::name(res.plan.op))},
           {"count", all->count()},
           {"result", clrdx::to_json(res.value)},
           {"index", nullptr},
           {"seconds", seconds}};
    clrdx::print_result(j, res.value, res.index, a.json);
    std::fflush(stdout);
    if (std::ferror(stdout)) throw rdx::Error("cannot write to standard output");
    return 0;
  } catch (...) {
    const clrdx::Failure f = clrdx::failure_of(std::current_exception());
    if (rank == 0) std::cerr << "clrdx-mpi: " << f.line << "\n";
    return f.code;
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const int code = run(argc, argv, rank, ranks);
  MPI_Finalize();
  return code;
}
