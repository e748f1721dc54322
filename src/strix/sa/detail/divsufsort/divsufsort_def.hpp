// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::divsufsort: libdivsufsort (single-threaded, induced sorting) behind the
// host adapter in backends/host. It reads the text and writes the suffix array in place,
// so it runs on execution spaces whose memory the host can access; elsewhere, and in
// builds without libdivsufsort, asking for it is an invalid_input error.
#include <cstdint>
#include <memory>
#include <string>

#include <strix/config.hpp>
#include <strix/sa/detail/divsufsort/divsufsort_engine.hpp>
#include <strix/sa/detail/engine_factories.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_divsufsort_engine(const ExecSpace& space, const sa_options&) {
#if STRIX_HAS_DIVSUFSORT
  if constexpr (is_host_space_v<ExecSpace>) {
    return std::make_unique<divsufsort_engine<ExecSpace, I>>(space);
  } else {
    (void)space;
    throw error(error_code::invalid_input, std::string("the divsufsort algorithm runs on host backends only, not ") +
                                               ExecSpace::name());
  }
#else
  (void)space;
  throw error(error_code::invalid_input, "this strix is built without libdivsufsort (the divsufsort algorithm)");
#endif
}

}  // namespace strix::detail

#define STRIX_SA_DIVSUFSORT_INSTANTIATE(SPACE, I)               \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>> \
  strix::detail::make_divsufsort_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
