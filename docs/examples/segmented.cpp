// docs/examples/segmented.cpp: one result per segment (offsets) and per row or column (an axis);
// exits 1 on a wrong result.
#include <rdx/rdx.hpp>

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

int main() {
  rdx::Context ctx("cpu");
  // A 3 x 4 matrix in C order.
  const std::vector<float> m = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<std::uint64_t> shape = {3, 4};
  auto rows = rdx::reduce_axis(ctx, std::span(m), shape, 1, rdx::Op::Sum);  // 10 26 42
  auto cols = rdx::reduce_axis(ctx, std::span(m), shape, 0, rdx::Op::Max);  // 9 10 11 12

  // Segments by offsets (CSR row pointers): [1 2] [] [3 4 5 6 7] [8 .. 12].
  const std::vector<std::uint64_t> offsets = {0, 2, 2, 7, 12};
  auto sums = rdx::reduce_segments<double>(ctx, std::span(m), offsets, rdx::Op::Sum);  // 3 0 25 50
  // argmin/argmax: the index from each segment's start; an empty segment's is kEmptySegmentIndex.
  auto r = rdx::reduce_segments(ctx, rdx::Type::F32, m.data(), m.size(), offsets, rdx::Op::ArgMax);

  std::printf(
      "rows %g %g %g, columns' max %g .. %g, segment sums %g %g %g %g, argmax of the third "
      "at %llu\n",
      rows[0], rows[1], rows[2], cols[0], cols[3], sums[0], sums[1], sums[2], sums[3],
      static_cast<unsigned long long>(r.indices[2]));
  return rows == std::vector<float>{10, 26, 42} && cols == std::vector<float>{9, 10, 11, 12} &&
                 sums == std::vector<double>{3, 0, 25, 50} &&
                 r.indices[1] == rdx::kEmptySegmentIndex && r.indices[2] == 4 &&
                 r.value(2).as<float>() == 7
             ? 0
             : 1;
}
