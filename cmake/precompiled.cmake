# Precompiled headers (RDX_PCH, on by default): the heavy headers that most sources of a target
# include (CL/opencl.hpp, fmt's header-only engine, nlohmann-json, doctest, the standard library)
# are parsed once per target instead of once per source file. The headers are cmake/pch/*.hpp;
# CMake rebuilds a target's precompiled header whenever a file it includes changes, and every
# source of the target after it. The build is the same without them (-DRDX_PCH=OFF);
# docs/testing.md records the build's CPU time either way. Targets of one or two sources gain
# nothing (the header is compiled once either way) and have none.
option(RDX_PCH "Precompile the heavy headers (cmake/pch/)" ON)

# rdx_precompile(TARGET HEADER [SKIP source...]): TARGET's sources start with cmake/pch/HEADER,
# but the SKIP sources (absolute paths).
function(rdx_precompile target header)
  if(NOT RDX_PCH OR NOT TARGET ${target})
    return()
  endif()
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "SKIP")
  target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/${header})
  if(arg_SKIP)
    set_source_files_properties(${arg_SKIP} TARGET_DIRECTORY ${target}
                                PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
  endif()
endfunction()

# Every target that has one (called at the end of the top-level CMakeLists.txt, once they exist):
# librdx's objects, clrdx's library, the doctest suites. The sources that define a macro the
# header defines too have none: core/errors.cpp (CL_TARGET_OPENCL_VERSION, for CL/cl.h alone) and
# test_main.cpp (DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN, before doctest).
function(rdx_precompile_targets)
  rdx_precompile(rdx_objects runtime.hpp SKIP ${PROJECT_SOURCE_DIR}/runtime/src/core/errors.cpp)
  rdx_precompile(clrdx_core clrdx.hpp)
  foreach(suite rdx_unit_tests rdx_device_tests)
    rdx_precompile(${suite} tests.hpp SKIP ${PROJECT_SOURCE_DIR}/tests/test_main.cpp)
  endforeach()
endfunction()
