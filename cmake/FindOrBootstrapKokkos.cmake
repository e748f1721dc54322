# SPDX-License-Identifier: BSD-3-Clause
# Finds Kokkos >= 3.4 (a user's own install: Spack, a module, Kokkos_ROOT). If there
# is none, builds Kokkos 3.4.01 (OpenMP + Serial) with scripts/bootstrap-kokkos.sh into
# a cache outside the source tree. The CUDA variant needs nvcc_wrapper as the C++
# compiler from the start, so it is bootstrapped by scripts/build.sh cuda instead.
find_package(Kokkos CONFIG QUIET)
if(NOT Kokkos_FOUND AND STRIX_BOOTSTRAP_KOKKOS)
  message(STATUS "strix: no Kokkos found; bootstrapping Kokkos 3.4.01 (OpenMP+Serial)")
  execute_process(COMMAND ${CMAKE_CURRENT_LIST_DIR}/../scripts/bootstrap-kokkos.sh openmp
    OUTPUT_VARIABLE _strix_boot_out RESULT_VARIABLE _strix_boot_rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _strix_boot_rc EQUAL 0)
    message(FATAL_ERROR "strix: Kokkos bootstrap failed (see messages above)")
  endif()
  string(REGEX REPLACE ".*\n" "" _strix_kokkos_prefix "${_strix_boot_out}")
  find_package(Kokkos CONFIG REQUIRED PATHS "${_strix_kokkos_prefix}" NO_DEFAULT_PATH)
endif()
if(NOT Kokkos_FOUND)
  message(FATAL_ERROR "strix: Kokkos >= 3.4 not found; set Kokkos_ROOT or enable STRIX_BOOTSTRAP_KOKKOS")
endif()
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "strix: needs Kokkos >= 3.4, found ${Kokkos_VERSION}")
endif()
message(STATUS "strix: Kokkos ${Kokkos_VERSION} (${Kokkos_DEVICES}) from ${Kokkos_DIR}")
