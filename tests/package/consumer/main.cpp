// A program built against an installed librdx (the `package` test): it reduces generated values
// on the CPU device (PoCL), checks them against the host, and prints rdx::version() as its only
// line on stdout. Exits 1 on a mismatch or an error.
#include <rdx/rdx.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <span>
#include <vector>

int main() {
  try {
    rdx::Context ctx("cpu");
    // Values with repeats and sign changes; the largest occurs more than once, so the argmax
    // check also covers "first occurrence".
    std::vector<std::int32_t> ints(5003);
    std::vector<float> floats(ints.size());
    for (std::size_t i = 0; i < ints.size(); ++i) {
      ints[i] = static_cast<std::int32_t>((i * 7919) % 1013) - 500;
      floats[i] = static_cast<float>(ints[i]) * 0.25f;
    }

    const auto sum = rdx::reduce(ctx, std::span<const std::int32_t>(ints), rdx::Op::Sum);
    const auto want_sum = std::accumulate(ints.begin(), ints.end(), std::int32_t{0});
    const auto arg = rdx::reduce_index(ctx, std::span<const float>(floats), rdx::Op::ArgMax);
    const auto max_it = std::max_element(floats.begin(), floats.end());
    const auto want_index = static_cast<std::uint64_t>(std::distance(floats.begin(), max_it));

    bool ok = true;
    if (sum != want_sum) {
      std::fprintf(stderr, "consumer: i32 sum %d, expected %d\n", sum, want_sum);
      ok = false;
    }
    if (arg.value != *max_it || arg.index != want_index) {
      std::fprintf(stderr, "consumer: f32 argmax %g at %llu, expected %g at %llu\n", arg.value,
                   static_cast<unsigned long long>(arg.index), *max_it,
                   static_cast<unsigned long long>(want_index));
      ok = false;
    }
    const auto version = rdx::version();
    std::printf("%.*s\n", static_cast<int>(version.size()), version.data());
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
