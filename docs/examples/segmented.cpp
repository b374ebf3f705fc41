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

  // The composites and users' reductions (rdx/segmented_custom.hpp): column means, and the
  // largest |x| of each segment (an empty one gives the identity, 0).
  const rdx::Array in[] = {rdx::Array::of(std::span<const float>(m))};
  auto means = rdx::reduce_axis(ctx, rdx::Stat::Mean, in, shape, 0);  // 5 6 7 8
  const auto absmax = rdx::Reduction::simple(rdx::Type::F32, "fmax(a, b)", "0", "fabs(x)");
  auto peaks = rdx::reduce_segments(ctx, absmax, in, m.size(), offsets).as<float>(0);  // 2 0 7 12

  std::printf(
      "rows %g %g %g, columns' max %g .. %g, segment sums %g %g %g %g, argmax of the third "
      "at %llu, mean of the first column %g, peaks %g %g %g %g\n",
      rows[0], rows[1], rows[2], cols[0], cols[3], sums[0], sums[1], sums[2], sums[3],
      static_cast<unsigned long long>(r.indices[2]), means.value(0).as<double>(), peaks[0],
      peaks[1], peaks[2], peaks[3]);
  return rows == std::vector<float>{10, 26, 42} && cols == std::vector<float>{9, 10, 11, 12} &&
                 sums == std::vector<double>{3, 0, 25, 50} &&
                 r.indices[1] == rdx::kEmptySegmentIndex && r.indices[2] == 4 &&
                 r.value(2).as<float>() == 7 && means.value(0).as<double>() == 5 &&
                 means.value(3).as<double>() == 8 && peaks == std::vector<float>{2, 0, 7, 12}
             ? 0
             : 1;
}
