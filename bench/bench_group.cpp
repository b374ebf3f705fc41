// Device-resident input over several devices against one (docs/multidevice.md): n random elements
// of TYPE (default f32) as one buffer on the list's first device, and as equal shards, one per
// device of the list, reduced by rdx::reduce(DeviceGroup, shards). Per round, per level, the two
// alternate; each time is the median of `reps` calls after a warm-up. One JSON line per (round,
// level, form); the forms slowest_shard_alone (each shard reduced with the other device idle),
// threads (the shards' rdx::reduce calls on threads, no group) and enqueued (rdx::enqueue_reduce on
// every device from one thread, then waits) show what bounds the group. Each line's bits are the
// result's (the accumulator's bits; none for the forms without one). Usage: bench_group DEVICES
// LOG2_N ROUNDS REPS LEVELS [TYPE]
//        e.g. bench_group gpu:all 30 3 10 run_to_run,exact,any_device i32
//        bench_group combine DEVICE   (one combine step's host cost, see combine_costs)
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

namespace {

double median_s(int reps, const auto& f) {
  f();  // warm-up: builds, first-touch
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

cl::Buffer upload(rdx::Context& ctx, const unsigned char* p, std::uint64_t bytes) {
  return cl::Buffer(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                    const_cast<unsigned char*>(p));
}

}  // namespace

// `bench_group combine DEVICE`: what one step of a rank-order combine costs on the host (a state
// read back from bytes and appended to another), per request, the median of 7 runs of 10000.
int combine_costs(const char* device) {
  rdx::Context ctx(device);
  std::vector<double> x(4096, 1.5);
  struct Case {
    const char* name;
    rdx::Type type;
    rdx::Determinism level;
  };
  for (const Case& c : {Case{"i64 sum", rdx::Type::I64, rdx::Determinism::RunToRun},
                        Case{"f32 sum exact", rdx::Type::F32, rdx::Determinism::Exact},
                        Case{"f64 sum exact", rdx::Type::F64, rdx::Determinism::Exact}}) {
    rdx::Options o;
    o.determinism = c.level;
    const rdx::Partial p = rdx::reduce_partial(ctx, c.type, x.data(), 1024, rdx::Op::Sum, o);
    const std::vector<unsigned char> bytes = p.to_bytes();
    rdx::Partial acc = p;
    const double s = median_s(7, [&] {
      for (int k = 0; k < 10000; ++k)
        acc = rdx::combine(acc, rdx::Partial::from_bytes(bytes));
    });
    fmt::print("{{\"combine\":\"{}\",\"state_bytes\":{},\"us_per_step\":{:.3f}}}\n", c.name,
               bytes.size(), s / 10000 * 1e6);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "combine") return combine_costs(argv[2]);
  if (argc != 6 && argc != 7) {
    fmt::print(stderr, "usage: bench_group DEVICES LOG2_N ROUNDS REPS LEVELS [TYPE]\n");
    return 2;
  }
  try {
    rdx::DeviceGroup g(argv[1]);
    const std::uint64_t n = std::uint64_t{1} << std::atoi(argv[2]);
    const int rounds = std::atoi(argv[3]), reps = std::atoi(argv[4]);
    std::vector<rdx::Determinism> levels;
    for (const std::string& s : {std::string(argv[5])})
      for (std::size_t at = 0; at <= s.size();) {
        const std::size_t comma = std::min(s.find(',', at), s.size());
        levels.push_back(rdx::find_determinism(s.substr(at, comma - at)).value());
        at = comma + 1;
      }
    const rdx::Type type = argc == 7 ? rdx::parse_type(argv[6]) : rdx::Type::F32;
    const std::size_t size = rdx::size_of(type);
    const std::vector<unsigned char> bytes = rdx::generate(type, "random", n, 1);
    const cl::Buffer whole = upload(g.context(0), bytes.data(), n * size);
    std::vector<rdx::Shard> shards;
    for (std::size_t k = 0; k < g.size(); ++k) {
      const std::uint64_t first = n * k / g.size(), end = n * (k + 1) / g.size();
      shards.push_back(
          {upload(g.context(k), bytes.data() + first * size, (end - first) * size), end - first});
    }
    for (int round = 0; round < rounds; ++round)
      for (rdx::Determinism level : levels) {
        rdx::Options o;
        o.determinism = level;
        rdx::Scalar one_value, group_value;
        const double one = median_s(reps, [&] {
          one_value = rdx::reduce(g.context(0), type, whole, n, rdx::Op::Sum, o).value;
        });
        const double group = median_s(reps, [&] {
          group_value =
              rdx::reduce(g, type, std::span<const rdx::Shard>(shards), rdx::Op::Sum, o).value;
        });
        // What bounds the group: each shard alone on its device, and the shards reduced by
        // plain rdx::reduce calls on threads of their own (no partial states).
        double alone = 0;
        for (std::size_t k = 0; k < g.size(); ++k)
          alone = std::max(alone, median_s(reps, [&] {
                             rdx::reduce(g.context(k), type, shards[k].buffer, shards[k].n,
                                         rdx::Op::Sum, o);
                           }));
        const double threads = median_s(reps, [&] {
          std::vector<std::thread> t;
          for (std::size_t k = 0; k < g.size(); ++k)
            t.emplace_back([&, k] {
              rdx::reduce(g.context(k), type, shards[k].buffer, shards[k].n, rdx::Op::Sum, o);
            });
          for (auto& th : t)
            th.join();
        });
        // The shards' reductions enqueued from this thread (rdx::enqueue_reduce), then waited for:
        // no host thread per device.
        std::vector<cl::Buffer> outs;
        for (std::size_t k = 0; k < g.size(); ++k)
          outs.emplace_back(g.context(k).cl_context(), CL_MEM_READ_WRITE, 8);
        const double enqueued = median_s(reps, [&] {
          std::vector<cl::Event> done;
          for (std::size_t k = 0; k < g.size(); ++k)
            done.push_back(rdx::enqueue_reduce(g.context(k), type, shards[k].buffer, shards[k].n,
                                               rdx::Op::Sum, outs[k], 0, {}, o));
          for (auto& e : done)
            e.wait();
        });
        for (const auto& [form, s, v, devices] :
             {std::tuple{"one", one, one_value, std::size_t{1}},
              std::tuple{"shards", group, group_value, g.size()},
              std::tuple{"slowest_shard_alone", alone, rdx::Scalar{}, std::size_t{1}},
              std::tuple{"threads", threads, rdx::Scalar{}, g.size()},
              std::tuple{"enqueued", enqueued, rdx::Scalar{}, g.size()}})
          fmt::print(
              "{{\"round\":{},\"type\":\"{}\",\"determinism\":\"{}\",\"form\":\"{}\","
              "\"devices\":{},\"n\":{},\"seconds\":{:.6e},\"gbps\":{:.1f},\"bits\":\"{:#x}\"}}\n",
              round, rdx::name(type), rdx::name(level), form, devices, n, s,
              static_cast<double>(size * n) / s / 1e9, v.bits);
        std::fflush(stdout);
      }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_group: {}\n", e.what());
    return 1;
  }
  return 0;
}
