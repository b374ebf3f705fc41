// The headers clrdx's sources include, parsed once a build (cmake/precompiled.cmake):
// librdx's public headers (CL/opencl.hpp among them), nlohmann-json, fmt's header-only engine,
// and the standard headers most of its files use. CLI11, in two files, is left to them.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "rdx/rdx.hpp"
