// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::wavelet_matrix: every level holds all n symbols, stably partitioned by the
// previous level's bit; the same API as the wavelet tree (see wavelet.hpp).
#include <strix/succinct/wavelet.hpp>

namespace strix {

template <class ExecutionSpace, class Symbol, class I>
using wavelet_matrix = wavelet<ExecutionSpace, Symbol, I, wavelet_shape::matrix>;

}  // namespace strix
