// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::hybrid (X = 3) and dcx (X = 7, 13, 21): the skew/prefix-doubling hybrid of
// Wang-Baxter-Owens over a difference cover. The sample (|D| of every X suffixes) is
// sorted by its first X symbols, then ranked by prefix doubling over the sample alone
// (strix's prefix doubling, in "units": a shift by X positions is one by |D| units, so a
// doubling round only ever looks up sample ranks); no recursion. The other suffixes are
// then sorted per class and merged in (induce_merge.hpp).
//
// Memory, for I = uint32 and the sample's share s = |D| / X: the prefix doubling's 39 bytes
// a unit (39s n), the merge buffers (4n positions, 16n packed symbols, which the class
// sorts' keys share; their values 4n / X), plus the caller's text and SA (5n).
// DC3: about 51n; DC7: 42n; DC13: 37n; DC21: 35n.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/sa/detail/difference_cover/dc_engine.hpp>
#include <strix/sa/detail/difference_cover/induce_merge.hpp>
#include <strix/sa/detail/prefix_doubling/prefix_doubling.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
class dc_hybrid final : public dc_engine<dc_hybrid<ExecSpace, I>, ExecSpace, I> {
  using base = dc_engine<dc_hybrid<ExecSpace, I>, ExecSpace, I>;
  using base::cover_, base::mem_, base::merge_buf_, base::space_, base::ws_;

 public:
  using typename base::index_view, typename base::memory_space;

  dc_hybrid(const ExecSpace& space, unsigned period) : base(space, period), sample_(space) {}

  std::size_t bytes() const override { return mem_.current() + sample_.bytes(); }

  // The construction's part of dc_engine: the sample's doubling, the class sorts' buffers.
  void reserve_family(std::size_t cap) {
    const std::size_t cls = cap / cover_.period + 2;
    sample_.reserve(std::max<std::uint64_t>(cover_.sample_below(cap), 2));
    keys_ = allocate<std::uint64_t, memory_space>("strix::dc_merge_keys", 2 * cap, &mem_);  // class keys first
    vals_alt_ = allocate<I, memory_space>("strix::dc_class_vals", cls, &mem_);
    ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space_, std::max<std::size_t>(cls, cover_.sample_below(cap))));
  }
  void release_family() {
    sample_.release();
    detail::release(keys_, &mem_);
    detail::release(vals_alt_, &mem_);
  }

  void build(const text_view<ExecSpace>& text, const index_view& sa, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    this->reserve(n);
    phase_timer<ExecSpace> timer(space_, stats);
    if (n <= 1) {
      if (n == 1) strix::fill(space_, sa, I(0));
    } else {
      const byte_symbols<ExecSpace> sym = this->text_symbols(text, timer);
      const std::uint64_t m = cover_.sample_below(n);
      const int rounds = rank_sample(sym, m, sa, timer);
      const std::size_t cls = vals_alt_.extent(0);
      const cover_buffers buf{device_view<std::uint64_t, ExecSpace>(keys_.data(), cls),
                              device_view<std::uint64_t, ExecSpace>(keys_.data() + cls, cls),
                              index_view(vals_alt_.data(), cls), index_view(merge_buf_.data(), n),
                              device_view<std::uint64_t, ExecSpace>(keys_.data(), 2 * n)};
      induce_and_merge<ExecSpace, I>(space_, ws_, timer, cover_, sym, n,
                                     device_view<const I, ExecSpace>(sample_.ranks().data(), m), sa, buf);
      if (stats) {
        stats->set_counter("rounds", rounds);
        stats->set_counter("sample", m);
      }
    }
    timer.end();
    if (stats) stats->peak_bytes = mem_.peak() + sample_.peak_bytes() + n + n * sizeof(I);
  }

  // The sample units sorted by their first X symbols and named, then ranked by doubling
  // from there (X symbols = |D| units). Public for CUDA lambdas.
  int rank_sample(const byte_symbols<ExecSpace>& sym, std::uint64_t m, const index_view& sa,
                  phase_timer<ExecSpace>& timer) {
    if (m == 0) return 0;
    timer.begin("sample sort");
    const index_view units = sample_.presorted_suffixes(m);
    Kokkos::parallel_for(
        "strix::dc_units", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space_, 0, m),
        KOKKOS_LAMBDA(const std::int64_t u) { units(u) = static_cast<I>(u); });
    const index_view scratch(sa.data(), m);
    const sample_prefix_key<byte_symbols<ExecSpace>> key{
        symbol_digits<byte_symbols<ExecSpace>>::make(sym, static_cast<int>(cover_.period)), cover_};
    lsd_sort(space_, ws_, key, sample_.presorted_keys(m), sample_.spare_keys(m), units, scratch);
    name_sorted_units(space_, sym, cover_, static_cast<int>(cover_.period), units, sample_.presorted_keys(m));
    return sample_.rank_presorted(m, cover_.size, scratch, timer);
  }

 private:
  using cover_buffers = induce_buffers<ExecSpace, I>;

  prefix_doubling<ExecSpace, I> sample_;
  Kokkos::View<I*, memory_space> vals_alt_;
  Kokkos::View<std::uint64_t*, memory_space> keys_;
};

}  // namespace strix::detail
