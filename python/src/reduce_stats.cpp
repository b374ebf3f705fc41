// rdx._rdx.reduce_stat: librdx's composites (mean, var, std, norm2, dot, count, any, all,
// minmax and the nan* sums, products, means and variances) over one or two arrays (host arrays,
// or device arrays on their own context), whole or over some of their axes, read in place.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "context.hpp"
#include "rdx/segmented_custom.hpp"
#include "rdx/stats.hpp"
#include "unlocked.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

rdx::Stat stat_of(const std::string& name) {
  if (const auto s = rdx::find_stat(name)) return *s;
  throw rdx::ArgumentError("unknown statistic '" + name + "'");
}

rdx::StatResult whole(rdx::Context& ctx, rdx::Stat stat, const std::vector<HostInput>& in,
                      const rdx::Options& opts, const std::string& map) {
  std::vector<rdx::Array> inputs;
  for (const HostInput& h : in)
    inputs.push_back(first_element(h));
  return rdx::reduce(ctx, stat, inputs, in[0].count, opts, map);
}
rdx::StatResult whole(rdx::Context& ctx, rdx::Stat stat, const std::vector<DeviceInput>& in,
                      const rdx::Options& opts, const std::string& map) {
  std::vector<rdx::DeviceArray> inputs;
  for (const DeviceInput& d : in)
    inputs.push_back(first_element(d));
  return rdx::reduce(ctx, stat, inputs, in[0].count, opts, map);
}
template <class In>
rdx::SegmentedStats over_axes(rdx::Context& ctx, rdx::Stat stat, const std::vector<In>& in,
                              const std::vector<std::int64_t>& over, const rdx::Options& opts,
                              const std::string& map) {
  const rdx::View view = common_view(in);
  std::vector<decltype(view_origin(in[0], 0))> inputs;
  for (const In& x : in)
    inputs.push_back(view_origin(x, view.offset));
  return rdx::reduce_axes(ctx, stat, inputs, view, over, opts, map);
}

// Whole: (value, index, max, max_index) as Python numbers or None. Axes: the same as NumPy
// arrays of the reduced shape.
template <class A>
nb::tuple reduce_stat(PyContext& c, const std::vector<A>& arrays, const std::string& stat_name,
                      const Axes& axes, const std::string& acc, const std::string& determinism,
                      const std::string& map) {
  const rdx::Stat stat = stat_of(stat_name);
  const auto& in = inputs_of(arrays);
  if (in.size() != rdx::input_count(stat))
    throw rdx::ArgumentError(std::string(rdx::name(stat)) + " takes " +
                             std::to_string(rdx::input_count(stat)) + " array(s)");
  bool contiguous = true;
  for (const auto& h : in) {
    contiguous = contiguous && h.c_contiguous;
    if (h.view.shape != in[0].view.shape) throw rdx::ArgumentError("the arrays differ in shape");
  }
  const rdx::Options opts = options_of(acc, determinism);
  if (!axes && contiguous) {
    rdx::StatResult r;
    {
      Unlocked unlocked;
      r = whole(c.ctx, stat, in, opts, map);
    }
    return nb::make_tuple(scalar_object(r.value), index_object(r.index),
                          r.max ? scalar_object(*r.max) : nb::none(), index_object(r.max_index));
  }
  check_one_layout(in);
  const std::vector<std::int64_t> over = axes_or_every(axes, in[0].view);
  rdx::SegmentedStats r;
  {
    Unlocked unlocked;
    r = over_axes(c.ctx, stat, in, over, opts, map);
  }
  const bool minmax = stat == rdx::Stat::MinMax;
  if (!axes)
    return nb::make_tuple(scalar_object(r.value(0)),
                          index_object(minmax ? std::optional(r.indices[0]) : std::nullopt),
                          minmax ? scalar_object(r.max(0)) : nb::none(),
                          index_object(minmax ? std::optional(r.max_indices[0]) : std::nullopt));
  const std::vector<std::uint64_t> shape = rdx::reduced_shape(in[0].view.shape, over);
  nb::object values = numpy_of(r.type, std::move(r.values), shape);
  if (!minmax) return nb::make_tuple(values, nb::none(), nb::none(), nb::none());
  nb::object maxima = numpy_of(r.type, std::move(r.max_values), shape);
  return nb::make_tuple(values, numpy_of(std::move(r.indices), shape), maxima,
                        numpy_of(std::move(r.max_indices), shape));
}

