// rdx.Context: one librdx Context (a device, its queue and program cache) and its selector.
#pragma once
#include <string>

#include "rdx/context.hpp"

namespace rdxpy {

struct PyContext {
  std::string selector;  // as given ("" for the default device)
  rdx::Context ctx;
};

}  // namespace rdxpy
