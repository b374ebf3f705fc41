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
#include <string>
#include <tuple>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "rdx/device_info.hpp"
#include "rdx/errors.hpp"
#include "unlocked.hpp"

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

struct Handles {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue queue = nullptr;
};

template <typename T>
T queue_info(cl_command_queue queue, cl_command_queue_info what, const char* name) {
  T value{};
  const cl_int err = clGetCommandQueueInfo(queue, what, sizeof value, &value, nullptr);
  if (err != CL_SUCCESS)
    throw rdx::ArgumentError(std::string("Context: clGetCommandQueueInfo(") + name +
                             ") of the PyOpenCL queue failed (error " + std::to_string(err) + ")");
  return value;
}

// The handles of a pyopencl.CommandQueue: its cl_command_queue (PyOpenCL's int_ptr), and the
// context and device the queue itself names. Anything but a PyOpenCL queue is a TypeError, so
// no made-up address reaches OpenCL (which would dereference it).
Handles pyopencl_handles(nb::handle queue) {
  nb::object cl = nb::module_::import_("sys").attr("modules").attr("get")("pyopencl");
  if (cl.is_none() || !PyObject_IsInstance(queue.ptr(), cl.attr("CommandQueue").ptr()))
    throw nb::type_error("Context: pyopencl_queue must be a pyopencl.CommandQueue");
  Handles h;
  h.queue = reinterpret_cast<cl_command_queue>(nb::cast<std::uintptr_t>(queue.attr("int_ptr")));
  if (!h.queue) throw rdx::ArgumentError("Context: the PyOpenCL queue has no OpenCL queue");
  h.context = queue_info<cl_context>(h.queue, CL_QUEUE_CONTEXT, "CL_QUEUE_CONTEXT");
  h.device = queue_info<cl_device_id>(h.queue, CL_QUEUE_DEVICE, "CL_QUEUE_DEVICE");
  return h;
}

}  // namespace

void register_context(nb::module_& m) {
  nb::class_<PyContext>(m, "Context",
                        "One OpenCL device, its in-order queue and its cache of built programs. "
                        "Safe to share between threads.")
      .def(
          "__init__",
          [](PyContext* self, const std::string& selector) {
            Unlocked unlocked;
            new (self) PyContext{selector, rdx::Context(selector)};
          },
          nb::arg("selector") = "",
          "selector: '' (RDX_DEVICE, else the first GPU, else the first device), 'cpu', 'gpu', "
          "an index, 'P:D', or part of a device's or platform's name.")
      .def(
          "__init__",
          [](PyContext* self, nb::handle queue) {
            const Handles h = pyopencl_handles(queue);
            Unlocked unlocked;
            new (self) PyContext{"pyopencl", rdx::Context::wrap(h.context, h.device, h.queue)};
          },
          nb::kw_only(), nb::arg("pyopencl_queue"),
          "A pyopencl.CommandQueue's own cl_context, cl_device_id and in-order "
          "cl_command_queue, retained. Only a PyOpenCL queue is taken, never a raw handle: an "
          "address that is not a live OpenCL object would crash the process.")
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
      Unlocked unlocked;
      all = rdx::list_devices();
    }
    nb::list out;
    for (const rdx::DeviceInfo& d : all)
      out.append(facts(d));
    return out;
  });
}

}  // namespace rdxpy
