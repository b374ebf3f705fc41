// Internal: kernel sources (embedded, or RDX_KERNEL_DIR) and the per-context cache of programs.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "core/binary_cache.hpp"
#include "rdx/context.hpp"
#include "rdx/errors.hpp"

namespace rdx::detail {

// The text of cl/<file>: from $RDX_KERNEL_DIR when that is set, else the embedded copy.
// Throws Error when the file is unknown or unreadable.
std::string kernel_source(const std::string& file);

// A program's full source: the host's definitions (ops/cl_definitions.hpp), cl/common.h, then
// the strategy's file. cl/empty.cl stands alone.
std::string program_source(const std::string& file, const std::string& definitions);

class ProgramCache {
 public:
  // Reads the on-disk cache's location; throws ArgumentError when RDX_CACHE_DIR is not a
  // directory (see BinaryCache), so a Context reports it when it is made.
  ProgramCache() = default;

  // Built once per (file, definitions, options) for this context's device; later calls reuse
  // the program. Throws BuildError with the log when the build fails.
  cl::Program get(const cl::Context& ctx, const cl::Device& dev, const std::string& file,
                  const std::string& definitions, const std::string& options);

 private:
  BinaryCache disk_;
  std::mutex mutex_;
  std::map<std::tuple<std::string, std::string, std::string>, cl::Program> programs_;
};

}  // namespace rdx::detail
