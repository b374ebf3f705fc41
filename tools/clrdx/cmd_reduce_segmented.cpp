// `clrdx reduce --axis K[,K...]` (over axes of an N-D .npy) and `--segments OFFSETS` (one result
// per segment): the results printed one per line, or written to --output as a .npy file.
#include <fmt/ranges.h>
#include "core/format.hpp"
#include "core/text.hpp"

#include <cstring>
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
        rdx::detail::format("--segments {}: offsets are 64-bit integers (int64 or uint64), not {}",
                            rdx::detail::printable(path), rdx::name(l.type)));
  if (l.shape.size() != 1)
    throw rdx::ArgumentError(rdx::detail::format("--segments {}: offsets are a 1-D array, not {}-D",
                                                 rdx::detail::printable(path), l.shape.size()));
  std::vector<std::uint64_t> off(l.count());
  if (!off.empty()) std::memcpy(off.data(), l.data(), off.size() * 8);
  if (l.type == rdx::Type::I64)
    for (std::size_t k = 0; k < off.size(); ++k)
      if (static_cast<std::int64_t>(off[k]) < 0)
        throw rdx::ArgumentError(rdx::detail::format("--segments {}: offset {} is negative ({})",
                                                     rdx::detail::printable(path), k,
                                                     static_cast<std::int64_t>(off[k])));
  return off;
}

// --axis as NumPy takes it: -1 is the last of `dims` axes, each axis once.
void check_axes(const std::vector<std::int64_t>& axes, std::size_t dims, const std::string& path) {
  const auto d = static_cast<std::int64_t>(dims);
  for (std::int64_t axis : axes)
    if (axis < -d || axis >= d)
      throw rdx::ArgumentError(rdx::detail::format("--axis {}: {} has {} dimension{} (axes {}..{})",
                                                   axis, rdx::detail::printable(path), dims,
                                                   dims == 1 ? "" : "s", -d, d - 1));
  try {
    rdx::normalized_axes(axes, dims);
  } catch (const rdx::ArgumentError& e) {
    throw rdx::ArgumentError(rdx::detail::format("--axis {}: {}", fmt::join(axes, ","), e.what()));
  }
}

std::string index_text(std::uint64_t i) {
  return i == rdx::kEmptySegmentIndex ? "none" : std::to_string(i);
}

// What a segmented request gives, whatever computed it: one value per segment, and for
// argmin/argmax and minmax their indexes; minmax also its maxima.
struct Results {
  rdx::Type type = rdx::Type::F32;
  const unsigned char* values = nullptr;
  const std::uint64_t* indices = nullptr;     // argmin/argmax, minmax
  const unsigned char* max_values = nullptr;  // minmax
  const std::uint64_t* max_indices = nullptr;
  std::uint64_t size = 0;
  std::string plan;

  rdx::Scalar value(const unsigned char* v, std::uint64_t k) const {
    return rdx::Scalar::from_bytes(type, v + k * rdx::size_of(type));
  }
};

}  // namespace

