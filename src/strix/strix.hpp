// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix: suffix arrays and friends on Kokkos. Include this for the whole public API.
#include <strix/bwt/bwt.hpp>
#include <strix/core/stats.hpp>
#include <strix/error.hpp>
#include <strix/index/text_index.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/lcp/sequential.hpp>
#include <strix/repeats/repeats.hpp>
#include <strix/repeats/sequential.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>
#include <strix/version.hpp>
