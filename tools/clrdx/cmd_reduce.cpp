#include "core/format.hpp"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "block_reader.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "rdx/multi.hpp"
#include "rdx/verify.hpp"
#include "whole_input.hpp"

namespace clrdx {

namespace {

// Read blocks and device slots of the same size: each block fills one slot. 3 blocks (one being
// read, one being pushed, one ready) and 2 slots (one being written, one being reduced) keep the
// memory at about 5 x 16 MiB whatever the file size. Per-chunk costs stay small: a chunk's launch
// and read-back take 20-60 us, its 16 MiB take milliseconds to read and to transfer.
constexpr std::size_t kBlockBytes = std::size_t{16} << 20;
constexpr std::size_t kBlocks = 3;

// Streams the file into `stream`: a reader thread reads ahead while this thread pushes.
void push_file(rdx::Stream& stream, InputFile file, bool progress_bar) {
  const rdx::Type type = file.type;
  // Progress times the reading (from here to the reader's end), not the kernel build that the
  // first reduction may wait for.
  std::optional<Progress> progress;
  if (progress_bar) progress.emplace(file.data_bytes.value_or(0));
  BlockReader reader(std::move(file), kBlockBytes, kBlocks);
  std::uint64_t done = 0;
  for (auto block = reader.next(); !block.empty(); block = reader.next()) {
    stream.push(block.data(), block.size() / rdx::size_of(type));
    done += block.size();
    if (progress) progress->update(done, reader.read_end());
  }
  if (progress) progress->finish(done, reader.read_end());
}

}  // namespace

rdx::Partial reduce_file_partial(rdx::Context& ctx, InputFile file, rdx::Op op,
                                 const rdx::Options& opts) {
  rdx::Stream stream(ctx, file.type, op, opts, kBlockBytes);
  push_file(stream, std::move(file), false);
  return stream.finish_partial();
}

void print_result(nlohmann::json j, const rdx::Scalar& value,
                  const std::optional<std::uint64_t>& index, bool json) {
  if (json) {
    if (index) j["index"] = *index;
    if (rdx::is_float(value.type)) j["hex"] = hex_float(value);
    std::cout << j.dump() << "\n";
  } else if (index) {
    rdx::detail::print("{} {}\n", value.to_string(), *index);
  } else {
    rdx::detail::print("{}\n", value.to_string());
  }
}

namespace {

rdx::Result reduce_file(rdx::Context& ctx, InputFile file, rdx::Op op, const rdx::Options& opts) {
  rdx::Stream stream(ctx, file.type, op, opts, kBlockBytes);
  push_file(stream, std::move(file), true);
  return stream.finish();
}

// --device LIST: one reduction over the devices of rdx::DeviceGroup, the file mapped (each device
// reads its own part) or the data generated in memory.
int reduce_group(const ReduceArgs& a, const ReduceRequest& req) {
  std::optional<Loaded> in;
  if (!a.input.empty()) {
    in.emplace(load_file(a.input, req.type));
  } else if (!a.generate.empty()) {
    if (!req.type) throw rdx::ArgumentError("--generate needs --type");
    if (a.count.empty()) throw rdx::ArgumentError("--generate needs --count");
    in.emplace(*req.type);
    in->owned = rdx::generate(*req.type, a.generate, parse_count(a.count, "--count"),
                              parse_count(a.seed, "--seed"));
    in->bytes = in->owned.size();
  } else {
    throw rdx::ArgumentError("give --input FILE or --generate PATTERN --count N");
  }
  rdx::DeviceGroup group(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  const rdx::GroupResult r =
      rdx::reduce(group, in->type, in->data(), in->count(), req.op, req.opts);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (a.json) {
    nlohmann::json devices = nlohmann::json::array(), parts = nlohmann::json::array();
    for (std::size_t k = 0; k < group.size(); ++k)
      devices.push_back(group.context(k).device_info().name);
    for (const rdx::GroupPart& p : r.parts)
      parts.push_back({{"device", p.device},
                       {"first", p.first},
                       {"count", p.n},
                       {"strategy", p.result.plan.strategy},
                       {"work_group_size", p.result.plan.work_group_size}});
    nlohmann::json j = {{"devices", devices},
                        {"shares", group.shares()},
                        {"parts", parts},
                        {"type", std::string(rdx::name(in->type))},
                        {"op", std::string(rdx::name(req.op))},
                        {"count", in->count()},
                        {"result", to_json(r.value)},
                        {"index", nullptr},
                        {"seconds", seconds}};
    print_result(j, r.value, r.index, true);
  } else {
    print_result({}, r.value, r.index, false);
  }
  return 0;
}

}  // namespace

// `mpirun -n 4 clrdx reduce` reduces the whole input on every rank and prints it once per rank:
// say on stderr (rank 0's, or every one's where the rank is not known) that clrdx-mpi divides
// the work. A note, not a refusal: a rank's child process (a script's subprocess) inherits the
// launcher's variables and may reduce on its own. Open MPI and PMI launchers (MPICH, Intel MPI,
// Slurm's PMI) set them.
void note_mpi_launch() {
  for (const auto& [size_var, rank_var] :
       {std::pair{"OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK"}, {"PMI_SIZE", "PMI_RANK"}}) {
    const char* size = std::getenv(size_var);
    if (!size || std::string_view(size).find_first_not_of("0123456789") != std::string_view::npos ||
        std::atoll(size) < 2)
      continue;
    const char* rank = std::getenv(rank_var);
    if (rank && std::string_view(rank) != "0") return;
    std::cerr << rdx::detail::format(
        "clrdx: note: this is one of {} MPI ranks ({}={}), each reducing the whole input; "
        "`mpirun -n {} clrdx-mpi ...` gives one reduction over the ranks\n",
        size, size_var, size, size);
    return;
  }
}

int cmd_reduce(const ReduceArgs& a) {
  note_mpi_launch();
  const ReduceRequest req = reduce_request(a);
  if (rdx::is_device_list(a.device)) {
    if (!a.axis.empty() || !a.segments.empty() || req.whole_input() || !a.map.empty())
      throw rdx::ArgumentError(
          "--device LIST reduces the built-in operators over whole inputs: not with --axis, "
          "--segments, --map, composites or --combine");
    return reduce_group(a, req);
  }
  if (!a.axis.empty() || !a.segments.empty()) return cmd_reduce_segmented(a, req);
  if (req.whole_input() || !a.map.empty()) return cmd_reduce_whole(a, req);
  const rdx::Op op = req.op;
  std::optional<rdx::Type> type = req.type;
  const rdx::Options& opts = req.opts;

  std::optional<InputFile> file;
  std::vector<unsigned char> generated;
  std::uint64_t count = 0;
  if (!a.input.empty()) {
    file = open_input(a.input, type);  // every check that needs no data, before the device
    type = file->type;
  } else if (!a.generate.empty()) {
    if (!type) throw rdx::ArgumentError("--generate needs --type");
    if (a.count.empty()) throw rdx::ArgumentError("--generate needs --count");
    count = parse_count(a.count, "--count");
    generated = rdx::generate(*type, a.generate, count, parse_count(a.seed, "--seed"));
  } else {
    throw rdx::ArgumentError("give --input FILE or --generate PATTERN --count N");
  }

  rdx::Context ctx(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  const rdx::Result r = file ? reduce_file(ctx, std::move(*file), op, opts)
                             : rdx::reduce(ctx, *type, generated.data(), count, op, opts);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (a.json) {
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"strategy", r.plan.strategy},
                        {"type", std::string(rdx::name(*type))},
                        {"acc", std::string(rdx::name(r.plan.acc))},
                        {"op", std::string(rdx::name(op))},
                        {"count", r.plan.n},
                        {"result", to_json(r.value)},
                        {"index", nullptr},  // argmin and argmax only
                        {"work_group_size", r.plan.work_group_size},
                        {"seconds", seconds}};
    print_result(j, r.value, r.index, true);
  } else {
    print_result({}, r.value, r.index, false);
  }
  return 0;
}

}  // namespace clrdx
