// `clrdx reduce --axis K` (along one axis of an N-D .npy) and `--segments OFFSETS` (one result
// per segment): the results printed one per line, or written to --output as a .npy file.
#include <fmt/format.h>

#include <iostream>

#include "commands.hpp"
#include "core/files.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "rdx/rdx.hpp"
#include "whole_input.hpp"

namespace clrdx {
namespace {

// The offsets of --segments: a 1-D .npy of 64-bit integers (NumPy's int64 or uint64), or raw
// little-endian u64. Negative int64 offsets are refused here; the library checks the rest.
std::vector<std::uint64_t> load_offsets(const std::string& path) {
  // Opened once, so a pipe works: a .npy file's dtype as it is, a raw file as u64.
  const Loaded l = load_file(path, rdx::Type::U64, /*raw_default=*/true);
  if (l.type != rdx::Type::I64 && l.type != rdx::Type::U64)
    throw rdx::ArgumentError(
        fmt::format("--segments {}: offsets are 64-bit integers (int64 or uint64), not {}", path,
                    rdx::name(l.type)));
  if (l.shape.size() != 1)
    throw rdx::ArgumentError(
        fmt::format("--segments {}: offsets are a 1-D array, not {}-D", path, l.shape.size()));
  std::vector<std::uint64_t> off(l.count());
  if (!off.empty()) std::memcpy(off.data(), l.data(), off.size() * 8);
  if (l.type == rdx::Type::I64)
    for (std::size_t k = 0; k < off.size(); ++k)
      if (static_cast<std::int64_t>(off[k]) < 0)
        throw rdx::ArgumentError(fmt::format("--segments {}: offset {} is negative ({})", path, k,
                                             static_cast<std::int64_t>(off[k])));
  return off;
}

std::string index_text(std::uint64_t i) {
  return i == rdx::kEmptySegmentIndex ? "none" : std::to_string(i);
}

}  // namespace

int cmd_reduce_segmented(const ReduceArgs& a, const ReduceRequest& req) {
  const Loaded in = load_file(a.input, req.type);
  std::vector<std::uint64_t> out_shape;
  std::vector<std::uint64_t> offsets;
  if (!a.segments.empty()) {
    offsets = load_offsets(a.segments);
    if (offsets.empty())
      throw rdx::ArgumentError(fmt::format(
          "--segments {}: no offsets (segments + 1 are needed, the first 0)", a.segments));
    out_shape = {offsets.size() - 1};
  } else {
    if (*a.axis >= in.shape.size())
      throw rdx::ArgumentError(fmt::format("--axis {}: {} has {} dimension{}", *a.axis, a.input,
                                           in.shape.size(), in.shape.size() == 1 ? "" : "s"));
    out_shape = in.shape;
    out_shape.erase(out_shape.begin() + static_cast<std::ptrdiff_t>(*a.axis));
  }

  rdx::Context ctx(a.device);
  const rdx::SegmentedResult r =
      a.segments.empty()
          ? rdx::reduce_axis(ctx, in.type, in.data(), in.shape, *a.axis, req.op, req.opts)
          : rdx::reduce_segments(ctx, in.type, in.data(), in.count(), offsets, req.op, req.opts);
  const bool indexed = rdx::is_index_op(req.op);

  if (!a.output.empty()) {
    // argmin/argmax: the indices, as NumPy's argmin(axis) gives them (empty segments: 2^64 - 1).
    rdx::detail::write_file_atomically(
        a.output, indexed ? npy_bytes(rdx::Type::U64, out_shape, r.indices.data())
                          : npy_bytes(r.acc, out_shape, r.values.data()));
  }
  if (a.json) {
    nlohmann::json values = nlohmann::json::array(), indices = nlohmann::json::array();
    for (std::uint64_t k = 0; k < r.size(); ++k) {
      values.push_back(to_json(r.value(k)));
      if (indexed)
        indices.push_back(r.indices[k] == rdx::kEmptySegmentIndex ? nlohmann::json(nullptr)
                                                                  : nlohmann::json(r.indices[k]));
    }
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"type", std::string(rdx::name(in.type))},
                        {"acc", std::string(rdx::name(r.acc))},
                        {"op", std::string(rdx::name(req.op))},
                        {"count", in.count()},
                        {"shape", out_shape},
                        {"plan", r.plan.describe()}};
    if (a.output.empty()) {
      j["results"] = values;
      if (indexed) j["indices"] = indices;
    } else {
      j["output"] = a.output;
    }
    std::cout << j.dump() << "\n";
  } else if (a.output.empty()) {
    std::string text;
    for (std::uint64_t k = 0; k < r.size(); ++k)
      text += indexed ? fmt::format("{} {}\n", r.value(k).to_string(), index_text(r.indices[k]))
                      : r.value(k).to_string() + "\n";
    std::cout << text;
  }
  return 0;
}

}  // namespace clrdx
