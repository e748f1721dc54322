// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::hybrid (X = 3) and dcx (X = 7, 13, 21): the skew/prefix-doubling hybrid of
// Wang-Baxter-Owens over a difference cover. The sample (|D| of every X suffixes) is
// sorted by its first X symbols, then ranked by prefix doubling over the sample alone
// (strix's prefix doubling, in "units": a shift by X positions is one by |D| units, so a
// doubling round only ever looks up sample ranks); no recursion. The other suffixes are
// then sorted per class and merged in (induce_merge.hpp) — in pieces of the suffix order
// (pieces.hpp) where the merge's buffers would not fit the memory the sample's ranking frees.
//
// Memory, for the sample's share s = |D| / X: the sample is ranked with 32-bit entries whatever
// the index type (units below 2^32 - 1: texts up to about 10^10 bytes at X = 7), in prefix
// doubling's 34 bytes a unit plus the caller's SA as its sort buffer; the merge then takes
// sizeof(I) + 16 bytes a suffix of a piece from the rounds' free pairs (24 bytes a unit), so it
// adds nothing. With the caller's text and SA: 32-bit DC21 about 13n, DC13 16n, DC7 20n,
// DC3 28n; 64-bit DC21 about 17n (sa_options::dc_piece_rows caps a piece instead).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/sa/detail/difference_cover/dc_engine.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/sa/detail/difference_cover/induce_merge.hpp>
#include <strix/sa/detail/difference_cover/piece_order.hpp>
#include <strix/sa/detail/difference_cover/pieces.hpp>
#include <strix/sa/detail/prefix_doubling/prefix_doubling.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
class dc_hybrid final : public dc_engine<dc_hybrid<ExecSpace, I>, ExecSpace, I> {
  using base = dc_engine<dc_hybrid<ExecSpace, I>, ExecSpace, I>;
  using base::cover_, base::mem_, base::space_, base::ws_;
  using unit_index = std::uint32_t;  // the sample's entries (see above)
  using unit_view = device_view<unit_index, ExecSpace>;

 public:
  using typename base::index_view, typename base::memory_space, typename base::policy;

  dc_hybrid(const ExecSpace& space, unsigned period, std::uint64_t piece_rows = 0)
      : base(space, period), sample_(space), piece_limit_(piece_rows) {}

  std::size_t bytes() const override { return mem_.current() + sample_.bytes(); }

  // The suffixes a piece's merge buffers hold in the sample's free pairs (sizeof(I) for the
  // merge's positions, 16 for two packed keys), or the caller's cap.
  std::uint64_t spare_rows() const {
    const std::uint64_t room = sample_.spare_size() / (sizeof(I) + 2 * sizeof(std::uint64_t));
    return room > 64 ? room - 64 : 1;  // (alignment of the keys)
  }
  std::uint64_t piece_capacity() const {
    return piece_limit_ ? std::max<std::uint64_t>(1, std::min(spare_rows(), piece_limit_)) : spare_rows();
  }

