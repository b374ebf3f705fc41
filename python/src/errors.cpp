// Python exception types for librdx's errors, and the translator that raises them:
//   rdx.Error                               base of every librdx error (an Exception)
//   rdx.ArgumentError(Error, ValueError)    rdx::ArgumentError: a bad argument
//   rdx.UnsupportedError(Error, NotImplementedError)
//                                           rdx::UnsupportedError: valid, not on this device
//   rdx.DeviceError(Error, RuntimeError)    rdx::DeviceError: no device matches the selector
//   rdx.ClError(Error, RuntimeError)        rdx::ClError: an OpenCL call failed
//   rdx.DeviceMemoryError(ClError, MemoryError)
//                                           a ClError that means the device is out of memory
//   rdx.BuildError(ClError)                 rdx::BuildError and rdx::ExpressionError
// std::bad_alloc stays nanobind's MemoryError.
#include "errors.hpp"

#include <nanobind/nanobind.h>

#include <cstring>
#include <exception>
#include <initializer_list>
#include <string>

#include "bindings.hpp"
#include "rdx/errors.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

struct Types {
  PyObject* error = nullptr;
  PyObject* argument = nullptr;
  PyObject* unsupported = nullptr;
  PyObject* device = nullptr;
  PyObject* cl = nullptr;
  PyObject* memory = nullptr;
  PyObject* build = nullptr;
};
Types types;  // owned by the module (its attributes); never freed, as the module is not

PyObject* make_type(nb::module_& m, const char* name, PyObject* bases, const char* doc) {
  const std::string qualified = std::string("rdx.") + name;
  PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
  if (!t) throw nb::python_error();
  m.attr(name) = nb::handle(t);
  return t;
}

PyObject* make_type(nb::module_& m, const char* name, std::initializer_list<PyObject*> bases,
                    const char* doc) {
  nb::tuple t = nb::steal<nb::tuple>(PyTuple_New(static_cast<Py_ssize_t>(bases.size())));
  Py_ssize_t k = 0;
  for (PyObject* b : bases) {
    Py_INCREF(b);
    PyTuple_SET_ITEM(t.ptr(), k++, b);
  }
  return make_type(m, name, t.ptr(), doc);
}

// Sets the Python error type with librdx's message. The message is read as UTF-8 with any other
// byte as a \xNN escape (backslashreplace): a message that is not UTF-8 still reaches Python, never
// a UnicodeDecodeError in its place.
void set_error(PyObject* type, const char* what) {
  PyObject* text =
      PyUnicode_DecodeUTF8(what, static_cast<Py_ssize_t>(std::strlen(what)), "backslashreplace");
  if (!text) return;  // the decoder's own error (out of memory) is raised instead
  PyErr_SetObject(type, text);
  Py_DECREF(text);
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const rdx::BuildError& e) {
    set_error(types.build, e.what());
  } catch (const rdx::ClError& e) {
    set_error(is_out_of_memory(e.code) ? types.memory : types.cl, e.what());
  } catch (const rdx::ArgumentError& e) {
    set_error(types.argument, e.what());
  } catch (const rdx::UnsupportedError& e) {
    set_error(types.unsupported, e.what());
  } catch (const rdx::DeviceError& e) {
    set_error(types.device, e.what());
  } catch (const rdx::Error& e) {
    set_error(types.error, e.what());
  }
}

}  // namespace

bool is_out_of_memory(int cl_code) {
  return cl_code == -4 || cl_code == -5 || cl_code == -6;  // CL_MEM_OBJECT_ALLOCATION_FAILURE,
                                                           // CL_OUT_OF_RESOURCES,
                                                           // CL_OUT_OF_HOST_MEMORY
}

void register_errors(nb::module_& m) {
  types.error = make_type(m, "Error", PyExc_Exception, "Base of librdx's errors.");
  types.argument = make_type(m, "ArgumentError", {types.error, PyExc_ValueError},
                             "A bad argument (librdx's ArgumentError).");
  types.unsupported =
      make_type(m, "UnsupportedError", {types.error, PyExc_NotImplementedError},
                "A valid request that this device or determinism level does not run.");
  types.device = make_type(m, "DeviceError", {types.error, PyExc_RuntimeError},
                           "No OpenCL device matches the selector.");
  types.cl = make_type(m, "ClError", {types.error, PyExc_RuntimeError},
                       "An OpenCL call failed; the message names the call and the error.");
  types.memory = make_type(m, "DeviceMemoryError", {types.cl, PyExc_MemoryError},
                           "The device is out of memory or resources.");
  types.build = make_type(m, "BuildError", {types.cl},
                          "A kernel (or a user's expression) failed to build; the message has "
                          "the compiler's log.");
  nb::register_exception_translator(translate);
}

}  // namespace rdxpy
