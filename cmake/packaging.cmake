# Installation and packaging: the two libraries, the public headers, a CMake package
# (find_package(rdx) -> rdx::rdx shared, rdx::rdx_static) and a pkg-config file. clrdx installs
# itself from tools/clrdx. Included at the end of the top-level CMakeLists.txt. Every file belongs
# to an install component, one per Debian package (cmake/deb.cmake): lib (librdx0), dev
# (librdx-dev), cli (clrdx), mpi (librdx-mpi0), mpi_dev (librdx-mpi-dev), cli_mpi (clrdx-mpi);
# `python` is the Python module's (python/CMakeLists.txt).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RDX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/rdx)

install(TARGETS rdx_shared rdx_static
        EXPORT rdxTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lib)
# rdx/mpi.hpp only with the library that implements it.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/rdx
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
        FILES_MATCHING PATTERN "*.hpp" PATTERN "mpi.hpp" EXCLUDE)
install(EXPORT rdxTargets NAMESPACE rdx:: FILE rdxTargets.cmake DESTINATION ${RDX_CMAKE_DIR}
        COMPONENT dev)
# The optional component: find_package(rdx COMPONENTS mpi) -> rdx::mpi (shared), rdx::mpi_static.
if(RDX_HAVE_MPI)
  install(TARGETS rdx_mpi_shared rdx_mpi_static
          EXPORT rdxMpiTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mpi NAMELINK_COMPONENT mpi_dev
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mpi_dev)
  install(FILES ${PROJECT_SOURCE_DIR}/runtime/include/rdx/mpi.hpp
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/rdx COMPONENT mpi_dev)
  install(EXPORT rdxMpiTargets NAMESPACE rdx:: FILE rdxMpiTargets.cmake
          DESTINATION ${RDX_CMAKE_DIR} COMPONENT mpi_dev)
endif()

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rdxConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/rdxConfig.cmake
                              INSTALL_DESTINATION ${RDX_CMAKE_DIR})
# Before 1.0 a minor version may break the API, so 0.1 accepts 0.1.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rdxConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rdxConfig.cmake ${PROJECT_BINARY_DIR}/rdxConfigVersion.cmake
        DESTINATION ${RDX_CMAKE_DIR} COMPONENT dev)

# rdx.pc finds its prefix from its own place (${pcfiledir}), so it is right wherever the tree is
# installed (`cmake --install --prefix P` does not re-run configure_file) or moved to.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "rdx.pc needs a CMAKE_INSTALL_LIBDIR relative to the prefix")
endif()
file(RELATIVE_PATH RDX_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" RDX_PC_TO_PREFIX "${RDX_PC_TO_PREFIX}")
set(RDX_PC_PREFIX "\${pcfiledir}/${RDX_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/rdx.pc.in ${PROJECT_BINARY_DIR}/rdx.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/rdx.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)

include(${CMAKE_CURRENT_LIST_DIR}/deb.cmake)  # the Debian packages (tools/package.sh deb)
