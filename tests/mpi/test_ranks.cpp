// rdx_mpi (rdx/mpi.hpp) under mpirun -n 1, 2, 4: every rank takes its run of one input, rank 1
// (of two or more) none, and the ranks' result must be what the host's own loop gives for the
// whole input (integers, extremes, argmin/argmax's global first index with ties across ranks),
// and for float sums under AnyDevice and Exact the bits of one process's reduction of the whole
// input (test_exact_sum.cpp checks those against GMP). Errors reach every rank.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "rdx/mpi.hpp"
#include "rdx/rdx.hpp"

namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranks() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

rdx::Context& ctx() {
  const char* d = std::getenv("RDX_DEVICE");
  static rdx::Context c(d && *d ? d : "cpu");
  return c;
}

// Rank r's run [first, end) of n elements: equal runs, except that rank 1 has none (its run goes
// to rank 2, or to rank 0 when there are two ranks).
struct Run {
  std::uint64_t first = 0, end = 0;
};
Run run_of(int r, int size, std::uint64_t n) {
  std::vector<std::uint64_t> cuts;
  for (int k = 0; k <= size; ++k)
    cuts.push_back(n * static_cast<std::uint64_t>(k) / static_cast<std::uint64_t>(size));
  if (size == 2) cuts[1] = n;  // rank 1: none
  if (size > 2) cuts[2] = cuts[1];
  return {cuts[static_cast<std::size_t>(r)], cuts[static_cast<std::size_t>(r) + 1]};
}

template <class T>
std::optional<rdx::Result> on_ranks(const std::vector<T>& x, rdx::Op op, const rdx::Options& o = {},
                                    int root = 0) {
  const Run run = run_of(rank(), ranks(), x.size());
  return rdx::mpi::reduce(ctx(), MPI_COMM_WORLD, rdx::type_of<T>(), x.data() + run.first,
                          run.end - run.first, op, o, root);
}

}  // namespace

TEST_CASE("mpi: the runs give the host's integers, extremes and global first indexes") {
  const std::uint64_t n = 100003;
  std::mt19937 gen(7);
  std::vector<std::int32_t> x(n);
  for (auto& v : x)
    v = static_cast<std::int32_t>(gen() % 2001) - 1000;
  // The maximum at the last element of every rank's run (ties across every boundary), the
  // minimum twice at the start of the last run with elements: the first occurrence must win, its
  // index counted over every rank before it.
  Run last;
  for (int r = 0; r < ranks(); ++r) {
    const Run run = run_of(r, ranks(), n);
    if (run.end > run.first) {
      x[run.end - 1] = 7000;
      last = run;
    }
  }
  x[last.first] = x[last.first + 1] = -7000;
  std::int64_t sum = 0;
  std::int32_t xr = 0;
  for (std::int32_t v : x) {
    sum += v;
    xr ^= v;
  }
  const std::uint64_t first_max =
      static_cast<std::uint64_t>(std::max_element(x.begin(), x.end()) - x.begin());
  const std::uint64_t first_min =
      static_cast<std::uint64_t>(std::min_element(x.begin(), x.end()) - x.begin());
  rdx::Options wide;
  wide.acc = rdx::Type::I64;
  const auto s = on_ranks(x, rdx::Op::Sum, wide);
  const auto e = on_ranks(x, rdx::Op::Xor);
  const auto amax = on_ranks(x, rdx::Op::ArgMax);
  const auto amin = on_ranks(x, rdx::Op::ArgMin);
  if (rank() != 0) {
    CHECK(!s);
    CHECK(!amax);
    return;
  }
  REQUIRE(s);
  CHECK(s->value.as<std::int64_t>() == sum);
  CHECK(s->plan.n == n);
  CHECK(e->value.as<std::int32_t>() == xr);
  CHECK(amax->value.as<std::int32_t>() == 7000);
  CHECK(amax->index == first_max);
  CHECK(amin->value.as<std::int32_t>() == -7000);
  CHECK(amin->index == first_min);
}

