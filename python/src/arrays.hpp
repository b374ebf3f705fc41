// Host arrays (NumPy's, or any object nanobind reads as an n-dimensional array: the buffer
// protocol, DLPack) as librdx input, and librdx's results as Python objects.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdx/context.hpp"
#include "rdx/custom.hpp"
#include "rdx/errors.hpp"
#include "rdx/plan.hpp"
#include "rdx/types.hpp"
#include "rdx/view.hpp"

namespace rdxpy {

// Any host array, read-only, of any dtype, shape and strides.
using HostArray = nanobind::ndarray<nanobind::ro, nanobind::device::cpu>;

// One host array as librdx reads it: `view` addresses its elements from `base`, the lowest
// address any of them has (a negative stride walks back from the first element).
struct HostInput {
  rdx::Type type = rdx::Type::F32;
  const unsigned char* base = nullptr;
  rdx::View view;
  std::uint64_t count = 0;    // elements
  bool c_contiguous = false;  // the elements are one run in C order from base
};

// TypeError for a dtype librdx does not reduce; bool reads as u8 (0 or 1).
HostInput host_input(const HostArray& a);

// An array on the device (a PyOpenCL Array, or a Buffer with a dtype), read in place: `view`
// addresses its elements in `buffer` (view.offset: the first element's, in elements from the
// buffer's start). The Python layer (rdx/_device.py) makes it as rdx._rdx.DeviceArray.
struct DeviceInput {
  rdx::Type type = rdx::Type::F32;
  cl::Buffer buffer;
  rdx::View view;
  std::uint64_t count = 0;
  bool c_contiguous = false;
};

// mem: a cl_mem handle (PyOpenCL's int_ptr), retained here; type: librdx's name ("f32"; bool
// as "u8"); offset: the first element's, in elements; strides in elements (empty: C order).
DeviceInput device_input(std::uintptr_t mem, const std::string& type, std::uint64_t offset,
                         std::vector<std::uint64_t> shape, std::vector<std::int64_t> strides);

// The inputs of librdx's calls: the first element of a C-order run (whole reductions), or the
// origin that `view` counts from (the view and axis forms).
inline rdx::Array first_element(const HostInput& in) {
  return {in.type, in.base + in.view.offset * rdx::size_of(in.type)};
}
inline rdx::DeviceArray first_element(const DeviceInput& in) {
  return {in.type, in.buffer, in.view.offset};
}
// Inputs of a view form share one view. Host inputs: their own (equal) views, each from its own
// base. Device inputs (the same shape and strides): the view at the lowest of their offsets, each
// buffer read from its own offset's distance to it (DeviceArray::offset).
inline bool same_layout(const HostInput& a, const HostInput& first) {
  return a.view == first.view;
}
inline bool same_layout(const DeviceInput& a, const DeviceInput& first) {
  return a.view.shape == first.view.shape && a.view.strides == first.view.strides;
}
// The axes a call reduces: `axes`, else every axis of v (a whole array that is not one C-order
// run: the view form, one result).
inline std::vector<std::int64_t> axes_or_every(const std::optional<std::vector<std::int64_t>>& axes,
                                               const rdx::View& v) {
  if (axes) return *axes;
  std::vector<std::int64_t> all(v.shape.size());
  for (std::size_t k = 0; k < all.size(); ++k)
    all[k] = static_cast<std::int64_t>(k);
  return all;
}
// Several arrays as the core's inputs: host arrays described (host_input), device ones as they are.
inline std::vector<HostInput> inputs_of(const std::vector<HostArray>& arrays) {
  std::vector<HostInput> in;
  for (const HostArray& a : arrays)
    in.push_back(host_input(a));
  return in;
}
inline const std::vector<DeviceInput>& inputs_of(const std::vector<DeviceInput>& arrays) {
  return arrays;
}
// ArgumentError unless the inputs of one view-form call share their layout (same_layout).
template <class Input>
void check_one_layout(const std::vector<Input>& in) {
  for (const Input& x : in)
    if (!same_layout(x, in.at(0)))
      throw rdx::ArgumentError("the arrays differ in strides: one view reads them all");
}
inline rdx::View common_view(const std::vector<HostInput>& in) {
  return in.at(0).view;
}
inline rdx::View common_view(const std::vector<DeviceInput>& in) {
  rdx::View v = in.at(0).view;
  for (const DeviceInput& d : in)
    v.offset = std::min(v.offset, d.view.offset);
  return v;
}
inline rdx::Array view_origin(const HostInput& in, std::uint64_t) {
  return {in.type, in.base};
}
inline rdx::DeviceArray view_origin(const DeviceInput& in, std::uint64_t view_offset) {
  return {in.type, in.buffer, in.view.offset - view_offset};
}

// Segment offsets (uint64, C order), as the Python layer makes them.
using Offsets = nanobind::ndarray<const std::uint64_t, nanobind::ndim<1>, nanobind::c_contig,
                                  nanobind::device::cpu>;

// axes: nullopt for every axis (a whole reduction), else the axes to reduce (NumPy's, already
// normalized by the Python layer).
using Axes = std::optional<std::vector<std::int64_t>>;

// Options from the Python layer's strings: acc "" (the default) or a type name; determinism
// "run_to_run", "any_device" or "exact".
rdx::Options options_of(const std::string& acc, const std::string& determinism);

// A whole reduction's value: an int (integer types) or a float (the float types).
nanobind::object scalar_object(const rdx::Scalar& s);
// An index as an int, or None.
nanobind::object index_object(std::optional<std::uint64_t> i);

// `bytes` (values of type t, in C order) as a NumPy array of that shape; bf16, which NumPy has
// no dtype for, becomes float32 (exact).
nanobind::object numpy_of(rdx::Type t, std::vector<unsigned char>&& bytes,
                          const std::vector<std::uint64_t>& shape);
// Indexes as an int64 NumPy array (NumPy's intp).
nanobind::object numpy_of(std::vector<std::uint64_t>&& indexes,
                          const std::vector<std::uint64_t>& shape);

}  // namespace rdxpy
