// rdx._rdx: librdx's reductions of host and device arrays for the Python package rdx (python/rdx),
// which turns NumPy's functions and rules into calls of this module.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "rdx/context.hpp"
#include "unlocked.hpp"

namespace nb = nanobind;

NB_MODULE(_rdx, m) {
  m.doc() = "librdx's reductions; the package rdx wraps them in NumPy's functions";
  m.attr("__version__") = std::string(rdx::version());
  rdxpy::register_errors(m);
  rdxpy::register_types(m);
  rdxpy::register_context(m);
  rdxpy::register_reduce_ops(m);
  rdxpy::register_reduce_stats(m);
  rdxpy::register_reduce_custom(m);
  // The exit with daemon threads (rdx/_devices.py, unlocked.hpp): calls still in librdx are
  // waited for, the threads parked, and nanobind's report of the objects they hold (never
  // freed, as the threads never return) turned off.
  m.def("_begin_exit", &rdxpy::begin_exit);
  m.def("_calls_in_librdx", &rdxpy::calls_in_librdx);
  m.def(
      "_set_leak_warnings", [](bool on) { nb::set_leak_warnings(on); }, nb::arg("on"));
}
