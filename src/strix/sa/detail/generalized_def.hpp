// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the generalized suffix array (strix/sa/generalized_suffix_array.hpp) and its
// checker, included by libstrix's instantiation files only; STRIX_SA_GSA_INSTANTIATE(SPACE, I)
// instantiates them.
//
// The text is copied with a code of w bytes after each separator: separator j (counting from
// 0 in text order) is followed by j in big-endian. A comparison of two suffixes of the copy
// that reaches separators at the same offset ends within their codes, so the copy's suffix
// array orders the text's suffixes as the generalized order does, whatever algorithm built
// it. The rows of code bytes are then dropped and the others mapped back (a position q of the
// copy is q - (code bytes before q) in the text), read through a bit vector of the code bytes
// with a count of code bytes before each 64-bit word in an array of its own (the two loads are
// independent and overlap; the counts beside the words measured slower, english.lines' mapping
// back 0.20-0.32 s against 0.14-0.17, and took 0.11n more bytes).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/sa/detail/check_def.hpp>
#include <strix/sa/generalized_suffix_array.hpp>
#include <strix/succinct/detail/word_ops.hpp>

namespace strix::detail {

// Bytes of the code that numbers `separators` separators (0 .. separators - 1).
inline int separator_code_bytes(std::uint64_t separators) {
  int w = 1;
  while (w < 8 && (separators - 1) >> (8 * w) != 0) ++w;
  return w;
}

template <class ExecSpace, class I>
void generalized_suffix_array(const ExecSpace& space, const text_view<ExecSpace>& text,
                              const device_view<I, ExecSpace>& sa, suffix_array_handle<ExecSpace, I>& handle,
                              run_stats* stats, bool copy_apart) {
  using mem = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = text.extent(0);
  std::uint64_t separators = 0;
  if (n > 0)
    Kokkos::parallel_reduce(
        "strix::gsa_count_separators", policy(space, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& count) { count += text(i) == 0; }, separators);
  if (separators == 0) {  // no string ends inside: the plain order
    handle.build(text, sa, stats);
    return;
  }
  const int w = separator_code_bytes(separators);
  const std::uint64_t wide_n = n + std::uint64_t(w) * separators;
  STRIX_USER_REQUIRE(wide_n <= max_text_length<I>(),
                     "generalized suffix array: a text of " + std::to_string(n) + " bytes with " +
                         std::to_string(separators) + " separators needs " + std::to_string(wide_n) +
                         " entries of working suffix array, more than " + std::to_string(8 * sizeof(I)) +
                         "-bit entries hold: use 64-bit entries (strix sa --width 64)");
  run_stats local = stats ? stats->observers() : run_stats{};
  run_stats* own = stats ? &local : nullptr;
  phase_timer<ExecSpace> timer(space, own);
  memory_tracker memory;

  // The copy with its codes, written from a scan that counts the separators before each
  // position. It lives in sa's bytes when they hold it (sa is not written until the copy is
  // dead): always with 64-bit entries, and with 32-bit ones unless the codes take more than 3n.
  timer.begin("gsa_codes");
  const std::uint64_t words = wide_n / 64 + 1;
  auto code_bits = allocate<std::uint64_t, mem>("strix::gsa_code_bits", words, &memory);
  strix::fill(space, code_bits, std::uint64_t(0));
  Kokkos::View<std::uint8_t*, mem> own_copy;
  std::uint8_t* wide_text = reinterpret_cast<std::uint8_t*>(sa.data());
  if (copy_apart || wide_n > n * sizeof(I)) {
    own_copy = allocate<std::uint8_t, mem>("strix::gsa_text", wide_n, &memory);
    wide_text = own_copy.data();
  }
  const device_view<std::uint8_t, ExecSpace> wide(wide_text, wide_n);
  Kokkos::parallel_scan(
      "strix::gsa_copy", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& before, const bool final) {
        const std::uint8_t c = text(i);
        if (final) {
          const std::uint64_t q = std::uint64_t(i) + std::uint64_t(w) * before;
          wide(q) = c;
          if (c == 0)
            for (int b = 1; b <= w; ++b) {
              wide(q + b) = static_cast<std::uint8_t>(before >> (8 * (w - b)));
              Kokkos::atomic_fetch_or(&code_bits((q + b) / 64), std::uint64_t(1) << ((q + b) % 64));
            }
        }
        before += c == 0;
      });
  // Host pages of sa past the copy mapped now by a plain fill: first touched by the mapping
  // back's scan they cost more (english.lines: mapping back 0.47-0.66 s -> 0.24-0.41 s, the fill
  // 0.04 s; bench/NOTES.md).
  if constexpr (is_host_memory_v<mem>)
    if (!own_copy.data())
      strix::fill(space, device_view<std::uint8_t, ExecSpace>(wide_text + wide_n, n * sizeof(I) - wide_n),
                  std::uint8_t(0));
  timer.end();

