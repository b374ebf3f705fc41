// A program built against an installed rdx_mpi (the `package` test, find_package(rdx COMPONENTS
// mpi)): under mpirun, each rank reduces its own run of 1000 integers per rank, and the ranks'
// sum and argmax must be the host's; rank 0 prints rdx::version() as its only line on stdout.
#include <mpi.h>
#include <rdx/mpi.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1, code = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  try {
    rdx::Context ctx("cpu");
    std::vector<std::int64_t> mine(1000);
    for (std::size_t i = 0; i < mine.size(); ++i)
      mine[i] = static_cast<std::int64_t>(rank) * 1000 + static_cast<std::int64_t>(i);
    const rdx::Result sum = rdx::mpi::allreduce(ctx, MPI_COMM_WORLD, rdx::Type::I64, mine.data(),
                                                mine.size(), rdx::Op::Sum);
    const auto arg = rdx::mpi::reduce(ctx, MPI_COMM_WORLD, rdx::Type::I64, mine.data(), mine.size(),
                                      rdx::Op::ArgMax);
    const std::int64_t n = static_cast<std::int64_t>(ranks) * 1000;
    if (sum.value.as<std::int64_t>() != n * (n - 1) / 2) code = 1;
    if (rank == 0 && (!arg || arg->index != static_cast<std::uint64_t>(n - 1))) code = 1;
    if (rank == 0 && code == 0) std::printf("%s\n", rdx::version().data());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer_mpi: %s\n", e.what());
    code = 1;
  }
  MPI_Finalize();
  return code;
}
