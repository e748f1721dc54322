// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The sais family's engine: induced sorting through the host code in backends/host, on
// execution spaces whose memory the host can access (sais_def.hpp picks it), with as many
// threads as the space has. Its working memory is the suffix array itself and two small
// tables, so there is nothing to keep between calls. It also makes the BWT without a suffix
// array (its last scans write each row's symbol).
#include <cstdint>

#include <strix/backend/host/induced_sort.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
class sais_engine final : public sa_engine<ExecSpace, I> {
 public:
  explicit sais_engine(const ExecSpace& space) : space_(space) {}
  std::uint64_t capacity() const override { return capacity_; }
  std::size_t bytes() const override { return 0; }
  void reserve(std::uint64_t n) override { capacity_ = n > capacity_ ? n : capacity_; }
  void release() override {}
  void build(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& sa, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    reserve(n);
    phase_timer<ExecSpace> timer(space_, stats);
    timer.begin("induced_sort");
    space_.fence();  // the text may still be in flight
    const std::size_t scratch = backend::host::induced_suffix_array(text.data(), sa.data(), n, space_.concurrency());
    timer.progress(1.0);
    timer.end();
    if (stats) stats->peak_bytes = n + n * sizeof(I) + scratch;
  }
  bool makes_bwt(std::uint64_t) override { return true; }
  bool build_bwt(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& workspace,
                 const device_view<std::uint8_t, ExecSpace>& out, std::uint64_t& primary, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    reserve(n);
    phase_timer<ExecSpace> timer(space_, stats);
    timer.begin("induced_bwt");
    space_.fence();
    std::size_t scratch = 0;
    primary = backend::host::induced_bwt(text.data(), workspace.data(), out.data(), n, space_.concurrency(), &scratch);
    timer.progress(1.0);
    timer.end();
    if (stats) stats->peak_bytes = n + n * sizeof(I) + n + scratch;
    return true;
  }

 private:
  ExecSpace space_;
  std::uint64_t capacity_ = 0;
};

}  // namespace strix::detail
