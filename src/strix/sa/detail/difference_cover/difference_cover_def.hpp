// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::skew, hybrid and dcx: the difference-cover constructions
// (difference_cover/): skew recurses (DC3), hybrid and dcx rank their sample by prefix
// doubling (X = 3 for hybrid, sa_options::dcx_period for dcx).
#include <memory>

#include <strix/sa/detail/difference_cover/hybrid.hpp>
#include <strix/sa/detail/difference_cover/skew.hpp>
#include <strix/sa/detail/engine_factories.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_difference_cover_engine(const ExecSpace& space, const sa_options& options) {
  switch (options.algorithm) {
    case sa_algorithm::skew: return std::make_unique<dc_skew<ExecSpace, I>>(space);
    case sa_algorithm::hybrid: return std::make_unique<dc_hybrid<ExecSpace, I>>(space, 3, options.dc_piece_rows);
    case sa_algorithm::dcx:
      return std::make_unique<dc_hybrid<ExecSpace, I>>(space, options.dcx_period, options.dc_piece_rows);
    default: break;
  }
  throw error(error_code::invalid_input, "not a difference-cover algorithm: " + algorithm_name(options));
}

}  // namespace strix::detail

#define STRIX_SA_DC_INSTANTIATE(SPACE, I)        \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_difference_cover_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
