#pragma once
// Definitions of the succinct feature (bit vectors, wavelet trees and matrices), included by
// libstrix's instantiation files only; STRIX_SUCCINCT_INSTANTIATE(SPACE, I) instantiates them.
#include <strix/succinct/detail/bit_vector_def.hpp>
#include <strix/succinct/detail/wavelet_build_def.hpp>
#include <strix/succinct/detail/wavelet_finish_def.hpp>
#include <strix/succinct/detail/wavelet_query_def.hpp>
#include <strix/succinct/detail/wavelet_stream_def.hpp>

#define STRIX_WAVELET_INSTANTIATE_ONE(SPACE, SYM, I, SHAPE)                                                \
  template void strix::detail::build_wavelet<SPACE, SYM, I, SHAPE>(                                        \
      const SPACE&, const strix::device_view<const SYM, SPACE>&, strix::detail::wavelet_data<SPACE, SYM>&, \
      const strix::wavelet_options&, strix::run_stats*);                                                   \
  template void strix::detail::build_wavelet_streamed<SPACE, SYM, I, SHAPE>(                               \
      const SPACE&, const SYM*, std::uint64_t, strix::detail::wavelet_data<SPACE, SYM>&,                   \
      const strix::wavelet_options&, strix::run_stats*);                                                   \
  template void strix::detail::wavelet_sorted_queries<SPACE, SYM, I, SHAPE>(                               \
      const SPACE&, const strix::wavelet_ref<SYM, I, SHAPE>&, strix::wavelet_query,                        \
      const strix::device_view<const SYM, SPACE>&, const strix::device_view<const I, SPACE>&,              \
      const strix::device_view<I, SPACE>&, const strix::device_view<std::uint64_t, SPACE>&);               \
  template void strix::detail::finish_wavelet<SPACE, SYM, I, SHAPE>(                                       \
      const SPACE&, strix::detail::wavelet_data<SPACE, SYM>&, const strix::wavelet_options&, bool);        \
  template void strix::detail::wavelet_queries<SPACE, SYM, I, SHAPE>(                                      \
      const SPACE&, const strix::wavelet_ref<SYM, I, SHAPE>&, strix::wavelet_query,                        \
      const strix::device_view<const SYM, SPACE>&, const strix::device_view<const I, SPACE>&,              \
      const strix::device_view<I, SPACE>&, const strix::device_view<SYM, SPACE>&,                          \
      const strix::device_view<std::uint64_t, SPACE>&);

#define STRIX_SUCCINCT_INSTANTIATE(SPACE, I)                                          \
  STRIX_BIT_VECTOR_INSTANTIATE(SPACE, I)                                              \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint8_t, I, strix::wavelet_shape::tree)   \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint16_t, I, strix::wavelet_shape::tree)  \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint32_t, I, strix::wavelet_shape::tree)  \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint8_t, I, strix::wavelet_shape::matrix) \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint16_t, I, strix::wavelet_shape::matrix) \
  STRIX_WAVELET_INSTANTIATE_ONE(SPACE, std::uint32_t, I, strix::wavelet_shape::matrix)
