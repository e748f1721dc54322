// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the difference-cover constructions share (skew.hpp, hybrid.hpp): the cover, the
// working memory's common part (the merge buffer, the alphabet map, the primitives' scratch),
// its reserve / release skeleton, and the text's symbols every level reads.
//
// A construction derives from dc_engine<Family, ExecSpace, I> and provides, publicly:
//   void reserve_family(std::size_t cap);  its own buffers (allocated on mem_) and scratch sizes
//   void release_family();
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>

#include <strix/core/bits.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/workspace.hpp>
#include <strix/sa/detail/difference_cover/cover.hpp>
#include <strix/sa/detail/difference_cover/symbols.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

template <class Family, class ExecSpace, class I>
class dc_engine : public sa_engine<ExecSpace, I> {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using index_view = device_view<I, ExecSpace>;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

  dc_engine(const ExecSpace& space, unsigned period)
      : space_(space), cover_(make_difference_cover(period)), ws_(&mem_) {}

  std::uint64_t capacity() const override { return capacity_; }
  std::size_t bytes() const override { return mem_.current(); }

  // Grows the working memory to texts of n bytes (never shrinks).
  void reserve(std::uint64_t n) override {
    if (n <= capacity_ && capacity_ > 0) return;
    require_sa_length<I, ExecSpace>(n);
    release();  // the old buffers first, so that growing does not need both at once
    const std::size_t cap = std::max<std::size_t>(n, 2);
    family().reserve_family(cap);
    present_ = allocate<std::uint32_t, memory_space>("strix::dc_alphabet", 256, &mem_);
    rank_of_ = allocate<std::uint16_t, memory_space>("strix::dc_char_rank", 256, &mem_);
    capacity_ = cap;
  }

  void release() override {
    family().release_family();
    detail::release(merge_buf_, &mem_);
    detail::release(present_, &mem_);
    detail::release(rank_of_, &mem_);
    ws_.release();
    capacity_ = 0;
  }

 protected:
  Family& family() { return static_cast<Family&>(*this); }

  // The text's bytes as ranks in its alphabet (1..sigma; 0 past the end), as every level
  // reads them.
  byte_symbols<ExecSpace> text_symbols(const text_view<ExecSpace>& text, phase_timer<ExecSpace>& timer) {
    timer.begin("alphabet");
    const unsigned sigma = map_alphabet(space_, text, device_view<std::uint32_t, ExecSpace>(present_.data(), 256),
                                        device_view<std::uint16_t, ExecSpace>(rank_of_.data(), 256));
    return byte_symbols<ExecSpace>{text, device_view<const std::uint16_t, ExecSpace>(rank_of_.data(), 256),
                                   text.extent(0), bits_for(sigma)};
  }

  ExecSpace space_;
  difference_cover cover_;
  memory_tracker mem_;
  primitives::workspace<ExecSpace> ws_;
  std::size_t capacity_ = 0;
  Kokkos::View<I*, memory_space> merge_buf_;  // (the families that need one allocate it)
  Kokkos::View<std::uint32_t*, memory_space> present_;  // 1 for the bytes the text has
  Kokkos::View<std::uint16_t*, memory_space> rank_of_;
};

}  // namespace strix::detail
