// rdx_mpi (rdx/mpi.hpp): each rank's state computed, the ranks' agreement checked in one
// allreduce, the states combined in rank order along a binomial tree, and the result delivered.
#include "rdx/mpi.hpp"

#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "rdx/errors.hpp"

namespace rdx::mpi {
namespace {

constexpr int kTag = 0x7264;  // on the duplicate communicator only

void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(fmt::format("{} failed: {}", call, std::string(text, static_cast<std::size_t>(len))));
}

// A duplicate of the caller's communicator whose errors return (and are thrown as rdx::Error).
class Dup {
 public:
  explicit Dup(MPI_Comm comm) {
    check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~Dup() { MPI_Comm_free(&comm_); }
  Dup(const Dup&) = delete;
  Dup& operator=(const Dup&) = delete;
  MPI_Comm get() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

// The error classes that cross ranks (the rest travel as rdx::Error).
enum class Kind : int { Argument = 1, Unsupported, Device, Other };

Kind kind_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const ArgumentError&) {
    return Kind::Argument;
  } catch (const UnsupportedError&) {
    return Kind::Unsupported;
  } catch (const DeviceError&) {
    return Kind::Device;
  } catch (...) {
    return Kind::Other;
  }
}

std::string what_of(const std::exception_ptr& e) {
  try {
    std::rethrow_exception(e);
  } catch (const std::exception& x) {
    return x.what();
  } catch (...) {
    return "an exception that is not a std::exception";
  }
}

[[noreturn]] void throw_as(Kind kind, const std::string& what) {
  switch (kind) {
    case Kind::Argument:
      throw ArgumentError(what);
    case Kind::Unsupported:
      throw UnsupportedError(what);
    case Kind::Device:
      throw DeviceError(what);
    case Kind::Other:
      break;
  }
  throw Error(what);
}

// What a state's request is, for the ranks' agreement: its byte form's header up to the exact
// flag (magic, version, type, accumulator, operator, exact: rdx/partial.hpp's one description of
// a request), folded into 63 bits, and its size.
std::uint64_t signature(const std::vector<unsigned char>& bytes) {
  std::uint64_t h = bytes.size();
  for (std::size_t k = 0; k < 9 && k < bytes.size(); ++k)
    h = h * 1099511628211ull + bytes[k];       // FNV-1a's prime
  return (h >> 1) | (std::uint64_t{1} << 63);  // never 0: 0 is "no state"
}

// This rank's state, once every rank has one: the first failing rank's error (or a request or a
// root the ranks do not share) is thrown on every rank. `root`: none for allreduce.
Partial agreed_local(const Dup& comm, const std::function<Partial()>& local,
                     std::optional<int> root) {
  std::optional<Partial> mine;
  std::exception_ptr error;
  try {
    if (root && (*root < 0 || *root >= comm.size()))
      throw ArgumentError(
          fmt::format("rdx::mpi::reduce: root {} is not a rank of {}", *root, comm.size()));
    mine = local();
  } catch (...) {
    error = std::current_exception();
  }
  const std::uint64_t sig = mine ? signature(mine->to_bytes()) : 0;
  const std::uint64_t r = static_cast<std::uint64_t>(std::int64_t{root.value_or(-1)} + 1);
  // One MAX allreduce: the first failing rank (as size - rank), and the largest and smallest
  // signature and root among the ranks (the smallest as the largest complement).
  std::uint64_t in[5] = {error ? static_cast<std::uint64_t>(comm.size() - comm.rank()) : 0, sig,
                         mine ? ~sig : 0, r, ~r};
  std::uint64_t out[5] = {0, 0, 0, 0, 0};
  check(MPI_Allreduce(in, out, 5, MPI_UINT64_T, MPI_MAX, comm.get()), "MPI_Allreduce");
  if (out[0]) {
    const int first = comm.size() - static_cast<int>(out[0]);
    int head[2] = {0, 0};
    std::string what;
    if (comm.rank() == first) {
      what = what_of(error);
      head[0] = static_cast<int>(kind_of(error));
      head[1] = static_cast<int>(what.size());
    }
    check(MPI_Bcast(head, 2, MPI_INT, first, comm.get()), "MPI_Bcast");
    what.resize(static_cast<std::size_t>(head[1]));
    check(MPI_Bcast(what.data(), head[1], MPI_CHAR, first, comm.get()), "MPI_Bcast");
    throw_as(static_cast<Kind>(head[0]), fmt::format("rank {}: {}", first, what));
  }
  if (out[1] != ~out[2])
    throw ArgumentError(
        "the ranks reduce different requests (type, operator, accumulator or determinism)");
  if (out[3] != ~out[4]) throw ArgumentError("the ranks name different roots");
  return std::move(*mine);
}

// The ranks' states combined in rank order on rank 0: at step s (1, 2, 4 ...) rank r with
// r mod 2s == s sends its state (ranks [r, r + s)) to r - s, which appends it to its own.
// Returns the combined state on rank 0, this rank's partial elsewhere.
Partial tree_to_zero(const Dup& comm, Partial state) {
  const std::size_t bytes = state.to_bytes().size();
  std::vector<unsigned char> buf(bytes);
  for (int step = 1; step < comm.size(); step *= 2) {
    const int r = comm.rank();
    if (r % (2 * step) == step) {
      const std::vector<unsigned char> out = state.to_bytes();
      check(
          MPI_Send(out.data(), static_cast<int>(out.size()), MPI_BYTE, r - step, kTag, comm.get()),
          "MPI_Send");
      break;
    }
    if (r % (2 * step) == 0 && r + step < comm.size()) {
      check(MPI_Recv(buf.data(), static_cast<int>(bytes), MPI_BYTE, r + step, kTag, comm.get(),
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
      state = combine(state, Partial::from_bytes(buf));
    }
  }
  return state;
}

}  // namespace

std::optional<Partial> reduce(MPI_Comm comm, const std::function<Partial()>& local, int root) {
  const Dup c(comm);
  Partial all = tree_to_zero(c, agreed_local(c, local, root));
  if (root != 0) {
    std::vector<unsigned char> bytes = all.to_bytes();
    if (c.rank() == 0)
      check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, root, kTag, c.get()),
            "MPI_Send");
    if (c.rank() == root) {
      check(MPI_Recv(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, kTag, c.get(),
                     MPI_STATUS_IGNORE),
            "MPI_Recv");
      return Partial::from_bytes(bytes);
    }
  }
  if (c.rank() != root) return std::nullopt;
  return all;
}