int cmd_reduce_segmented(const ReduceArgs& a, const ReduceRequest& req) {
  const std::vector<Loaded> in = load_inputs(a, req);
  const std::vector<rdx::Array> arrays = arrays_of(in);
  std::vector<std::uint64_t> out_shape;
  std::vector<std::uint64_t> offsets;
  if (!a.segments.empty()) {
    offsets = load_offsets(a.segments);
    if (offsets.empty())
      throw rdx::ArgumentError(
          rdx::detail::format("--segments {}: no offsets (segments + 1 are needed, the first 0)",
                              rdx::detail::printable(a.segments)));
    out_shape = {offsets.size() - 1};
  } else {
    check_axes(a.axis, in[0].shape.size(), a.input);
    out_shape = rdx::reduced_shape(in[0].shape, a.axis);
  }
  const rdx::View view = rdx::View::contiguous(in[0].shape);
  const std::uint64_t n = in[0].count();
  const bool by_axis = a.segments.empty();

  rdx::Context ctx(a.device);
  // One of the three forms; `r` points into whichever ran.
  Results r;
  rdx::SegmentedResult builtin;
  rdx::SegmentedStats stats;
  rdx::SegmentedStates states;
  std::string what;
  if (req.stat) {
    stats = by_axis ? rdx::reduce_axes(ctx, *req.stat, arrays, view, a.axis, req.opts, a.map)
                    : rdx::reduce_segments(ctx, *req.stat, arrays, n, offsets, req.opts, a.map);
    r = {stats.type,   stats.values.data(),  nullptr, nullptr, nullptr,
         stats.size(), stats.plan.describe()};
    if (*req.stat == rdx::Stat::MinMax) {
      r.indices = stats.indices.data();
      r.max_values = stats.max_values.data();
      r.max_indices = stats.max_indices.data();
    }
    what = rdx::name(*req.stat);
  } else if (req.custom || !a.map.empty()) {
    const rdx::Reduction red = reduction_of(a, req, in[0].type);
    rdx::Options opts = req.opts;
    opts.acc.reset();  // --acc is the reduction's field type (reduction_of)
    states = by_axis ? rdx::reduce_axes(ctx, red, arrays, view, a.axis, opts)
                     : rdx::reduce_segments(ctx, red, arrays, n, offsets, opts);
    r = {states.types[0], states.fields[0].data(), nullptr, nullptr, nullptr,
         states.size(),   states.plan.describe()};
    what = req.custom ? "custom" : std::string(rdx::name(req.op));
  } else {  // one input: validate_reduce refuses --input2.. that nothing reads
    builtin =
        by_axis ? rdx::reduce_axes(ctx, in[0].type, in[0].data(), view, a.axis, req.op, req.opts)
                : rdx::reduce_segments(ctx, in[0].type, in[0].data(), n, offsets, req.op, req.opts);
    r = {builtin.acc,    builtin.values.data(),  nullptr, nullptr, nullptr,
         builtin.size(), builtin.plan.describe()};
    if (rdx::is_index_op(req.op)) r.indices = builtin.indices.data();
    what = rdx::name(req.op);
  }

  const bool logical = req.stat && rdx::is_logical(*req.stat);  // any, all: bools
  if (!a.output.empty()) {
    // argmin/argmax: the indices, as NumPy's argmin(axis) gives them (empty segments: 2^64 - 1);
    // minmax: the minima and maxima, one more axis of 2, and in --output-indices their indexes.
    // Chosen by the request, not by the results: no results keep their dtype and shape.
    const bool index_op = !req.stat && !req.custom && a.map.empty() && rdx::is_index_op(req.op);
    const bool minmax = req.stat == rdx::Stat::MinMax;
    std::vector<std::uint64_t> pair_shape = out_shape;
    pair_shape.push_back(2);
    const auto pairs = [&](const void* first, const void* second, std::size_t size) {
      std::vector<unsigned char> out(r.size * 2 * size);
      for (std::uint64_t k = 0; k < r.size; ++k) {
        std::memcpy(out.data() + 2 * k * size, static_cast<const char*>(first) + k * size, size);
        std::memcpy(out.data() + (2 * k + 1) * size, static_cast<const char*>(second) + k * size,
                    size);
      }
      return out;
    };
    std::string bytes, index_bytes;
    if (index_op) {
      bytes = npy_bytes(rdx::Type::U64, out_shape, r.indices);
    } else if (minmax) {
      bytes =
          npy_bytes(r.type, pair_shape, pairs(r.values, r.max_values, rdx::size_of(r.type)).data());
      index_bytes =
          npy_bytes(rdx::Type::U64, pair_shape, pairs(r.indices, r.max_indices, 8).data());
    } else {
      bytes = npy_bytes(r.type, out_shape, r.values, logical);
    }
    rdx::detail::write_file_atomically(a.output, bytes);
    if (!a.output_indices.empty())
      rdx::detail::write_file_atomically(a.output_indices, index_bytes);
  }
  const auto index_json = [](std::uint64_t i) {
    return i == rdx::kEmptySegmentIndex ? nlohmann::json(nullptr) : nlohmann::json(i);
  };
  if (a.json) {
    nlohmann::json values = nlohmann::json::array(), indices = nlohmann::json::array(),
                   maxima = nlohmann::json::array(), max_indices = nlohmann::json::array();
    for (std::uint64_t k = 0; k < r.size; ++k) {
      values.push_back(to_json(r.value(r.values, k), logical));
      if (r.indices) indices.push_back(index_json(r.indices[k]));
      if (r.max_values) {
        maxima.push_back(to_json(r.value(r.max_values, k)));
        max_indices.push_back(index_json(r.max_indices[k]));
      }
    }
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"type", std::string(rdx::name(in[0].type))},
                        {"acc", logical ? std::string("bool")
                                        : std::string(rdx::name(req.stat == rdx::Stat::MinMax
                                                                    ? rdx::computed_type(r.type)
                                                                    : r.type))},
                        {"op", what},
                        {"count", n},
                        {"shape", out_shape},
                        {"plan", r.plan}};
    if (!a.map.empty()) j["map"] = a.map;
    if (a.output.empty()) {
      j["results"] = values;
      if (r.indices) j["indices"] = indices;
      if (r.max_values) {
        j["max"] = maxima;
        j["max_indices"] = max_indices;
      }
    } else {
      j["output"] = a.output;
      if (!a.output_indices.empty()) j["output_indices"] = a.output_indices;
    }
    std::cout << j.dump() << "\n";
  } else if (a.output.empty()) {
    std::string text;
    for (std::uint64_t k = 0; k < r.size; ++k) {
      text += to_text(r.value(r.values, k), logical);
      if (r.indices) text += " " + index_text(r.indices[k]);
      if (r.max_values)
        text += " " + r.value(r.max_values, k).to_string() + " " + index_text(r.max_indices[k]);
      text += "\n";
    }
    std::cout << text;
  }
  return 0;
}

}  // namespace clrdx
