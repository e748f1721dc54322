# SPDX-License-Identifier: BSD-3-Clause
# The host fallback of a CUDA build: Kokkos initialises every backend it was built with and
# aborts without a GPU, so one binary cannot drop to its host backends on a GPU-less machine.
# `strix` runs `strix-host` beside it instead (src/cli/host_fallback.cpp): the same tool built
# for a host-only Kokkos. It is opt-in, because it costs a second library build:
#   STRIX_HOST_FALLBACK_EXE=PATH   reuse a host build's `strix` of this same source (e.g.
#                                  build/openmp/strix): copied, nothing compiled;
#   STRIX_HOST_KOKKOS_ROOT=PREFIX  build this source tree against that host-only Kokkos.
# With neither, `strix` says in its one-line no-GPU error that strix-host is missing.
set(STRIX_HOST_KOKKOS_ROOT "" CACHE PATH
  "A host-only Kokkos (OpenMP/Serial) to build the strix-host fallback of a CUDA build with; empty: none")
set(STRIX_HOST_FALLBACK_EXE "" CACHE FILEPATH
  "A host build's strix of the same source, installed as the CUDA build's strix-host; empty: none")
if(NOT STRIX_HAS_CUDA)
  return()
endif()

set(_strix_host_exe ${CMAKE_CURRENT_BINARY_DIR}/strix-host)
if(STRIX_HOST_FALLBACK_EXE)
  # The copy must be a strix of this version built for the host, or the fallback would
  # answer differently from the tool it stands in for.
  execute_process(COMMAND ${STRIX_HOST_FALLBACK_EXE} --version OUTPUT_VARIABLE _strix_host_version
                  RESULT_VARIABLE _strix_host_status ERROR_QUIET)
  if(NOT _strix_host_status EQUAL 0 OR NOT _strix_host_version MATCHES "^strix ${PROJECT_VERSION} "
     OR _strix_host_version MATCHES "[Cc][Uu][Dd][Aa]")
    message(FATAL_ERROR "STRIX_HOST_FALLBACK_EXE=${STRIX_HOST_FALLBACK_EXE} is not a host build of strix "
                        "${PROJECT_VERSION} (its --version: '${_strix_host_version}')")
  endif()
  add_custom_command(OUTPUT ${_strix_host_exe}
    COMMAND ${CMAKE_COMMAND} -E copy ${STRIX_HOST_FALLBACK_EXE} ${_strix_host_exe}
    DEPENDS ${STRIX_HOST_FALLBACK_EXE} COMMENT "strix-host: a copy of ${STRIX_HOST_FALLBACK_EXE}")
  add_custom_target(strix_host_fallback DEPENDS ${_strix_host_exe})
elseif(NOT STRIX_HOST_KOKKOS_ROOT STREQUAL "")
  include(ExternalProject)
  set(_strix_host_launcher)
  if(CMAKE_CXX_COMPILER_LAUNCHER)  # scripts/build-cost.sh times the fallback's units too
    set(_strix_host_launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  set(_strix_host_dir ${CMAKE_CURRENT_BINARY_DIR}/host-fallback)
  ExternalProject_Add(strix_host_fallback
    SOURCE_DIR ${PROJECT_SOURCE_DIR}
    BINARY_DIR ${_strix_host_dir}
    CMAKE_ARGS -DKokkos_ROOT=${STRIX_HOST_KOKKOS_ROOT} -DCMAKE_PREFIX_PATH=${STRIX_HOST_KOKKOS_ROOT}
               -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE} -DSTRIX_CLI_NAME=strix-host
               -DSTRIX_ENABLE_TESTS=OFF -DSTRIX_ENABLE_BENCH=OFF -DSTRIX_ENABLE_PYTHON=OFF -DSTRIX_BOOTSTRAP_KOKKOS=OFF
               -DSTRIX_VENDOR_PRIMITIVES=${STRIX_VENDOR_PRIMITIVES} -DSTRIX_ENABLE_MPI=${STRIX_ENABLE_MPI} ${_strix_host_launcher}
               -DSTRIX_CLI_PARTS_LIBRARY=$<TARGET_FILE:strix_cli_parts>
    BUILD_COMMAND ${CMAKE_COMMAND} --build ${_strix_host_dir} --target strix_cli
    BUILD_ALWAYS ON  # it follows the same sources; an up-to-date build takes a moment
    INSTALL_COMMAND ${CMAKE_COMMAND} -E copy ${_strix_host_dir}/strix-host ${_strix_host_exe}
    BUILD_BYPRODUCTS ${_strix_host_dir}/strix-host)
  add_dependencies(strix_host_fallback strix_cli_parts)
else()
  message(STATUS "strix: no host fallback strix-host (set STRIX_HOST_FALLBACK_EXE to a host build's "
                 "strix, or STRIX_HOST_KOKKOS_ROOT to a host-only Kokkos to build one)")
  return()
endif()
add_dependencies(strix_cli strix_host_fallback)
install(PROGRAMS ${_strix_host_exe} DESTINATION bin)
