#pragma once
// sa_algorithm::skew, hybrid and dcx. Placeholder until the constructions land.
#include <memory>

#include <strix/sa/detail/engine_factories.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_difference_cover_engine(const ExecSpace&, const sa_options& options) {
  throw error(error_code::invalid_input, "the " + algorithm_name(options) + " algorithm is not built yet");
}

}  // namespace strix::detail

#define STRIX_SA_DC_INSTANTIATE(SPACE, I)        \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_difference_cover_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
