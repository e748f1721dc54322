// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::divsufsort: libdivsufsort (single-threaded, induced sorting) behind the
// host adapter in backends/openmp. It reads the text and writes the suffix array in place,
// so it runs on execution spaces whose memory the host can access; elsewhere, and in
// builds without libdivsufsort, asking for it is an invalid_input error.
#include <cstdint>
#include <memory>
#include <string>

#include <strix/config.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/core/device_view.hpp>
#include <strix/sa/detail/engine_factories.hpp>
#if STRIX_HAS_DIVSUFSORT
#include <strix/backend/openmp/divsufsort.hpp>
#endif

namespace strix::detail {

#if STRIX_HAS_DIVSUFSORT
template <class ExecSpace, class I>
class divsufsort_engine final : public sa_engine<ExecSpace, I> {
 public:
  explicit divsufsort_engine(const ExecSpace& space) : space_(space) {}
  std::uint64_t capacity() const override { return capacity_; }
  std::size_t bytes() const override { return 0; }  // libdivsufsort allocates per call
  void reserve(std::uint64_t n) override { capacity_ = n > capacity_ ? n : capacity_; }
  void release() override {}
  void build(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& sa, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    reserve(n);
    phase_timer<ExecSpace> timer(space_, stats);
    timer.begin("divsufsort");
    space_.fence();  // the text may still be in flight
    backend::host::divsufsort_suffix_array(text.data(), sa.data(), n);
    timer.progress(1.0);
    timer.end();
    if (stats) stats->peak_bytes = n + n * sizeof(I) + backend::host::divsufsort_scratch_bytes(n, sizeof(I));
  }

 private:
  ExecSpace space_;
  std::uint64_t capacity_ = 0;
};
#endif

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
