// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::larsson_sadakane (GPU-LS, see larsson_sadakane.hpp), compiled into libstrix
// by STRIX_SA_LS_INSTANTIATE(SPACE, I).
#include <memory>

#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/detail/larsson_sadakane/larsson_sadakane.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_larsson_sadakane_engine(const ExecSpace& space,
                                                                      const sa_options& options) {
  return std::make_unique<larsson_sadakane<ExecSpace, I>>(space, options);
}

}  // namespace strix::detail

#define STRIX_SA_LS_INSTANTIATE(SPACE, I)                      \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_larsson_sadakane_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
