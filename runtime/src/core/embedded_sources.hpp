// Internal: the cl/ files, embedded at build time by cmake/embed_kernels.cmake.
#pragma once
#include <string_view>
#include <vector>

namespace rdx::detail {

struct EmbeddedSource {
  std::string_view file;  // name inside cl/, e.g. "localtree.cl"
  std::string_view text;
};

const std::vector<EmbeddedSource>& embedded_sources();

}  // namespace rdx::detail
