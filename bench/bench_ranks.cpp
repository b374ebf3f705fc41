// Device-resident input over the ranks of mpirun (docs/multidevice.md): n random f32 elements in
// all, rank r holding its equal run on the GPU of its node rank, reduced by rdx::mpi::allreduce.
// Each time is the median of `reps` calls (after a warm-up and a barrier before each); rank 0
// prints one JSON line per level. Run it with -n 1 and -n 2 in alternation to pair the rows.
// Usage: mpirun -n P bench_ranks LOG2_N REPS LEVELS [DEVICES]
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "rdx/mpi.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  try {
    if (argc < 4) throw rdx::ArgumentError("usage: bench_ranks LOG2_N REPS LEVELS [DEVICES]");
    const std::uint64_t n = std::uint64_t{1} << std::atoi(argv[1]);
    const int reps = std::atoi(argv[2]);
    const std::vector<rdx::DeviceInfo> devices =
        rdx::select_devices(rdx::list_devices(), argc > 4 ? argv[4] : "gpu:all");
    const rdx::mpi::NodeRank node = rdx::mpi::node_rank(MPI_COMM_WORLD);
    rdx::Context ctx(
        std::to_string(devices[static_cast<std::size_t>(node.rank) % devices.size()].index));
    const auto [first, end] = rdx::mpi::run_of(n, rank, ranks);
    // Every rank generates the whole input's run it holds (the same values for any rank count).
    const std::vector<unsigned char> all = rdx::generate(rdx::Type::F32, "random", n, 1);
    cl::Buffer mine(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    (end - first) * sizeof(float),
                    const_cast<unsigned char*>(all.data() + first * sizeof(float)));
    const std::string list = argv[3];
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      rdx::Options o;
      o.determinism = rdx::find_determinism(list.substr(at, comma - at)).value();
      at = comma + 1;
      rdx::Scalar v;
      std::vector<double> t;
      for (int k = 0; k <= reps; ++k) {
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = std::chrono::steady_clock::now();
        v = rdx::mpi::allreduce(ctx, MPI_COMM_WORLD, rdx::Type::F32, mine, end - first,
                                rdx::Op::Sum, o)
                .value;
        if (k)
          t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(t.begin(), t.end());
      const double s = t[t.size() / 2];
      if (rank == 0)
        fmt::print(
            "{{\"ranks\":{},\"determinism\":\"{}\",\"n\":{},\"seconds\":{:.6e},\"gbps\":{:.1f},"
            "\"hex\":\"{:a}\",\"device\":\"{}\"}}\n",
            ranks, rdx::name(o.determinism), n, s, 4.0 * static_cast<double>(n) / s / 1e9,
            v.as<double>(), ctx.device_info().name);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_ranks (rank {}): {}\n", rank, e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
