// Host inputs larger than one pass (SegmentedPlan::chunk, the device's largest allocation): the
// input reduced in passes of at most `chunk` elements, in order, each pass's elements read in
// place on a CPU device or written into one device buffer elsewhere (PassInput)
// (for_each_pass, which users' reductions share: dispatch/user_segments.cpp). A pass reduces the
// pieces of the segments it holds with the plan's own form; for a built-in operator, a segment
// that spans passes has its pieces combined on the host (ops/operators.hpp's combine_states,
// argmin/argmax's index moved by the piece's start within its segment, ties to the first).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

#include "core/cl_check.hpp"
#include "core/host_input.hpp"
#include "dispatch/run_plan.hpp"
#include "dispatch/segments.hpp"
#include "exec/chunks.hpp"
#include "ops/operators.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {
namespace {

// The results of a whole input, which its passes fill in: every segment starts empty.
class PassResults {
 public:
  explicit PassResults(const SegmentedPlan& p) : p_(p), size_(size_of(p.acc)) {
    r_.acc = p.acc;
    r_.plan = p;
    r_.values.resize(p.segments * size_);
    if (is_index_op(p.op)) r_.indices.assign(p.segments, kEmptySegmentIndex);
    // An empty segment's value: the identity; argmin/argmax: 0 (the bytes are zero already).
    if (!is_index_op(p.op)) {
      const Scalar id = identity(p.op, p.acc);
      for (std::uint64_t k = 0; k < p.segments; ++k)
        std::memcpy(r_.values.data() + k * size_, &id.bits, size_);  // little-endian
    }
  }

  // Piece j of a pass's result r, the part of segment k that starts `skip` elements into it
  // (0: the segment's first piece, which replaces the empty value).
  void add(std::uint64_t k, const SegmentedResult& r, std::uint64_t j, std::uint64_t skip) {
    unsigned char* to = r_.values.data() + k * size_;
    const unsigned char* from = r.values.data() + j * size_;
    const bool indexed = is_index_op(p_.op);
    if (skip == 0) {
      std::memcpy(to, from, size_);
      if (indexed) r_.indices[k] = moved(r.indices[j], skip);
      return;
    }
    visit_acc(p_.acc, [&](auto z) {
      using A = decltype(z);
      TypedState<A> a{A{}, indexed ? r_.indices[k] : 0}, b{A{}, 0};
      std::memcpy(&a.value, to, sizeof(A));
      std::memcpy(&b.value, from, sizeof(A));
      if (indexed) b.index = moved(r.indices[j], skip);
      const TypedState<A> c = combine_states<A>(p_.op, a, b);
      std::memcpy(to, &c.value, sizeof(A));
      if (indexed) r_.indices[k] = c.index;
    });
  }

  SegmentedResult take() { return std::move(r_); }

 private:
  static std::uint64_t moved(std::uint64_t index, std::uint64_t skip) {
    return index == kEmptySegmentIndex ? index : index + skip;
  }

  const SegmentedPlan& p_;
  std::size_t size_;
  SegmentedResult r_;
};

}  // namespace

PassInput::PassInput(Context& ctx, Type type, std::uint64_t chunk, std::uint64_t n,
                     const void* data)
    : impl_(impl_of(ctx)),
      type_(type),
      base_(static_cast<const unsigned char*>(data)),
      in_place_(reads_host_in_place(impl_.info)) {
  if (!in_place_) buf_ = device_buffer(impl_, byte_size(type, std::min(chunk, n)), "input pass");
}

BufferAt PassInput::load(std::uint64_t first, std::uint64_t count) {
  const unsigned char* at = base_ ? base_ + byte_size(type_, first) : nullptr;
  // In place: the previous pass's buffer goes (its run waited for its kernels).
  if (in_place_) return host_buffer(impl_, type_, at, count);
  write_host_input(impl_, buf_, at, byte_size(type_, count));
  return buf_;
}

