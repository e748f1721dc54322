#pragma once
// sa_algorithm::larsson_sadakane (GPU-LS). Placeholder until the construction lands.
#include <memory>

#include <strix/sa/detail/engine_factories.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_larsson_sadakane_engine(const ExecSpace&, const sa_options&) {
  throw error(error_code::invalid_input, "the larsson-sadakane algorithm is not built yet");
}

}  // namespace strix::detail

#define STRIX_SA_LS_INSTANTIATE(SPACE, I)        \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_larsson_sadakane_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
