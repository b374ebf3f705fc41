// The suite's warm-up (ctest entry `kernels`, the fixture every other PoCL entry requires): auto,
// the path most entries take, for every (type, operator) pair of the case table at a size that
// fits one work-group and at one that does not, spread over one Context per core, so the shared
// kernel cache is filled once, in parallel, before entries that would each build the same kernels
// start. Each result is checked against the host reference: the warm-up is a test of its own.
// doctest's assertions are not thread-safe: workers collect failures as text.
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"
#include "test_support.hpp"

using namespace rdx;

TEST_CASE("kernels: auto for every type and operator, built on every core") {
  Context probe(rdx_test::device());
  Options generic;
  generic.strategy = "localtree";
  const std::size_t wg =
      make_plan(probe.device_info(), Type::I32, Op::Sum, 1, generic).work_group_size;
  // Per (type, operator): the smallest and the largest non-empty size of the case table up to
  // 2^20 (one work-group's worth, and several).
  std::map<std::pair<Type, Op>, std::pair<Case, Case>> picked;
  for (const Case& c : verify_cases(wg, probe.device_info().fp64, 1u << 20, 20261126)) {
    if (c.n == 0) continue;
    auto [it, fresh] = picked.try_emplace({c.type, c.op}, c, c);
    if (c.n < it->second.first.n) it->second.first = c;
    if (c.n > it->second.second.n) it->second.second = c;
  }
  std::vector<Case> work;
  for (const auto& kv : picked) {
    work.push_back(kv.second.second);
    if (kv.second.first.n != kv.second.second.n) work.push_back(kv.second.first);
  }
  REQUIRE(picked.size() >= std::size(kAllOps) * 2);  // the table covers many pairs

  std::atomic<std::size_t> next{0}, checked{0};
  std::mutex m;
  std::vector<std::string> failures;
  auto worker = [&] {
    try {
      Context ctx(rdx_test::device());
      for (std::size_t i = next++; i < work.size(); i = next++) {
        const Case& c = work[i];
        const auto data = make_case_data(c.type, c.op, c.pattern, c.n, c.seed);
        const Result r = reduce(ctx, c.type, data.data(), c.n, c.op);
        const auto ref = reference_reduce(c.type, c.type, c.op, data.data(), c.n);
        if (auto bad = check_result(r.plan, r.value, r.index, ref); !bad.empty()) {
          std::lock_guard<std::mutex> lock(m);
          failures.push_back(
              rdx::detail::format("{} {} n={}: {}", name(c.op), name(c.type), c.n, bad));
        }
        ++checked;
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(m);
      failures.push_back(e.what());
    }
  };
  const unsigned threads = std::max(1u, std::min(8u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (auto& t : pool)
    t.join();
  for (const auto& f : failures)
    CHECK_MESSAGE(false, f);
  CHECK(checked == work.size());
  MESSAGE(rdx::detail::format("{} reductions on {} threads", checked.load(), threads));
}
