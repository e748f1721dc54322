// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix: suffix arrays and friends on Kokkos. Include this for the whole public API, or one
// feature's own header (strix/sa/suffix_array.hpp, strix/succinct/wavelet_tree.hpp, ...):
// each includes what it needs.
#include <strix/bwt/bwt.hpp>
#include <strix/bwt/inverse_bwt.hpp>
#include <strix/core/length.hpp>
#include <strix/core/stats.hpp>
#include <strix/error.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/index/text_index.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/lcp/sequential.hpp>
#include <strix/repeats/repeats.hpp>
#include <strix/repeats/sequential.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/generalized_suffix_array.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>
#include <strix/succinct/bit_vector.hpp>
#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>
#include <strix/version.hpp>