Partial allreduce(MPI_Comm comm, const std::function<Partial()>& local) {
  const Dup c(comm);
  Partial all = tree_to_zero(c, agreed_local(c, local, std::nullopt));
  std::vector<unsigned char> bytes = all.to_bytes();
  check(MPI_Bcast(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, 0, c.get()), "MPI_Bcast");
  return c.rank() == 0 ? all : Partial::from_bytes(bytes);
}

std::optional<Result> reduce(Context& ctx, MPI_Comm comm, Type type, const void* data,
                             std::uint64_t n, Op op, const Options& opts, int root) {
  const auto p = reduce(
      comm, [&] { return reduce_partial(ctx, type, data, n, op, opts); }, root);
  if (!p) return std::nullopt;
  return finish(*p);
}

std::optional<Result> reduce(Context& ctx, MPI_Comm comm, Type type, const BufferAt& data,
                             std::uint64_t n, Op op, const Options& opts, int root) {
  const auto p = reduce(
      comm, [&] { return reduce_partial(ctx, type, data, n, op, opts); }, root);
  if (!p) return std::nullopt;
  return finish(*p);
}

Result allreduce(Context& ctx, MPI_Comm comm, Type type, const void* data, std::uint64_t n, Op op,
                 const Options& opts) {
  return finish(allreduce(comm, [&] { return reduce_partial(ctx, type, data, n, op, opts); }));
}

Result allreduce(Context& ctx, MPI_Comm comm, Type type, const BufferAt& data, std::uint64_t n,
                 Op op, const Options& opts) {
  return finish(allreduce(comm, [&] { return reduce_partial(ctx, type, data, n, op, opts); }));
}

Run run_of(std::uint64_t n, int rank, int ranks) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw ArgumentError(fmt::format("run_of: rank {} of {} ranks", rank, ranks));
  // n * k / ranks without overflow: n = q * ranks + m.
  const auto cut = [&](std::uint64_t k) {
    const std::uint64_t p = static_cast<std::uint64_t>(ranks), q = n / p, m = n % p;
    return q * k + m * k / p;
  };
  return {cut(static_cast<std::uint64_t>(rank)), cut(static_cast<std::uint64_t>(rank) + 1)};
}

NodeRank node_rank(MPI_Comm comm) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
  NodeRank r;
  MPI_Comm_rank(node, &r.rank);
  MPI_Comm_size(node, &r.size);
  MPI_Comm_free(&node);
  return r;
}

}  // namespace rdx::mpi
