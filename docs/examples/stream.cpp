// docs/examples/stream.cpp: data that arrives in pieces, or does not fit in memory, reduced as
// one input by rdx::Stream; exits 1 on a wrong result.
#include <rdx/rdx.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

// The input, a piece at a time: fills `block` and returns how many elements it holds, 0 at the
// end (a program would read a file or a socket here). Element i is (i * 7919) % 1009.
std::size_t read_block(std::vector<float>& block, std::uint64_t& next) {
  constexpr std::uint64_t kTotal = 100000;
  std::size_t got = 0;
  for (; got < block.size() && next < kTotal; ++got, ++next)
    block[got] = static_cast<float>((next * 7919) % 1009);
  return got;
}

int main() {
  rdx::Context ctx("cpu");
  std::vector<float> block(4096);
  std::uint64_t next = 0;

  rdx::Stream st(ctx, rdx::Type::F32, rdx::Op::ArgMax);
  while (std::size_t got = read_block(block, next))
    st.push(block.data(), got);  // block is reusable as soon as push() returns
  rdx::Result r = st.finish();   // r.value (an rdx::Scalar), r.index counts from 0

  // The largest value, 1008, first occurs at i = 765 (765 * 7919 = 1008 mod 1009).
  const float value = r.value.as<float>();
  const std::uint64_t index = r.index.value_or(0);
  std::printf("argmax %g at %llu\n", value, static_cast<unsigned long long>(index));
  return value == 1008.0f && index == 765 ? 0 : 1;
}