namespace {

// p's form for one pass of n elements and `segments` results (axis form: length x inner).
SegmentedPlan pass_plan(const SegmentedPlan& p, std::uint64_t n, std::uint64_t segments,
                        std::uint64_t length, std::uint64_t inner) {
  SegmentedPlan q = p;
  q.n = n;
  q.segments = segments;
  q.length = length;
  q.inner = inner;
  q.chunk = std::max(n, std::uint64_t{1});
  return q;
}

}  // namespace

void for_each_pass(const SegmentedPlan& p, std::span<const std::uint64_t> offsets,
                   const std::function<void(const Pass&)>& visit) {
  Pass pass;
  if (p.by_offsets) {
    const std::uint64_t used = offsets.back();
    std::vector<std::uint64_t> local;
    for_each_chunk(used, p.chunk, [&](std::uint64_t c0, std::uint64_t len) {
      const std::uint64_t c1 = c0 + len;
      // Segments a .. b - 1 hold elements of [c0, c1): a is the last to start at or before c0
      // (offsets[0] = 0), b the first to start at or after c1; only a may start before c0.
      const std::uint64_t a =
          std::upper_bound(offsets.begin(), offsets.end(), c0) - offsets.begin() - 1;
      const std::uint64_t b =
          std::lower_bound(offsets.begin() + a, offsets.end(), c1) - offsets.begin();
      local.resize(b - a + 1);
      for (std::uint64_t k = a; k <= b; ++k)
        local[k - a] = std::clamp(offsets[k], c0, c1) - c0;
      pass.first = c0;
      pass.segment = a;
      pass.q = pass_plan(p, c1 - c0, b - a, (c1 - c0) / (b - a), 1);
      pass.offsets = local;
      pass.skip_first = c0 - offsets[a];
      pass.skip = 0;
      visit(pass);
    });
    return;
  }
  const std::uint64_t length = p.length, inner = p.inner, outer = p.segments / inner;
  const std::uint64_t slice = length * inner;  // <= n: no overflow
  if (slice <= p.chunk) {
    // Whole slices (outer indices) per pass: their results are the input's, in order.
    const std::uint64_t per = p.chunk / slice;
    for_each_chunk(outer, per, [&](std::uint64_t o0, std::uint64_t o) {
      pass.first = o0 * slice;
      pass.segment = o0 * inner;
      pass.q = pass_plan(p, o * slice, o * inner, length, inner);
      visit(pass);
    });
    return;
  }
  // A slice larger than a pass: `rows` rows of it per pass, or, where one row of `inner`
  // elements is larger still, a part of one row (a pass of length 1).
  const std::uint64_t rows = inner <= p.chunk ? p.chunk / inner : 1;
  const std::uint64_t cols = inner <= p.chunk ? inner : p.chunk;
  for (std::uint64_t o = 0; o < outer; ++o)
    for_each_chunk(length, rows, [&](std::uint64_t l0, std::uint64_t l) {
      for_each_chunk(inner, cols, [&](std::uint64_t j0, std::uint64_t c) {
        pass.first = o * slice + l0 * inner + j0;
        pass.segment = o * inner + j0;
        pass.q = pass_plan(p, l * c, c, l, c);
        pass.skip_first = pass.skip = l0;
        visit(pass);
      });
    });
}

SegmentedResult in_passes(Context& ctx, const SegmentedPlan& p, const void* data,
                          std::span<const std::uint64_t> offsets) {
  PassResults out(p);
  PassInput input(ctx, p.type, p.chunk, p.n, data);
  auto& impl = impl_of(ctx);
  for_each_pass(p, offsets, [&](const Pass& pass) {
    const BufferAt in = input.load(pass.first, pass.q.n);
    std::optional<cl::Buffer> off;
    if (p.by_offsets) off = host_offsets(impl, pass.offsets);
    const SegmentedResult r = run_to_host(ctx, pass.q, in, off ? &*off : nullptr);
    for (std::uint64_t j = 0; j < pass.q.segments; ++j)
      if (!p.by_offsets || pass.offsets[j] != pass.offsets[j + 1])  // else empty: as it was
        out.add(pass.segment + j, r, j, j == 0 ? pass.skip_first : pass.skip);
  });
  return out.take();
}

}  // namespace rdx::detail
