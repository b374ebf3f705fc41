# The Debian packages, one per install component (cmake/packaging.cmake), made by CPack's DEB
# generator: `tools/package.sh deb` configures a build with RDX_DEB=ON and the /usr prefix (so that
# GNUInstallDirs gives the multiarch library folder, lib/<triplet>) and runs cpack.
#   librdx0         lib      the shared library (shlibs file, ldconfig trigger)
#   librdx-dev      dev      headers, static library, CMake package, pkg-config file, the .so link
#   clrdx           cli      the command-line tool
#   librdx-mpi0     mpi      the MPI library (rdx/mpi.hpp's)
#   librdx-mpi-dev  mpi_dev  its header, static library, CMake component and .so link
#   clrdx-mpi       cli_mpi  the MPI command-line tool
# Only the MPI packages depend on Open MPI. Dependencies on shared libraries come from
# dpkg-shlibdeps; each package has its copyright file and changelog in /usr/share/doc/<package>.
option(RDX_DEB "Configure the Debian packages (tools/package.sh deb)" OFF)
if(NOT RDX_DEB)
  return()
endif()

set(rdx_deb_names lib librdx0 dev librdx-dev cli clrdx)
if(RDX_HAVE_MPI)
  list(APPEND rdx_deb_names mpi librdx-mpi0 mpi_dev librdx-mpi-dev cli_mpi clrdx-mpi)
endif()
set(rdx_deb_components)

# The changelog, compressed as Debian's policy asks (gzip -9n: no name, no time stamp).
set(rdx_changelog_gz ${PROJECT_BINARY_DIR}/debian/changelog.Debian.gz)
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/debian)
execute_process(COMMAND gzip -9n -c ${CMAKE_CURRENT_LIST_DIR}/debian/changelog
                OUTPUT_FILE ${rdx_changelog_gz} RESULT_VARIABLE rdx_gzip_failed)
if(rdx_gzip_failed)
  message(FATAL_ERROR "gzip of the Debian changelog failed")
endif()

while(rdx_deb_names)
  list(POP_FRONT rdx_deb_names component package)
  list(APPEND rdx_deb_components ${component})
  string(TOUPPER ${component} COMP)  # CPack's variables name components in upper case
  set(CPACK_DEBIAN_${COMP}_PACKAGE_NAME ${package})
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/debian/copyright ${rdx_changelog_gz}
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
endwhile()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME librdx)
set(CPACK_PACKAGE_VENDOR "the librdx developers")
set(CPACK_PACKAGE_CONTACT "librdx maintainers <maintainers@users.noreply.a-seed-70dd6e73.example>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL ${rdx_deb_components})  # not the Python module's
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # name_version-release_arch.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)  # a shlibs file where a package has a shared library
# librdx-mpi0 needs librdx.so.0 from this build: dpkg-shlibdeps finds it here, and the explicit
# dependency below names its package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/runtime)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/librdx/librdx")
set(rdx_deb_version "${PROJECT_VERSION}-1")
set(rdx_device "pocl-opencl-icd | opencl-icd")

set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/triggers)
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS ${rdx_device})
set(CPACK_COMPONENT_LIB_DESCRIPTION
    "portable OpenCL reductions (shared library)
librdx reduces arrays on any OpenCL device (NVIDIA, AMD and Intel GPUs, CPUs
through PoCL): sums, products, extremes and their indexes, NumPy's NaN rules,
users' maps and combines, segments and axes, and float sums with the same bits
on every device. This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "librdx0 (= ${rdx_deb_version}), ocl-icd-opencl-dev | opencl-dev, opencl-clhpp-headers")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "portable OpenCL reductions (development files)
librdx reduces arrays on any OpenCL device. This package holds the C++
headers, the static library, the CMake package (find_package(rdx)) and the
pkg-config file (rdx.pc).")

set(CPACK_DEBIAN_CLI_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS ${rdx_device})
set(CPACK_COMPONENT_CLI_DESCRIPTION
    "reduce files on any OpenCL device from the command line
clrdx reduces .npy and raw files with librdx on the OpenCL devices of the
machine, lists the devices, checks the strategies against host references
(clrdx verify) and times them (clrdx bench).")

if(RDX_HAVE_MPI)
  set(CPACK_DEBIAN_MPI_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_MPI_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_LIST_DIR}/debian/triggers)
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "librdx0 (= ${rdx_deb_version})")
  set(CPACK_COMPONENT_MPI_DESCRIPTION
      "portable OpenCL reductions over MPI ranks (shared library)
librdx_mpi combines librdx's reductions over the ranks of an MPI
communicator in rank order, with the same results for any rank count.")
  set(CPACK_DEBIAN_MPI_DEV_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_MPI_DEV_PACKAGE_DEPENDS
      "librdx-dev (= ${rdx_deb_version}), librdx-mpi0 (= ${rdx_deb_version}), libopenmpi-dev")
  set(CPACK_COMPONENT_MPI_DEV_DESCRIPTION
      "portable OpenCL reductions over MPI ranks (development files)
The header rdx/mpi.hpp, the static library and the CMake component
(find_package(rdx COMPONENTS mpi)) of librdx_mpi.")
  set(CPACK_DEBIAN_CLI_MPI_PACKAGE_SECTION utils)
  set(CPACK_DEBIAN_CLI_MPI_PACKAGE_RECOMMENDS "openmpi-bin, ${rdx_device}")
  set(CPACK_COMPONENT_CLI_MPI_DESCRIPTION
      "reduce a file over MPI ranks on OpenCL devices
clrdx-mpi reduces one file over the ranks of mpirun, each rank reading its own
part on its own device, the result on rank 0 as clrdx prints it.")
endif()

include(CPack)
