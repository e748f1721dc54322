# SPDX-License-Identifier: BSD-3-Clause
# The host fallback of a CUDA build: Kokkos initialises every backend it was built with and
# aborts without a GPU, so one binary cannot drop to its host backends on a GPU-less machine.
# A CUDA build therefore also builds this source tree against a host-only Kokkos
# (STRIX_HOST_KOKKOS_ROOT) as `strix-host`, placed and installed beside `strix`; without a
# usable GPU, `strix` runs it instead (src/cli/main.cpp). Empty STRIX_HOST_KOKKOS_ROOT: no
# fallback, and `strix` says so in its one-line error.
set(STRIX_HOST_KOKKOS_ROOT "" CACHE PATH
  "A host-only Kokkos (OpenMP/Serial) for the strix-host fallback of a CUDA build; empty: none")
if(NOT STRIX_HAS_CUDA OR STRIX_HOST_KOKKOS_ROOT STREQUAL "")
  if(STRIX_HAS_CUDA)
    message(STATUS "strix: no host fallback (set STRIX_HOST_KOKKOS_ROOT to a host-only Kokkos)")
  endif()
  return()
endif()

include(ExternalProject)
set(_strix_host_launcher)
if(CMAKE_CXX_COMPILER_LAUNCHER)  # scripts/build-cost.sh times the fallback's units too
  set(_strix_host_launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
set(_strix_host_dir ${CMAKE_CURRENT_BINARY_DIR}/host-fallback)
set(_strix_host_exe ${_strix_host_dir}/strix-host)
ExternalProject_Add(strix_host_fallback
  SOURCE_DIR ${PROJECT_SOURCE_DIR}
  BINARY_DIR ${_strix_host_dir}
  CMAKE_ARGS -DKokkos_ROOT=${STRIX_HOST_KOKKOS_ROOT} -DCMAKE_PREFIX_PATH=${STRIX_HOST_KOKKOS_ROOT}
             -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DSTRIX_CLI_NAME=strix-host
             -DSTRIX_ENABLE_TESTS=OFF -DSTRIX_ENABLE_BENCH=OFF -DSTRIX_BOOTSTRAP_KOKKOS=OFF
             -DSTRIX_VENDOR_PRIMITIVES=${STRIX_VENDOR_PRIMITIVES} ${_strix_host_launcher}
             -DSTRIX_CLI_PARTS_LIBRARY=$<TARGET_FILE:strix_cli_parts>
  BUILD_COMMAND ${CMAKE_COMMAND} --build ${_strix_host_dir} --target strix_cli
  BUILD_ALWAYS ON  # it follows the same sources; an up-to-date build takes a moment
  INSTALL_COMMAND ${CMAKE_COMMAND} -E copy ${_strix_host_exe} ${CMAKE_CURRENT_BINARY_DIR}/strix-host
  BUILD_BYPRODUCTS ${_strix_host_exe})
add_dependencies(strix_host_fallback strix_cli_parts)
add_dependencies(strix_cli strix_host_fallback)
install(PROGRAMS ${_strix_host_exe} DESTINATION bin)
