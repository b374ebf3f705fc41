// The headers the doctest suites' sources include, parsed once a build
// (cmake/precompiled.cmake): doctest, librdx's public headers (CL/opencl.hpp among them), fmt's
// header-only engine, and the standard headers most test files use.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/core.h>

#include "rdx/rdx.hpp"
