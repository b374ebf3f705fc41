// The headers most of librdx's sources include, parsed once a build (cmake/precompiled.cmake):
// CL/opencl.hpp through rdx/context.hpp (which sets the OpenCL version the C++ bindings
// target), fmt's header-only engine, and the standard headers most files use.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fmt/core.h>

#include "rdx/context.hpp"
