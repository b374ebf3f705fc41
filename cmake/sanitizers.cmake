# Sanitizer and fuzzing builds (included from the top-level CMakeLists.txt before any target).
#
#   RDX_SANITIZE     a -fsanitize list, e.g. "address,undefined" (empty: none), for every target:
#                    compiled and linked with -fsanitize=<list> -fno-omit-frame-pointer
#                    -fno-sanitize-recover=all (the first error aborts, so tests fail on it).
#   RDX_FUZZ         libFuzzer targets in tests/fuzz (fuzz_npy, fuzz_args) and their ctest entries
#                    fuzz.npy and fuzz.args; clang only. Every target is then also built with
#                    -fsanitize=fuzzer-no-link, so the library code the fuzzers reach (clrdx_core,
#                    librdx) reports its coverage; only the fuzz targets link libFuzzer's main.
#   RDX_FUZZ_SECONDS how long each fuzz ctest entry runs.
#
# A fuzzing build: CC=clang CXX=clang++ cmake -B build-fuzz -DRDX_FUZZ=ON
#   -DRDX_SANITIZE=address,undefined -DCMAKE_BUILD_TYPE=RelWithDebInfo (or tools/fuzz.sh).
set(RDX_SANITIZE "" CACHE STRING
    "Sanitizers for every target, a -fsanitize list such as address,undefined (empty: none)")
option(RDX_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)
set(RDX_FUZZ_SECONDS 60 CACHE STRING "Seconds each fuzz ctest entry (fuzz.npy, fuzz.args) runs")

if(RDX_SANITIZE)
  string(REPLACE ";" "," rdx_sanitize_list "${RDX_SANITIZE}")  # -DRDX_SANITIZE=address;undefined
  set(rdx_sanitize_flags -fsanitize=${rdx_sanitize_list} -fno-omit-frame-pointer
                         -fno-sanitize-recover=all)
  # One cached result per list; a failed check is tried again at the next configure.
  string(MAKE_C_IDENTIFIER "RDX_SANITIZE_WORKS_${rdx_sanitize_list}" rdx_sanitize_check)
  if(NOT ${rdx_sanitize_check})
    unset(${rdx_sanitize_check} CACHE)
  endif()
  include(CheckCXXSourceCompiles)
  string(REPLACE ";" " " CMAKE_REQUIRED_FLAGS "${rdx_sanitize_flags}")
  set(CMAKE_REQUIRED_LINK_OPTIONS ${rdx_sanitize_flags})
  check_cxx_source_compiles("int main() { return 0; }" ${rdx_sanitize_check})
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT ${rdx_sanitize_check})
    message(FATAL_ERROR "RDX_SANITIZE=${RDX_SANITIZE}: ${CMAKE_CXX_COMPILER_ID} "
                        "${CMAKE_CXX_COMPILER_VERSION} cannot build and link with "
                        "-fsanitize=${rdx_sanitize_list} (is its sanitizer runtime installed?)")
  endif()
  add_compile_options(${rdx_sanitize_flags})
  add_link_options(${rdx_sanitize_flags})
  message(STATUS "Sanitizers: ${rdx_sanitize_list}")
endif()

if(RDX_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR
            "RDX_FUZZ=ON needs clang (libFuzzer is part of clang), but the C++ compiler is "
            "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}. Configure a fresh build folder with "
            "CC=clang CXX=clang++ (Debian: apt-get install clang libclang-rt-14-dev), or use "
            "tools/fuzz.sh.")
  endif()
  if(NOT RDX_LIBFUZZER_WORKS)
    unset(RDX_LIBFUZZER_WORKS CACHE)
  endif()
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
  check_cxx_source_compiles(
    "#include <cstddef>
     #include <cstdint>
     extern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }"
    RDX_LIBFUZZER_WORKS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(NOT RDX_LIBFUZZER_WORKS)
    string(REGEX MATCH "^[0-9]+" rdx_clang_major "${CMAKE_CXX_COMPILER_VERSION}")
    message(FATAL_ERROR
            "RDX_FUZZ=ON: ${CMAKE_CXX_COMPILER} (clang ${CMAKE_CXX_COMPILER_VERSION}) cannot "
            "link -fsanitize=fuzzer: is libFuzzer's runtime installed? (Debian: apt-get install "
            "libclang-rt-${rdx_clang_major}-dev)")
  endif()
  if(NOT RDX_BUILD_TESTS OR NOT RDX_BUILD_CLI)
    message(FATAL_ERROR "RDX_FUZZ=ON needs RDX_BUILD_TESTS=ON and RDX_BUILD_CLI=ON (the fuzz "
                        "targets live in tests/fuzz and drive clrdx's parsers)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
  message(STATUS "Fuzz targets: on (${RDX_FUZZ_SECONDS} s per ctest entry)")
endif()
