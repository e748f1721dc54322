#pragma once
// strix: suffix arrays and friends on Kokkos. Include this for the whole public API.
#include <strix/bwt.hpp>
#include <strix/check.hpp>
#include <strix/error.hpp>
#include <strix/inverse_suffix_array.hpp>
#include <strix/lcp.hpp>
#include <strix/options.hpp>
#include <strix/repeats.hpp>
#include <strix/suffix_array.hpp>
#include <strix/version.hpp>
