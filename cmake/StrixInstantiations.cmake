# SPDX-License-Identifier: BSD-3-Clause
# Explicit instantiation files of libstrix: one per feature (a construction family, or a few
# small features together) for CUDA and one for the host spaces in STRIX_ETI_SPACES, each
# instantiating it for 32- and 64-bit indices where it takes one (see src/strix/core/eti.hpp).
# Separate files compile in parallel, and a change to one family recompiles only its files; CUDA
# builds put their CUDA files into one unity unit all the same (below). Sets STRIX_ETI_SOURCES and
# STRIX_ETI_CUDA_ONE_UNIT.
set(STRIX_ETI_SOURCES)
# file stem|definitions headers|instantiation macros|what they are per: "index" instantiates
# MACRO(SPACE, std::uint32_t) and MACRO(SPACE, std::uint64_t), "space" MACRO(SPACE) once; a
# macro written MACRO@space is instantiated once per space whatever its file's default.
# Headers and macros are comma-separated: small features share a file, since each file costs
# nvcc several seconds before any strix code (bench/NOTES.md, "Build cost").
set(_strix_eti_features
  "sa|strix/core/detail/copy_def.hpp,strix/sa/detail/sa_def.hpp,strix/sa/detail/prefix_doubling/prefix_doubling_def.hpp,strix/sa/detail/divsufsort/divsufsort_def.hpp,strix/sa/detail/sais/sais_def.hpp,strix/sa/detail/generalized_def.hpp|STRIX_COPY_INSTANTIATE@space,STRIX_SA_INSTANTIATE,STRIX_SA_PD_INSTANTIATE,STRIX_SA_DIVSUFSORT_INSTANTIATE,STRIX_SA_SAIS_INSTANTIATE,STRIX_SA_GSA_INSTANTIATE|index"
  "larsson_sadakane|strix/sa/detail/larsson_sadakane/larsson_sadakane_def.hpp|STRIX_SA_LS_INSTANTIATE|index"
  "difference_cover|strix/sa/detail/difference_cover/difference_cover_def.hpp|STRIX_SA_DC_INSTANTIATE|index"
  "bwt_lcp_repeats|strix/bwt/detail/bwt_def.hpp,strix/bwt/detail/inverse_bwt_def.hpp,strix/lcp/detail/lcp_def.hpp,strix/repeats/detail/repeats_def.hpp|STRIX_BWT_INSTANTIATE,STRIX_INVERSE_BWT_INSTANTIATE@space,STRIX_LCP_INSTANTIATE,STRIX_REPEATS_INSTANTIATE|index"
  "wavelet_build|strix/succinct/detail/succinct_def.hpp|STRIX_WAVELET_BUILD_INSTANTIATE|space"
  "succinct_queries|strix/succinct/detail/succinct_def.hpp|STRIX_BIT_VECTOR_INSTANTIATE,STRIX_WAVELET_QUERY_INSTANTIATE|index"
  "fm_index|strix/fm_index/detail/fm_index_def.hpp,strix/approximate/detail/approximate_def.hpp,strix/approximate/detail/edit_alignment_def.hpp|STRIX_FM_INDEX_INSTANTIATE,STRIX_APPROXIMATE_INSTANTIATE,STRIX_EDIT_ALIGNMENTS_INSTANTIATE@space|index")
if(STRIX_ENABLE_MPI)
  list(APPEND _strix_eti_features
    "distributed|strix/distributed/detail/suffix_array_def.hpp,strix/distributed/detail/bwt_check_def.hpp|STRIX_DISTRIBUTED_SA_INSTANTIATE,STRIX_DISTRIBUTED_BWT_CHECK_INSTANTIATE|index")
endif()
# Kokkos device name|execution space|guard macro
set(_strix_eti_spaces
  "CUDA|Kokkos::Cuda|KOKKOS_ENABLE_CUDA"
  "OPENMP|Kokkos::OpenMP|KOKKOS_ENABLE_OPENMP"
  "SERIAL|Kokkos::Serial|KOKKOS_ENABLE_SERIAL")