TEST_CASE("mpi: exact float sums are one process's bits, on every rank and on any root") {
  const std::uint64_t n = 50021;
  std::mt19937_64 gen(9);
  std::vector<float> f(n);
  std::vector<double> d(n);
  for (std::uint64_t k = 0; k < n; ++k) {
    const double v = (static_cast<double>(gen() % 2000001) - 1000000.0) *
                     std::ldexp(1.0, static_cast<int>(gen() % 100) - 50);
    f[k] = static_cast<float>(v);
    d[k] = v;
  }
  for (rdx::Determinism level : {rdx::Determinism::AnyDevice, rdx::Determinism::Exact}) {
    rdx::Options o;
    o.determinism = level;
    const rdx::Scalar want = rdx::reduce(ctx(), rdx::Type::F32, f.data(), n, rdx::Op::Sum, o).value;
    const Run run = run_of(rank(), ranks(), n);
    const rdx::Result all =
        rdx::mpi::allreduce(ctx(), MPI_COMM_WORLD, rdx::Type::F32, f.data() + run.first,
                            run.end - run.first, rdx::Op::Sum, o);
    CHECK(all.value.bits == want.bits);
    CHECK(all.plan.n == n);
    const int root = ranks() - 1;
    const auto at_root = on_ranks(f, rdx::Op::Sum, o, root);
    CHECK(at_root.has_value() == (rank() == root));
    if (at_root) CHECK(at_root->value.bits == want.bits);
    if (ctx().device_info().fp64) {
      const rdx::Scalar want_d =
          rdx::reduce(ctx(), rdx::Type::F64, d.data(), n, rdx::Op::Sum, o).value;
      // Device-resident runs.
      const std::uint64_t m = std::max<std::uint64_t>(run.end - run.first, 1);
      cl::Buffer buf(ctx().cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     m * sizeof(double), d.data() + std::min(run.first, n - 1));
      const rdx::Result r = rdx::mpi::allreduce(ctx(), MPI_COMM_WORLD, rdx::Type::F64, buf,
                                                run.end - run.first, rdx::Op::Sum, o);
      CHECK(r.value.bits == want_d.bits);
    }
  }
}

TEST_CASE("mpi: no elements anywhere, and errors, reach every rank") {
  // Empty on every rank: the identity; argmin has no result, on every rank.
  const rdx::Result zero =
      rdx::mpi::allreduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, nullptr, 0, rdx::Op::Sum);
  CHECK(zero.value.as<std::int32_t>() == 0);
  CHECK(zero.plan.n == 0);
  CHECK_THROWS_AS(
      rdx::mpi::allreduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, nullptr, 0, rdx::Op::ArgMin),
      rdx::ArgumentError);
  // One rank fails: every rank throws its error, naming it.
  const int last = ranks() - 1;
  try {
    rdx::mpi::allreduce(MPI_COMM_WORLD, [&]() -> rdx::Partial {
      if (rank() == last) throw rdx::UnsupportedError("this rank's device says no");
      return rdx::reduce_partial(ctx(), rdx::Type::I32, nullptr, 0, rdx::Op::Sum);
    });
    FAIL("no exception");
  } catch (const rdx::UnsupportedError& e) {
    CHECK(std::string(e.what()) == "rank " + std::to_string(last) + ": this rank's device says no");
  }
  // Float products are refused on every rank.
  const float one = 1.0f;
  CHECK_THROWS_AS(rdx::mpi::reduce(ctx(), MPI_COMM_WORLD, rdx::Type::F32, &one, 1, rdx::Op::Prod),
                  rdx::UnsupportedError);
  // A root that is no rank.
  CHECK_THROWS_AS(rdx::mpi::reduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, nullptr, 0, rdx::Op::Sum,
                                   {}, ranks()),
                  rdx::ArgumentError);
  CHECK_THROWS_AS(
      rdx::mpi::reduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, nullptr, 0, rdx::Op::Sum, {}, -1),
      rdx::ArgumentError);
  // Ranks that name different roots, or reduce different requests.
  if (ranks() > 1) {
    CHECK_THROWS_AS(rdx::mpi::reduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, nullptr, 0,
                                     rdx::Op::Sum, {}, rank() == 0 ? 0 : 1),
                    rdx::ArgumentError);
    const std::int32_t v = 1;
    CHECK_THROWS_AS(rdx::mpi::allreduce(ctx(), MPI_COMM_WORLD, rdx::Type::I32, &v, 1,
                                        rank() == 0 ? rdx::Op::Sum : rdx::Op::Max),
                    rdx::ArgumentError);
  }
  // Equal runs in rank order, whatever n (no overflow at 2^64 - 1).
  CHECK(rdx::mpi::run_of(10, 0, 3).end == 3);
  CHECK(rdx::mpi::run_of(10, 1, 3).first == 3);
  CHECK(rdx::mpi::run_of(10, 2, 3).end == 10);
  const std::uint64_t top = ~std::uint64_t{0};
  CHECK(rdx::mpi::run_of(top, 2, 3).end == top);
  CHECK(rdx::mpi::run_of(top, 1, 3).first == rdx::mpi::run_of(top, 0, 3).end);
  CHECK(rdx::mpi::run_of(2, 0, 4).end == 0);  // fewer elements than ranks: empty runs first
  CHECK_THROWS_AS(rdx::mpi::run_of(10, 3, 3), rdx::ArgumentError);
  // The node rank: within the ranks, and rank 0 is node rank 0 on one machine.
  const rdx::mpi::NodeRank nr = rdx::mpi::node_rank(MPI_COMM_WORLD);
  CHECK(nr.rank >= 0);
  CHECK(nr.rank < nr.size);
  CHECK(nr.size <= ranks());
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  doctest::Context context(argc, argv);
  int failed = context.run();
  // Every rank's verdict: the run fails when any rank's checks failed.
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any ? 1 : 0;
}
