// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::text_index: a text on the device and the indexes built from it. The suffix array,
// inverse suffix array, LCP array and BWT are built on first request (each from what it
// needs, the suffix array's working memory kept in one handle and reused), kept until
// released, and every byte the index holds is accounted. Wavelet trees and the FM-index
// hang on this object. The free functions remain for callers with their own Views.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <strix/bwt/bwt.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix {

// The parts of a text_index, for has(), release() and bytes().
enum class index_part { text, suffix_array, inverse_suffix_array, lcp, bwt, sa_workspace };

template <class ExecutionSpace, class I>
class text_index {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using index_type = I;
  template <class T>
  using view = Kokkos::View<T*, memory_space>;

  // Copies n bytes of host memory into the execution space's memory.
  text_index(const ExecutionSpace& space, const std::uint8_t* host_text, std::uint64_t n,
             const sa_options& options = {})
      : space_(space), options_(options) {
    check_length(n);
    text_ = detail::allocate<std::uint8_t, memory_space>("strix::text", n);
    Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> src(host_text, n);
    Kokkos::deep_copy(space_, text_, src);
    space_.fence();
    note_peak();
  }

  // Shares a text already in the execution space's memory.
  text_index(const ExecutionSpace& space, const view<std::uint8_t>& text, const sa_options& options = {})
      : space_(space), options_(options), text_(text) {
    check_length(text.extent(0));
    note_peak();
  }

  const ExecutionSpace& space() const { return space_; }
  std::uint64_t size() const { return text_.extent(0); }
  Kokkos::View<const std::uint8_t*, memory_space> text() const { return text_; }

  // The suffix array, built on first request. `stats` receives the phases of a build.
  Kokkos::View<const I*, memory_space> suffix_array(run_stats* stats = nullptr) {
    if (!sa_built_) {
      reserve_suffix_array();
      run_stats local = stats ? stats->observers() : run_stats{};
      handle_->build(text_view<ExecutionSpace>(text_.data(), size()), device_view<I, ExecutionSpace>(sa_.data(), size()),
                     stats ? &local : nullptr);
      sa_built_ = true;
      finish_build(stats, local, bytes(index_part::text) + bytes(index_part::suffix_array) +
                                     bytes(index_part::sa_workspace));
    }
    return sa_;
  }

  // Allocates the suffix array and the construction's working memory without building, so
  // that a timed suffix_array() allocates nothing.
  void reserve_suffix_array() {
    if (!handle_) handle_ = std::make_unique<suffix_array_handle<ExecutionSpace, I>>(space_, options_);
    handle_->reserve(size());
    if (!sa_built_ && !sa_.data()) sa_ = detail::allocate<I, memory_space>("strix::sa", size());
    note_peak();
  }

  // Adopts a suffix array computed elsewhere (e.g. read from a file); with `check`, it is
  // verified first and a wrong one is an invalid_input error.
  void set_suffix_array(const view<I>& sa, bool check = true) {
    STRIX_USER_REQUIRE(sa.extent(0) == size(), "suffix array has " + std::to_string(sa.extent(0)) +
                                                   " entries for a text of " + std::to_string(size()) +
                                                   " bytes");
    if (check) {
      const auto verdict = check_suffix_array(space_, text_, sa);
      STRIX_USER_REQUIRE(verdict.ok, "not the suffix array of the text: " + verdict.message);
    }
    release(index_part::inverse_suffix_array);
    release(index_part::lcp);
    release(index_part::bwt);
    sa_ = sa;
    sa_built_ = true;
    note_peak();
  }

  Kokkos::View<const I*, memory_space> inverse_suffix_array(run_stats* stats = nullptr) {
    if (!isa_.data()) {
      auto sa = suffix_array(stats);
      isa_ = detail::allocate<I, memory_space>("strix::isa", size());
      strix::inverse_suffix_array(space_, sa, isa_);
      note_peak();
    }
    return isa_;
  }

