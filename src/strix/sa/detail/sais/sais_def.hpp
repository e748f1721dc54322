// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::sais: induced sorting (SA-IS) on host memory, in about 5n bytes for 32-bit
// entries (text, suffix array, small tables). It reads the text and writes the suffix array
// in place, so it runs on execution spaces whose memory the host can access; elsewhere
// asking for it is an invalid_input error.
#include <memory>
#include <string>

#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/detail/sais/sais_engine.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_sais_engine(const ExecSpace& space, const sa_options&) {
  if constexpr (is_host_space_v<ExecSpace>) {
    return std::make_unique<sais_engine<ExecSpace, I>>(space);
  } else {
    (void)space;
    throw error(error_code::invalid_input,
                std::string("the sais algorithm runs on host backends only, not ") + ExecSpace::name());
  }
}

}  // namespace strix::detail

#define STRIX_SA_SAIS_INSTANTIATE(SPACE, I)                    \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_sais_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
