// rdx._rdx.reduce_custom and reduce_segments_custom: users' reductions (rdx/custom.hpp), one field
// of a librdx type: a built-in operator over a map (Reduction::transform) or a map, a combine and
// an identity (Reduction::simple), over one to four arrays (all host arrays or all device arrays)
// whole, over some axes, or per segment.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "context.hpp"
#include "rdx/custom.hpp"
#include "rdx/segmented_custom.hpp"
#include "unlocked.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

// The reduction's definition as the Python layer passes it: op "" for map/combine/identity.
struct Definition {
  std::string op, type, map, combine, identity, name;
};

rdx::Reduction reduction_of(const Definition& d) {
  const rdx::Type t = rdx::parse_type(d.type);
  std::string map = d.map.empty() ? std::string("x") : d.map;
  rdx::Reduction r = d.op.empty()
                         ? rdx::Reduction::simple(t, d.combine, d.identity, std::move(map))
                         : rdx::Reduction::transform(rdx::parse_op(d.op), t, std::move(map));
  if (!d.name.empty()) r.name = d.name;
  return r;
}

std::vector<rdx::Array> firsts(const std::vector<HostInput>& in) {
  std::vector<rdx::Array> out;
  for (const HostInput& h : in)
    out.push_back(first_element(h));
  return out;
}
std::vector<rdx::DeviceArray> firsts(const std::vector<DeviceInput>& in) {
  std::vector<rdx::DeviceArray> out;
  for (const DeviceInput& d : in)
    out.push_back(first_element(d));
  return out;
}
template <class In>
auto origins(const std::vector<In>& in, std::uint64_t view_offset) {
  std::vector<decltype(view_origin(in[0], 0))> out;
  for (const In& x : in)
    out.push_back(view_origin(x, view_offset));
  return out;
}

template <class In>
void check_inputs(const std::vector<In>& in) {
  if (in.empty() || in.size() > 4)
    throw rdx::ArgumentError("a reduction reads one to four arrays, not " +
                             std::to_string(in.size()));
  for (const In& x : in)
    if (x.view.shape != in[0].view.shape) throw rdx::ArgumentError("the arrays differ in shape");
}

// Whole (axes None): the final state's value as a Python number. Axes: a NumPy array of the
// reduced shape.
template <class A>
nb::object reduce_custom(PyContext& c, const std::vector<A>& arrays, const Definition& def,
                         const Axes& axes, const std::string& determinism) {
  const auto& in = inputs_of(arrays);
  check_inputs(in);
  const rdx::Reduction r = reduction_of(def);
  const rdx::Options opts = options_of("", determinism);
  bool contiguous = true;
  for (const auto& x : in)
    contiguous = contiguous && x.c_contiguous;
  if (!axes && contiguous) {
    const auto inputs = firsts(in);
    rdx::StateResult s;
    {
      Unlocked unlocked;
      s = rdx::reduce(c.ctx, r, std::span(inputs), in[0].count, opts);
    }
    return scalar_object(s.fields.at(0));
  }
  check_one_layout(in);
  const std::vector<std::int64_t> over = axes_or_every(axes, in[0].view);
  const rdx::View view = common_view(in);
  const auto inputs = origins(in, view.offset);
  rdx::SegmentedStates s;
  {
    Unlocked unlocked;
    s = rdx::reduce_axes(c.ctx, r, std::span(inputs), view, over, opts);
  }
  if (!axes) return scalar_object(s.value(0, 0));
  return numpy_of(s.types.at(0), std::move(s.fields.at(0)),
                  rdx::reduced_shape(in[0].view.shape, over));
}

// One value per segment of 1-D contiguous arrays, as a NumPy array.
template <class A>
nb::object reduce_segments_custom(PyContext& c, const std::vector<A>& arrays, Offsets offsets,
                                  const Definition& def, const std::string& determinism) {
  const auto& in = inputs_of(arrays);
  check_inputs(in);
  for (const auto& x : in)
    if (x.view.shape.size() != 1 || !x.c_contiguous)
      throw rdx::ArgumentError("reduce_segments: 1-D arrays of contiguous elements");
  const rdx::Reduction r = reduction_of(def);
  const rdx::Options opts = options_of("", determinism);
  const auto inputs = firsts(in);
  rdx::SegmentedStates s;
  {
    Unlocked unlocked;
    s = rdx::reduce_segments(c.ctx, r, std::span(inputs), in[0].count,
                             {offsets.data(), offsets.shape(0)}, opts);
  }
  const std::uint64_t n = s.size();
  return numpy_of(s.types.at(0), std::move(s.fields.at(0)), {n});
}

}  // namespace

void register_reduce_custom(nb::module_& m) {
  nb::class_<Definition>(m, "Definition",
                         "A user's reduction of one field: op (a built-in operator over map) or "
                         "map, combine and identity; type is the field's (librdx's name).")
      .def(nb::init<std::string, std::string, std::string, std::string, std::string, std::string>(),
           nb::arg("op"), nb::arg("type"), nb::arg("map"), nb::arg("combine"), nb::arg("identity"),
           nb::arg("name"))
      .def_ro("op", &Definition::op)
      .def_ro("type", &Definition::type)
      .def_ro("map", &Definition::map)
      .def_ro("combine", &Definition::combine)
      .def_ro("identity", &Definition::identity)
      .def_ro("name", &Definition::name);
  const char* doc =
      "A user's reduction over whole arrays (axes None) or over the given axes (normalized, "
      "increasing).";
  m.def("reduce_custom", &reduce_custom<DeviceInput>, nb::arg("context"), nb::arg("arrays"),
        nb::arg("definition"), nb::arg("axes").none(), nb::arg("determinism"), doc);
  m.def("reduce_custom", &reduce_custom<HostArray>, nb::arg("context"), nb::arg("arrays"),
        nb::arg("definition"), nb::arg("axes").none(), nb::arg("determinism"), doc);
  const char* seg_doc = "A user's reduction over each segment of 1-D contiguous arrays.";
  m.def("reduce_segments_custom", &reduce_segments_custom<DeviceInput>, nb::arg("context"),
        nb::arg("arrays"), nb::arg("offsets"), nb::arg("definition"), nb::arg("determinism"),
        seg_doc);
  m.def("reduce_segments_custom", &reduce_segments_custom<HostArray>, nb::arg("context"),
        nb::arg("arrays"), nb::arg("offsets"), nb::arg("definition"), nb::arg("determinism"),
        seg_doc);
}

}  // namespace rdxpy
