# Explicit instantiation files of libstrix: one per feature (or construction family) and
# enabled Kokkos execution space, each instantiating it for 32- and 64-bit indices (see
# src/strix/core/eti.hpp). Separate files compile in parallel, and a change to one family
# recompiles only its files. Sets STRIX_ETI_SOURCES.
set(STRIX_ETI_SOURCES)
# definitions header|instantiation macro, one per feature
set(_strix_eti_features
  "strix/sa/detail/sa_def.hpp|STRIX_SA_INSTANTIATE"
  "strix/sa/detail/larsson_sadakane_def.hpp|STRIX_SA_LS_INSTANTIATE"
  "strix/sa/detail/difference_cover_def.hpp|STRIX_SA_DC_INSTANTIATE"
  "strix/sa/detail/divsufsort_def.hpp|STRIX_SA_DIVSUFSORT_INSTANTIATE"
  "strix/bwt/detail/bwt_def.hpp|STRIX_BWT_INSTANTIATE"
  "strix/lcp/detail/lcp_def.hpp|STRIX_LCP_INSTANTIATE"
  "strix/repeats/detail/repeats_def.hpp|STRIX_REPEATS_INSTANTIATE"
  "strix/succinct/detail/succinct_def.hpp|STRIX_SUCCINCT_INSTANTIATE")
# Kokkos device name|execution space|guard macro
set(_strix_eti_spaces
  "CUDA|Kokkos::Cuda|KOKKOS_ENABLE_CUDA"
  "OPENMP|Kokkos::OpenMP|KOKKOS_ENABLE_OPENMP"
  "SERIAL|Kokkos::Serial|KOKKOS_ENABLE_SERIAL")
foreach(_space IN LISTS _strix_eti_spaces)
  string(REPLACE "|" ";" _space "${_space}")
  list(GET _space 0 _device)
  list(GET _space 1 STRIX_ETI_SPACE)
  list(GET _space 2 STRIX_ETI_GUARD)
  if(DEFINED Kokkos_DEVICES AND NOT _device IN_LIST Kokkos_DEVICES)
    continue()
  endif()
  string(TOLOWER "${_device}" _device_lc)
  foreach(_feature IN LISTS _strix_eti_features)
    string(REPLACE "|" ";" _feature "${_feature}")
    list(GET _feature 0 _header)
    list(GET _feature 1 _macro)
    get_filename_component(_stem "${_header}" NAME_WE)
    set(STRIX_ETI_INCLUDES "#include <${_header}>")
    set(STRIX_ETI_BODY "${_macro}(${STRIX_ETI_SPACE}, std::uint32_t)\n${_macro}(${STRIX_ETI_SPACE}, std::uint64_t)")
    set(_file "${CMAKE_CURRENT_BINARY_DIR}/eti/strix_${_device_lc}_${_stem}.cpp")
    configure_file("${CMAKE_CURRENT_SOURCE_DIR}/src/eti/instantiate.cpp.in" "${_file}" @ONLY)
    list(APPEND STRIX_ETI_SOURCES "${_file}")
  endforeach()
endforeach()
# A unity batch would put the families back into one translation unit.
set_source_files_properties(${STRIX_ETI_SOURCES} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