  Kokkos::View<const I*, memory_space> lcp(run_stats* stats = nullptr) {
    if (!lcp_.data()) {
      auto sa = suffix_array(stats);
      lcp_ = detail::allocate<I, memory_space>("strix::lcp", size());
      run_stats local = stats ? stats->observers() : run_stats{};
      lcp_array(space_, text_, sa, lcp_, stats ? &local : nullptr);
      finish_build(stats, local, bytes(index_part::text) + bytes(index_part::suffix_array) +
                                     bytes(index_part::lcp));
    }
    return lcp_;
  }

  // The BWT in libdivsufsort's divbwt layout (see strix/bwt/bwt.hpp) and its primary index.
  Kokkos::View<const std::uint8_t*, memory_space> bwt(run_stats* stats = nullptr) {
    if (!bwt_.data()) {
      auto sa = suffix_array(stats);
      bwt_ = detail::allocate<std::uint8_t, memory_space>("strix::bwt", size());
      primary_ = strix::bwt(space_, text_, sa, bwt_);
      note_peak();
    }
    return bwt_;
  }
  std::uint64_t bwt_primary(run_stats* stats = nullptr) {
    bwt(stats);
    return primary_;
  }

  bool has(index_part part) const {
    switch (part) {
      case index_part::text: return text_.data() != nullptr || size() == 0;
      case index_part::suffix_array: return sa_built_;
      case index_part::inverse_suffix_array: return isa_.data() != nullptr;
      case index_part::lcp: return lcp_.data() != nullptr;
      case index_part::bwt: return bwt_.data() != nullptr;
      case index_part::sa_workspace: return handle_ && handle_->bytes() > 0;
    }
    return false;
  }

  // Frees a part; a later request builds it again. The text cannot be released.
  void release(index_part part) {
    switch (part) {
      case index_part::text: STRIX_USER_REQUIRE(false, "text_index: the text cannot be released"); break;
      case index_part::suffix_array: sa_ = {}; sa_built_ = false; break;
      case index_part::inverse_suffix_array: isa_ = {}; break;
      case index_part::lcp: lcp_ = {}; break;
      case index_part::bwt: bwt_ = {}; primary_ = 0; break;
      case index_part::sa_workspace: if (handle_) handle_->release(); break;
    }
  }

  // Bytes held now in the execution space's memory, by part and in all.
  std::size_t bytes(index_part part) const {
    switch (part) {
      case index_part::text: return text_.span();
      case index_part::suffix_array: return sa_.span() * sizeof(I);
      case index_part::inverse_suffix_array: return isa_.span() * sizeof(I);
      case index_part::lcp: return lcp_.span() * sizeof(I);
      case index_part::bwt: return bwt_.span();
      case index_part::sa_workspace: return handle_ ? handle_->bytes() : 0;
    }
    return 0;
  }
  std::size_t bytes() const {
    std::size_t total = 0;
    for (auto p : {index_part::text, index_part::suffix_array, index_part::inverse_suffix_array,
                   index_part::lcp, index_part::bwt, index_part::sa_workspace})
      total += bytes(p);
    return total;
  }
  // The most bytes held at once, including an algorithm's temporaries when its build was
  // asked for statistics.
  std::size_t peak_bytes() const { return peak_; }

 private:
  static void check_length(std::uint64_t n) {
    strix::check_length<I>(n, "text of " + std::to_string(n) + " bytes");
  }
  void note_peak() { peak_ = std::max(peak_, bytes()); }
  // `local.peak_bytes` counts the algorithm's temporaries and the parts worth `counted`.
  void finish_build(run_stats* stats, const run_stats& local, std::size_t counted) {
    note_peak();
    if (!stats) return;
    peak_ = std::max(peak_, bytes() - std::min(counted, bytes()) + local.peak_bytes);
    run_stats merged = local;
    merged.peak_bytes = peak_;
    stats->merge(merged);
  }

  ExecutionSpace space_;
  sa_options options_;
  view<std::uint8_t> text_;
  view<I> sa_, isa_, lcp_;
  view<std::uint8_t> bwt_;
  bool sa_built_ = false;
  std::uint64_t primary_ = 0;
  std::unique_ptr<suffix_array_handle<ExecutionSpace, I>> handle_;
  std::size_t peak_ = 0;
};

}  // namespace strix
