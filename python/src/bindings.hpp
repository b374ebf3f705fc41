// The parts of the extension module rdx._rdx, each registered by its own file.
#pragma once
#include <nanobind/nanobind.h>

namespace rdxpy {

void register_errors(nanobind::module_& m);         // errors.cpp: exceptions and their translation
void register_types(nanobind::module_& m);          // arrays.cpp: the element types (types())
void register_context(nanobind::module_& m);        // context.cpp: Context, DeviceArray
void register_reduce_ops(nanobind::module_& m);     // reduce_ops.cpp: the built-in operators
void register_reduce_stats(nanobind::module_& m);   // reduce_stats.cpp: the composites
void register_reduce_custom(nanobind::module_& m);  // reduce_custom.cpp: users' reductions

}  // namespace rdxpy
