// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::wavelet_tree: the level-wise wavelet tree with the thesis' reduced codes (every
// node has two children); see wavelet.hpp for the API and the query semantics.
#include <strix/succinct/wavelet.hpp>

namespace strix {

template <class ExecutionSpace, class Symbol, class I>
using wavelet_tree = wavelet<ExecutionSpace, Symbol, I, wavelet_shape::tree>;

}  // namespace strix