# The host spaces of a feature share one file: their instantiations share the HostSpace code
# (allocation, copies, host passes) and the parse of Kokkos, which compiled apart cost about
# 2 CPU s more a feature (bench/NOTES.md, "Tenth reading"). CUDA keeps its own file.
foreach(_group cuda host)
  foreach(_feature IN LISTS _strix_eti_features)
    string(REPLACE "|" ";" _feature "${_feature}")
    list(GET _feature 0 _stem)
    list(GET _feature 1 _headers)
    list(GET _feature 2 _macros)
    list(GET _feature 3 _per)
    string(REPLACE "," ";" _headers "${_headers}")
    string(REPLACE "," ";" _macros "${_macros}")
    set(STRIX_ETI_INCLUDES)
    foreach(_header IN LISTS _headers)
      string(APPEND STRIX_ETI_INCLUDES "#include <${_header}>\n")
    endforeach()
    set(STRIX_ETI_BODY)
    set(STRIX_ETI_SPACE)
    foreach(_space IN LISTS _strix_eti_spaces)
      string(REPLACE "|" ";" _space "${_space}")
      list(GET _space 0 _device)
      list(GET _space 1 _space_type)
      list(GET _space 2 _guard)
      set(_device_group host)
      if(_device STREQUAL "CUDA")
        set(_device_group cuda)
      endif()
      if(NOT _device IN_LIST STRIX_ETI_SPACES OR NOT _device_group STREQUAL _group)
        continue()
      endif()
      list(APPEND STRIX_ETI_SPACE "${_space_type}")
      string(APPEND STRIX_ETI_BODY "#ifdef ${_guard}\n")
      foreach(_macro IN LISTS _macros)
        set(_macro_per "${_per}")
        if(_macro MATCHES "^(.*)@space$")
          set(_macro "${CMAKE_MATCH_1}")
          set(_macro_per space)
        endif()
        if(_macro_per STREQUAL "space")
          string(APPEND STRIX_ETI_BODY "${_macro}(${_space_type})\n")
        else()
          string(APPEND STRIX_ETI_BODY "${_macro}(${_space_type}, std::uint32_t)\n${_macro}(${_space_type}, std::uint64_t)\n")
        endif()
      endforeach()
      string(APPEND STRIX_ETI_BODY "#endif\n")
    endforeach()
    if(NOT STRIX_ETI_SPACE)
      continue()
    endif()
    list(JOIN STRIX_ETI_SPACE " and " STRIX_ETI_SPACE)
    set(_file "${CMAKE_CURRENT_BINARY_DIR}/eti/strix_${_group}_${_stem}.cpp")
    configure_file("${CMAKE_CURRENT_SOURCE_DIR}/src/eti/instantiate.cpp.in" "${_file}" @ONLY)
    list(APPEND STRIX_ETI_SOURCES "${_file}")
  endforeach()
endforeach()
# The host spaces' files stay apart (g++ parses Kokkos and strix's headers in about 1.5 s a unit,
# and apart they compile in parallel). The CUDA files go into the library's unity batch by default
# (with the CUB sources, CMakeLists.txt), since nvcc's cost for each unit before and beside its
# own kernels is far larger: cudafe++, cicc and the host pass each parse Kokkos, strix's headers
# and the shared instantiations (copies, workspaces, the sorts' and scans' launch code) again.
# Measured side by side (two builds at once, scripts/build-cost.sh with STRIX_JOBS=1): the eight
# CUDA files and the CUB batch 334 CPU s apart, 238 as one unit; the whole CUDA build 448 -> 353.
# The device code is the same (same kernels, same flags). The unit takes about 3 minutes on one
# core. STRIX_CUDA_SPLIT_LIBRARY=ON keeps the files apart: parallel and incremental rebuilds of
# one feature, for development.
option(STRIX_CUDA_SPLIT_LIBRARY "CUDA builds: compile libstrix's CUDA instantiations one unit per feature instead of in one unity unit" OFF)
set(STRIX_ETI_CUDA_ONE_UNIT OFF)
if(CMAKE_UNITY_BUILD AND NOT STRIX_CUDA_SPLIT_LIBRARY AND "CUDA" IN_LIST STRIX_ETI_SPACES)
  set(STRIX_ETI_CUDA_ONE_UNIT ON)
endif()
foreach(_file IN LISTS STRIX_ETI_SOURCES)
  if(NOT STRIX_ETI_CUDA_ONE_UNIT OR NOT _file MATCHES "/strix_cuda_[^/]*$")
    set_source_files_properties(${_file} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endforeach()
