// rdx._rdx: librdx's reductions of host and device arrays for the Python package rdx (python/rdx),
// which turns NumPy's functions and rules into calls of this module.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include <string>

#include "bindings.hpp"
#include "rdx/context.hpp"

NB_MODULE(_rdx, m) {
  m.doc() = "librdx's reductions; the package rdx wraps them in NumPy's functions";
  m.attr("__version__") = std::string(rdx::version());
  rdxpy::register_errors(m);
  rdxpy::register_context(m);
  rdxpy::register_reduce_ops(m);
  rdxpy::register_reduce_stats(m);
  rdxpy::register_reduce_custom(m);
}
