// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The divsufsort family's engine: libdivsufsort through the host adapter in backends/host,
// on execution spaces whose memory the host can access (divsufsort_def.hpp picks it).
#include <cstdint>
#include <limits>

#include <strix/config.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/sa/suffix_array.hpp>
#if STRIX_HAS_DIVSUFSORT
#include <strix/backend/host/divsufsort.hpp>
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
  // (divbwt's 32-bit entries: texts of up to 2^31 - 1 bytes.)
  bool makes_bwt(std::uint64_t n) override { return n <= std::uint64_t(std::numeric_limits<std::int32_t>::max()); }
  bool build_bwt(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& workspace,
                 const device_view<std::uint8_t, ExecSpace>& out, std::uint64_t& primary, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    phase_timer<ExecSpace> timer(space_, stats);
    timer.begin("divbwt");
    space_.fence();
    if (!backend::host::divsufsort_bwt(text.data(), workspace.data(), out.data(), n, primary)) return false;
    reserve(n);
    timer.progress(1.0);
    timer.end();
    if (stats) stats->peak_bytes = n + n * sizeof(I) + n + backend::host::divsufsort_scratch_bytes(n, sizeof(I));
    return true;
  }

 private:
  ExecSpace space_;
  std::uint64_t capacity_ = 0;
};
#endif

}  // namespace strix::detail