  auto wide_sa = allocate<I, mem>("strix::gsa_suffix_array", wide_n, &memory);
  {
    run_stats inner = stats ? stats->observers() : run_stats{};
    space.fence();
    handle.build(text_view<ExecSpace>(wide_text, wide_n), device_view<I, ExecSpace>(wide_sa.data(), wide_n),
                 stats ? &inner : nullptr);
    // The construction's peak counts the copy and its suffix array (as any construction counts
    // its text and suffix array); beside them: the text, sa and the bit vector.
    if (stats) {
      local.merge(inner);
      local.peak_bytes = n + n * sizeof(I) + inner.peak_bytes + code_bits.span() * sizeof(std::uint64_t) -
                         (own_copy.data() ? 0 : wide_n);
    }
  }
  release(own_copy, &memory);

  // Code bytes before each word, then each row's text position, or `code` for a code byte, in
  // place: the random lookups once, then a scan that reads the rows in order (a scan does two
  // passes) and keeps the positions.
  timer.begin("gsa_map_back");
  auto before = allocate<I, mem>("strix::gsa_code_counts", words, &memory);
  Kokkos::parallel_scan(
      "strix::gsa_code_counts", policy(space, 0, words),
      KOKKOS_LAMBDA(const std::int64_t k, I& count, const bool final) {
        if (final) before(k) = count;
        count += static_cast<I>(popcount64(code_bits(k)));
      });
  constexpr I code = std::numeric_limits<I>::max();  // above every position of a text I holds
  Kokkos::parallel_for(
      "strix::gsa_map_rows", policy(space, 0, wide_n), KOKKOS_LAMBDA(const std::int64_t r) {
        const std::uint64_t q = wide_sa(r), word = code_bits(q / 64), bit = std::uint64_t(1) << (q % 64);
        wide_sa(r) = (word & bit) ? code : static_cast<I>(q - before(q / 64) - popcount64(word & (bit - 1)));
      });
  Kokkos::parallel_scan(
      "strix::gsa_drop_codes", policy(space, 0, wide_n),
      KOKKOS_LAMBDA(const std::int64_t r, I& kept, const bool final) {
        const I p = wide_sa(r);
        if (p == code) return;
        if (final) sa(kept) = p;
        ++kept;
      });
  timer.end();
  if (stats) {
    local.peak_bytes = std::max(local.peak_bytes, n + n * sizeof(I) + memory.peak());
    local.set_counter("gsa_separators", separators);
    local.set_counter("gsa_code_bytes", std::uint64_t(w));
    stats->merge(local);
  }
}

template <class ExecSpace, class I>
sa_check_result check_generalized_suffix_array(const ExecSpace& space, const text_view<ExecSpace>& text,
                                               const device_view<const I, ExecSpace>& sa) {
  bool decided = false;
  auto result = check_sa_check_sizes(text.extent(0), sa.extent(0), decided);
  if (decided) return result;
  return portable_check_suffix_array<ExecSpace, I>(space, text, sa, true);
}

}  // namespace strix::detail

#define STRIX_SA_GSA_INSTANTIATE(SPACE, I)                                                                      \
  template void strix::detail::generalized_suffix_array<SPACE, I>(                                             \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<I, SPACE>&,                       \
      strix::suffix_array_handle<SPACE, I>&, strix::run_stats*, bool);                                         \
  template strix::sa_check_result strix::detail::check_generalized_suffix_array<SPACE, I>(                     \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
