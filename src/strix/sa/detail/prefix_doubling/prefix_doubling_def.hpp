// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::prefix_doubling (prefix_doubling.hpp), compiled into libstrix by
// STRIX_SA_PD_INSTANTIATE(SPACE, I).
#include <memory>

#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/detail/prefix_doubling/prefix_doubling.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_prefix_doubling_engine(const ExecSpace& space, const sa_options&) {
  return std::make_unique<prefix_doubling<ExecSpace, I>>(space);
}

}  // namespace strix::detail

#define STRIX_SA_PD_INSTANTIATE(SPACE, I)                      \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_prefix_doubling_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