  // The construction's part of dc_engine: the sample's doubling; the pieces' splitters, bin
  // counts and marks where the whole text is more than a piece.
  void reserve_family(std::size_t cap) {
    const std::uint64_t m = cover_.sample_below(cap);
    STRIX_USER_REQUIRE(m <= max_text_length<unit_index>(),
                       "dc" + std::to_string(cover_.period) + " takes texts of up to about " +
                           std::to_string(max_text_length<unit_index>() / cover_.size * cover_.period) +
                           " bytes (its sample is ranked with 32-bit entries); use a larger period or prefix doubling");
    sample_.reserve(std::max<std::uint64_t>(m, 2));
    const std::uint64_t rows = std::min<std::uint64_t>(cap, piece_capacity());
    if (rows < cap) {
      splitters_ = allocate<std::uint64_t, memory_space>("strix::dc_splitters", 2 * max_piece_splitters, &mem_);  // and keys
      bin_counts_ = allocate<std::uint64_t, memory_space>("strix::dc_bin_counts", max_piece_splitters + 1, &mem_);
      marks_ = allocate<std::uint32_t, memory_space>("strix::dc_piece_marks", mark_words(cap), &mem_);
    }
    ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, unit_index>(space_, std::max<std::uint64_t>(m, 2)));
    ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space_, rows));
  }
  void release_family() {
    sample_.release();
    detail::release(splitters_, &mem_);
    detail::release(bin_counts_, &mem_);
    detail::release(marks_, &mem_);
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
      const sample_rank<ExecSpace, unit_index> rank{device_view<const unit_index, ExecSpace>(sample_.ranks().data(), m),
                                                    cover_, n};
      std::uint64_t pieces = 1;
      if (n <= piece_capacity()) merge_whole(sym, rank, sa, timer);
      else pieces = merge_in_pieces(sym, rank, sa, timer);
      if (stats) {
        stats->set_counter("rounds", rounds);
        stats->set_counter("sample", m);
        stats->set_counter("pieces", pieces);
      }
    }
    timer.end();
    if (stats) stats->peak_bytes = mem_.peak() + sample_.peak_bytes() + n + n * sizeof(I);
  }

  // The sample units sorted by their first X symbols and named, then ranked by doubling
  // from there (X symbols = |D| units), with the caller's SA as scratch. Public for CUDA lambdas.
  int rank_sample(const byte_symbols<ExecSpace>& sym, std::uint64_t m, const index_view& sa,
                  phase_timer<ExecSpace>& timer) {
    if (m == 0) return 0;
    timer.begin("sample sort");
    const unit_view units = sample_.presorted_suffixes(m);
    Kokkos::parallel_for(
        "strix::dc_units", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t u) { units(u) = unit_index(u); });
    const unit_view scratch(reinterpret_cast<unit_index*>(sa.data()), m);  // (m < n entries of I)
    const sample_prefix_key<byte_symbols<ExecSpace>> key{
        symbol_digits<byte_symbols<ExecSpace>>::make(sym, static_cast<int>(cover_.period)), cover_};
    lsd_sort(space_, ws_, key, sample_.presorted_keys(m), sample_.spare_keys(m), units, scratch);
    name_sorted_units(space_, sym, cover_, static_cast<int>(cover_.period), units, sample_.presorted_keys(m));
    return sample_.rank_presorted(m, cover_.size, scratch, timer);
  }

  // Every suffix at once: the classes made and sorted in place, merged (induce_merge.hpp), with
  // the buffers in the sample's free pairs.
  void merge_whole(const byte_symbols<ExecSpace>& sym, const sample_rank<ExecSpace, unit_index>& rank,
                   const index_view& sa, phase_timer<ExecSpace>& timer) {
    const std::uint64_t n = sa.extent(0), cls = n / cover_.period + 2;
    const auto [merge_buf, keys] = piece_buffers(sample_.spare_bytes(), n);
    const induce_buffers<ExecSpace, I> buf{device_view<std::uint64_t, ExecSpace>(keys.data(), cls),
                                           device_view<std::uint64_t, ExecSpace>(keys.data() + cls, cls),
                                           index_view(merge_buf.data(), cls), merge_buf, keys};
    induce_and_merge<ExecSpace, I>(space_, ws_, timer, cover_, sym, n, rank.ranks, sa, buf);
  }

  // In pieces (pieces.hpp), each ordered in its rows of `sa`; returns how many. Pieces with more
  // rows than the free pairs hold (a bin beyond a capped piece, or beyond the pairs: its
  // splitters' sample missed a dense stretch of the order) take a buffer of their own.
  std::uint64_t merge_in_pieces(const byte_symbols<ExecSpace>& sym, const sample_rank<ExecSpace, unit_index>& rank,
                                const index_view& sa, phase_timer<ExecSpace>& timer) {
    const std::uint64_t n = sa.extent(0), m = rank.ranks.extent(0);
    timer.begin("piece splitters");
    const device_view<std::uint64_t, ExecSpace> split_buf(splitters_.data(), max_piece_splitters),
        key_buf(splitters_.data() + max_piece_splitters, max_piece_splitters);
    // The splitters' sample in the free pairs (the pieces take them only after the bins are
    // counted), or, for a text too short for 1024 samples there, in a small buffer of its own.
    const std::uint64_t per = 1 + 2 * std::uint64_t(cover_.period), wanted = std::min(n, piece_samples);
    std::uint64_t fit = sample_.spare_size() / (per * sizeof(std::uint64_t));
    Kokkos::View<std::uint64_t*, memory_space> small;
    std::uint64_t* gathered = reinterpret_cast<std::uint64_t*>(sample_.spare_bytes());
    if (fit < std::min<std::uint64_t>(wanted, 1024)) {
      fit = std::min<std::uint64_t>(wanted, 1024);
      small = allocate<std::uint64_t, memory_space>("strix::dc_piece_samples", fit * per, &mem_);
      gathered = small.data();
    }
    const std::uint64_t count = pick_splitters(space_, sym, rank, n,
                                               device_view<std::uint64_t, ExecSpace>(gathered, std::min(fit, wanted) * per),
                                               split_buf, key_buf);
    if (small.data()) space_.fence();  // (the splitters' kernels read it: no free under them)
    detail::release(small, &mem_);
    const auto bin = suffix_bin<ExecSpace, byte_symbols<ExecSpace>, unit_index>::make(
        sym, rank, device_view<const std::uint64_t, ExecSpace>(split_buf.data(), count),
        device_view<const std::uint64_t, ExecSpace>(key_buf.data(), count));
    timer.begin("piece bins");
    const device_view<std::uint64_t, ExecSpace> counts(bin_counts_.data(), count + 1);
    count_bins(space_, bin, n, counts);
    const auto host_counts = strix::to_host(space_, counts);
    const std::vector<suffix_piece> pieces =
        plan_pieces(std::vector<std::uint64_t>(host_counts.data(), host_counts.data() + count + 1), piece_capacity());
    std::uint64_t largest = 0;
    for (const auto& p : pieces) largest = std::max(largest, p.rows);
    Kokkos::View<unsigned char*, memory_space> extra;
    unsigned char* room = sample_.spare_bytes();
    if (largest > spare_rows()) {
      extra = allocate<unsigned char, memory_space>("strix::dc_piece_overflow", piece_bytes(largest), &mem_);
      room = extra.data();
    }
    try {
      for (const auto& p : pieces) {
        timer.begin("piece select");
        STRIX_REQUIRE(mark_piece(space_, bin, n, p, marks_) == p.rows);
        const index_view own(sa.data() + p.first_row, p.rows);
        STRIX_REQUIRE(primitives::select_indices(space_, ws_, std::int64_t(n), marked<ExecSpace>{marks_}, own) == p.rows);
        const auto [merge_buf, keys] = piece_buffers(room, p.rows);
        order_piece(space_, ws_, cover_, sym, rank, m, own, merge_buf, keys, timer,
                    piece_phases{"piece runs", "nonsample sort", "merge"});
      }
    } catch (...) {
      detail::release(extra, &mem_);
      throw;
    }
    detail::release(extra, &mem_);
    return pieces.size();
  }

 private:
  // A piece's merge positions and keys (2 rows) carved from `room` (piece_bytes(rows) bytes).
  static std::size_t keys_at(std::uint64_t rows) { return (rows * sizeof(I) + 255) / 256 * 256; }
  static std::size_t piece_bytes(std::uint64_t rows) { return keys_at(rows) + 2 * rows * sizeof(std::uint64_t); }
  static std::pair<index_view, device_view<std::uint64_t, ExecSpace>> piece_buffers(unsigned char* room, std::uint64_t rows) {
    return {index_view(reinterpret_cast<I*>(room), rows),
            device_view<std::uint64_t, ExecSpace>(reinterpret_cast<std::uint64_t*>(room + keys_at(rows)), 2 * rows)};
  }

  prefix_doubling<ExecSpace, unit_index> sample_;
  std::uint64_t piece_limit_ = 0;
  Kokkos::View<std::uint64_t*, memory_space> splitters_, bin_counts_;
  Kokkos::View<std::uint32_t*, memory_space> marks_;
};

}  // namespace strix::detail
