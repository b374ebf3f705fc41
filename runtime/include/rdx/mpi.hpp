// rdx_mpi: one reduction over the ranks of an MPI communicator (docs/multidevice.md). Each rank
// reduces its own elements on its own device into an rdx::Partial (rdx/partial.hpp); the states
// are combined in rank order (rank 0's elements first) along a binomial tree of this library's
// own, so the result does not depend on the MPI implementation: integers, min, max, the bitwise
// operators and argmin/argmax (indexes global, ties to the first) are what one reduction of the
// ranks' elements in rank order gives, for any number of ranks; so are float sums under
// Determinism AnyDevice and Exact, bit for bit. A rank with no elements is fine.
//
// Every rank of the communicator calls the same function with the same request. When a rank
// fails (its device, its input, a request other ranks do not share), every rank throws: the
// failing rank's error type (ArgumentError, UnsupportedError, DeviceError, else rdx::Error)
// with its message prefixed by "rank K: ". The functions communicate on a duplicate of `comm`,
// never on the caller's tags. Built when CMake finds MPI: find_package(rdx COMPONENTS mpi) gives
// rdx::mpi. librdx itself never needs MPI.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "rdx/buffer_at.hpp"
#include "rdx/context.hpp"
#include "rdx/partial.hpp"
#include "rdx/reduce.hpp"

namespace rdx::mpi {

// The ranks' states combined in rank order: on `root` (reduce; the other ranks get nullopt) or on
// every rank (allreduce). `local` computes this rank's state; what it throws reaches every rank
// as described above.
std::optional<Partial> reduce(MPI_Comm comm, const std::function<Partial()>& local, int root = 0);
Partial allreduce(MPI_Comm comm, const std::function<Partial()>& local);

// This rank's n elements of `type`: host data (null only when n == 0) or a buffer of ctx's
// context from its element offset on, reduced on ctx's device; the result as rdx::finish gives it
// (an empty input: the identity, ArgumentError for argmin/argmax), whose plan is what ran on rank 0
// (on other ranks only its type, acc, op and n).
std::optional<Result> reduce(Context& ctx, MPI_Comm comm, Type type, const void* data,
                             std::uint64_t n, Op op, const Options& opts = {}, int root = 0);
std::optional<Result> reduce(Context& ctx, MPI_Comm comm, Type type, const BufferAt& data,
                             std::uint64_t n, Op op, const Options& opts = {}, int root = 0);
Result allreduce(Context& ctx, MPI_Comm comm, Type type, const void* data, std::uint64_t n, Op op,
                 const Options& opts = {});
Result allreduce(Context& ctx, MPI_Comm comm, Type type, const BufferAt& data, std::uint64_t n,
                 Op op, const Options& opts = {});

// Rank `rank`'s run [first, end) of n elements cut into `ranks` equal runs in rank order (the
// run k is [n * k / ranks, n * (k + 1) / ranks), computed without overflow): what clrdx-mpi
// reads on each rank. ArgumentError for a rank outside [0, ranks).
struct Run {
  std::uint64_t first = 0, end = 0;
};
Run run_of(std::uint64_t n, int rank, int ranks);

// This process's rank among the ranks of `comm` on its node (MPI_COMM_TYPE_SHARED) and their
// number: rank k of a node with one GPU per rank takes the node's GPU k.
struct NodeRank {
  int rank = 0, size = 1;
};
NodeRank node_rank(MPI_Comm comm);

}  // namespace rdx::mpi
