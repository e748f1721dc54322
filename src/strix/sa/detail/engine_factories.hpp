// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One factory per construction family, each defined in the family's folder
// (<family>/<family>_def.hpp) and compiled into libstrix by its instantiation macro (see
// cmake/StrixInstantiations.cmake: the larger families in files of their own, so that they
// build in parallel and a change to one recompiles only it). make_sa_engine (sa_def.hpp)
// dispatches.
#include <memory>

#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

// sa_algorithm::prefix_doubling
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_prefix_doubling_engine(const ExecSpace& space, const sa_options& options);
// sa_algorithm::larsson_sadakane
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_larsson_sadakane_engine(const ExecSpace& space, const sa_options& options);
// sa_algorithm::skew, hybrid and dcx
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_difference_cover_engine(const ExecSpace& space, const sa_options& options);
// sa_algorithm::divsufsort (host execution spaces; an invalid_input error elsewhere)
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_divsufsort_engine(const ExecSpace& space, const sa_options& options);
// sa_algorithm::sais (host execution spaces; an invalid_input error elsewhere)
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_sais_engine(const ExecSpace& space, const sa_options& options);

}  // namespace strix::detail