// The types (librdx's names) of a composite's results per slice of inputs of `types` on c's
// device (rdx::stat_result_types): what reduce_stat_into's outputs hold.
std::vector<std::string> stat_types(PyContext& c, const std::string& stat_name,
                                    const std::vector<std::string>& types, const std::string& acc,
                                    const std::string& determinism) {
  std::vector<rdx::Type> in;
  for (const std::string& t : types)
    in.push_back(rdx::parse_type(t));
  std::vector<std::string> r;
  for (rdx::Type t : rdx::stat_result_types(c.ctx.device_info(), stat_of(stat_name), in,
                                            options_of(acc, determinism)))
    r.emplace_back(rdx::name(t));
  return r;
}

// A composite over the given axes (normalized, increasing; not all) of device arrays, the
// results left on the device: outputs, fresh arrays of stat_types' types at offset 0, one result
// per slice in C order of the kept axes (minmax: minima, their indexes, maxima, theirs).
void reduce_stat_into(PyContext& c, const std::vector<DeviceInput>& arrays,
                      const std::string& stat_name, const std::vector<std::int64_t>& over,
                      const std::string& acc, const std::string& determinism,
                      const std::string& map, const std::vector<DeviceInput>& outputs) {
  const rdx::Stat stat = stat_of(stat_name);
  if (arrays.size() != rdx::input_count(stat))
    throw rdx::ArgumentError(std::string(rdx::name(stat)) + " takes " +
                             std::to_string(rdx::input_count(stat)) + " array(s)");
  for (const DeviceInput& a : arrays)
    if (a.view.shape != arrays[0].view.shape)
      throw rdx::ArgumentError("the arrays differ in shape");
  check_one_layout(arrays);
  std::vector<cl::Buffer> out;
  for (const DeviceInput& o : outputs) {
    if (o.view.offset != 0) throw rdx::ArgumentError("reduce_stat_into: each output at offset 0");
    out.push_back(o.buffer);
  }
  const rdx::View view = common_view(arrays);
  std::vector<rdx::DeviceArray> inputs;
  for (const DeviceInput& x : arrays)
    inputs.push_back(view_origin(x, view.offset));
  const rdx::Options opts = options_of(acc, determinism);
  Unlocked unlocked;
  rdx::reduce_axes_into(c.ctx, stat, inputs, view, over, out, opts, map);
}

}  // namespace

void register_reduce_stats(nb::module_& m) {
  const char* doc =
      "A composite over whole arrays (axes None) or over the given axes (normalized, "
      "increasing); map: count's, any's and all's predicate.";
  m.def("reduce_stat", &reduce_stat<DeviceInput>, nb::arg("context"), nb::arg("arrays"),
        nb::arg("stat"), nb::arg("axes").none(), nb::arg("acc"), nb::arg("determinism"),
        nb::arg("map") = "", doc);
  m.def("reduce_stat", &reduce_stat<HostArray>, nb::arg("context"), nb::arg("arrays"),
        nb::arg("stat"), nb::arg("axes").none(), nb::arg("acc"), nb::arg("determinism"),
        nb::arg("map") = "", doc);
  m.def("stat_types", &stat_types, nb::arg("context"), nb::arg("stat"), nb::arg("types"),
        nb::arg("acc"), nb::arg("determinism"),
        "The types of a composite's results per slice: what reduce_stat_into's outputs hold.");
  m.def("reduce_stat_into", &reduce_stat_into, nb::arg("context"), nb::arg("arrays"),
        nb::arg("stat"), nb::arg("axes"), nb::arg("acc"), nb::arg("determinism"), nb::arg("map"),
        nb::arg("outputs"),
        "A composite over the given axes (normalized, increasing; not all) of device arrays, "
        "the results into outputs (fresh device arrays of stat_types' types at offset 0).");
}

}  // namespace rdxpy
