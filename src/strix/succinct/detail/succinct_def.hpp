// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the succinct feature (bit vectors, wavelet trees and matrices), included by
// libstrix's instantiation files only; STRIX_SUCCINCT_INSTANTIATE(SPACE, I) instantiates them.
#include <strix/succinct/detail/bit_vector_def.hpp>
#include <strix/succinct/detail/wavelet_build_def.hpp>
#include <strix/succinct/detail/wavelet_finish_def.hpp>
#include <strix/succinct/detail/wavelet_query_def.hpp>
#include <strix/succinct/detail/wavelet_stream_def.hpp>

// libstrix compiles these in two files per execution space (the wavelet builds; the bit
// vectors and wavelet queries), so that they compile in parallel.
#define STRIX_WAVELET_BUILD_INSTANTIATE_ONE(SYM, SPACE) STRIX_WAVELET_BUILD_DECLARE(, SPACE, SYM)
#define STRIX_WAVELET_QUERY_INSTANTIATE_ONE(SYM, SHAPE, SPACE, I) STRIX_WAVELET_QUERY_DECLARE(, SPACE, SYM, I, SHAPE)
// Per execution space: the wavelet builds.
#define STRIX_WAVELET_BUILD_INSTANTIATE(SPACE) STRIX_WAVELET_FOR_EACH_SYMBOL(STRIX_WAVELET_BUILD_INSTANTIATE_ONE, SPACE)
// Per execution space and index type: the wavelet queries.
#define STRIX_WAVELET_QUERY_INSTANTIATE(SPACE, I) \
  STRIX_WAVELET_FOR_EACH_KIND(STRIX_WAVELET_QUERY_INSTANTIATE_ONE, SPACE, I)
// Everything for another execution space: STRIX_SUCCINCT_INSTANTIATE_SPACE(SPACE) once, then
// STRIX_SUCCINCT_INSTANTIATE(SPACE, I) for each index type.
#define STRIX_SUCCINCT_INSTANTIATE_SPACE(SPACE) STRIX_WAVELET_BUILD_INSTANTIATE(SPACE)
#define STRIX_SUCCINCT_INSTANTIATE(SPACE, I) \
  STRIX_BIT_VECTOR_INSTANTIATE(SPACE, I)     \
  STRIX_WAVELET_QUERY_INSTANTIATE(SPACE, I)
