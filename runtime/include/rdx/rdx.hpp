// librdx: reductions of host or device arrays on any OpenCL device. Complete, tested examples:
// docs/examples/ (reduce_host.cpp, reduce_buffer.cpp, stream.cpp), shown in docs/api.md.
// This header includes the whole public API:
#pragma once
#include "rdx/async.hpp"             // reductions that do not wait: events into buffers, futures
#include "rdx/context.hpp"           // rdx::Context: one device, its queue and program cache
#include "rdx/custom.hpp"            // reductions users write: rdx::Reduction, transform-reduce
#include "rdx/device_info.hpp"       // rdx::DeviceInfo, device listing and selection
#include "rdx/errors.hpp"            // the exception types
#include "rdx/multi.hpp"             // rdx::DeviceGroup: one reduction over several devices
#include "rdx/partial.hpp"           // rdx::Partial: states of runs of elements, combined in order
#include "rdx/plan.hpp"              // rdx::Options, rdx::Plan, make_plan
#include "rdx/reduce.hpp"            // rdx::reduce and its typed forms, rdx::Result
#include "rdx/segmented.hpp"         // one result per segment: offsets, axes of an N-D array
#include "rdx/segmented_custom.hpp"  // the same for users' reductions and composites
#include "rdx/stats.hpp"             // composites: minmax, mean, var, std, norm2, dot, count
#include "rdx/strategies.hpp"        // the strategy table
#include "rdx/stream.hpp"            // rdx::Stream: a sequence of host chunks reduced as one input
#include "rdx/types.hpp"             // rdx::Type, rdx::Op, rdx::Scalar
#include "rdx/view.hpp"              // rdx::View: N-D arrays with strides, the axes to reduce
