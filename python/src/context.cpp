// rdx._rdx.Context and rdx._rdx.devices(): devices as dictionaries of their facts, which the
// Python layer (rdx/_devices.py) presents; a Context over an app's own OpenCL handles (PyOpenCL's
// int_ptr values), and rdx._rdx.DeviceArray, a device array read in place (arrays.hpp).
#include "context.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <new>
#include <tuple>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rdx/device_info.hpp"
#include "rdx/errors.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

nb::dict facts(const rdx::DeviceInfo& d) {
  nb::dict f;
  f["index"] = d.index;
  f["selector"] = std::to_string(d.platform_index) + ":" + std::to_string(d.device_index);
  f["name"] = d.name;
  f["platform"] = d.platform;
  f["vendor"] = d.vendor;
  f["version"] = d.version;
  f["driver"] = d.driver;
  f["kind"] = std::string(rdx::name(d.kind));
  f["compute_units"] = d.compute_units;
  f["max_work_group"] = d.max_work_group;
  f["global_mem"] = d.global_mem;
  f["local_mem"] = d.local_mem;
  f["max_alloc"] = d.max_alloc;
  f["fp64"] = d.fp64;
  return f;
}

}  // namespace

void register_context(nb::module_& m) {
  nb::class_<PyContext>(m, "Context",
                        "One OpenCL device, its in-order queue and its cache of built programs. "
                        "Safe to share between threads.")
      .def(
          "__init__",
          [](PyContext* self, const std::string& selector) {
            nb::gil_scoped_release unlocked;
            new (self) PyContext{selector, rdx::Context(selector)};
          },
          nb::arg("selector") = "",
          "selector: '' (RDX_DEVICE, else the first GPU, else the first device), 'cpu', 'gpu', "
          "an index, 'P:D', or part of a device's or platform's name.")
      .def(
          "__init__",
          [](PyContext* self, std::uintptr_t context, std::uintptr_t device, std::uintptr_t queue,
             const std::string& label) {
            if (!context || !device || !queue)
              throw rdx::ArgumentError("Context: a null OpenCL handle");
            nb::gil_scoped_release unlocked;
            new (self)
                PyContext{label, rdx::Context::wrap(reinterpret_cast<cl_context>(context),
                                                    reinterpret_cast<cl_device_id>(device),
                                                    reinterpret_cast<cl_command_queue>(queue))};
          },
          nb::arg("context"), nb::arg("device"), nb::arg("queue"), nb::arg("label"),
          "An app's own cl_context, cl_device_id and in-order cl_command_queue (their addresses, "
          "as PyOpenCL's int_ptr), retained.")
      .def_ro("selector", &PyContext::selector)
      .def(
          "cl_handles",
          [](const PyContext& c) {
            return std::make_tuple(reinterpret_cast<std::uintptr_t>(c.ctx.cl_context()()),
                                   reinterpret_cast<std::uintptr_t>(c.ctx.cl_device()()),
                                   reinterpret_cast<std::uintptr_t>(c.ctx.queue()()));
          },
          "(cl_context, cl_device_id, cl_command_queue) as integers, PyOpenCL's int_ptr form.")
      .def("device_facts", [](const PyContext& c) { return facts(c.ctx.device_info()); });

  nb::class_<DeviceInput>(m, "DeviceArray",
                          "A device array read in place: a cl_mem handle (retained), librdx's "
                          "type name, the first element's offset, the shape and strides in "
                          "elements.")
      .def(
          "__init__",
          [](DeviceInput* self, std::uintptr_t mem, const std::string& type, std::uint64_t offset,
             std::vector<std::uint64_t> shape, std::vector<std::int64_t> strides) {
            if (!mem) throw rdx::ArgumentError("DeviceArray: a null cl_mem");
            new (self)
                DeviceInput(device_input(mem, type, offset, std::move(shape), std::move(strides)));
          },
          nb::arg("mem"), nb::arg("type"), nb::arg("offset"), nb::arg("shape"), nb::arg("strides"))
      .def_prop_ro("count", [](const DeviceInput& d) { return d.count; })
      .def_prop_ro("c_contiguous", [](const DeviceInput& d) { return d.c_contiguous; });

  m.def("devices", [] {
    std::vector<rdx::DeviceInfo> all;
    {
      nb::gil_scoped_release unlocked;
      all = rdx::list_devices();
    }
    nb::list out;
    for (const rdx::DeviceInfo& d : all)
      out.append(facts(d));
    return out;
  });
}

}  // namespace rdxpy
