#pragma once
// Construction of a wavelet tree or matrix from a host text that need not fit in device
// memory (see wavelet_options::build_chunk): the text is streamed through the device in
// chunks, once for its alphabet and once per level. A symbol's position in level l is its
// group's start (tree: the node of its top l code bits; matrix: those bits read from the
// last to the first) plus the symbols of its group in earlier chunks plus its rank in the
// group within the chunk (a stable radix sort of the chunk by group); its bit is set there.
// The result is identical to build_wavelet's; the device holds the structure and a few
// chunk-sized buffers.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/succinct/detail/wavelet_build_def.hpp>
#include <strix/succinct/detail/wavelet_finish_def.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::detail {

// Group key of code c at level l: tree, its top l bits; matrix, the same reversed.
template <wavelet_shape Shape>
KOKKOS_INLINE_FUNCTION std::uint32_t level_key(std::uint64_t c, int L, int l) {
  if (l == 0) return 0;
  const std::uint64_t top = c >> (L - l);
  if (Shape == wavelet_shape::tree) return static_cast<std::uint32_t>(top);
  std::uint64_t r = 0;
  for (int b = 0; b < l; ++b) r |= ((top >> b) & 1) << (l - 1 - b);
  return static_cast<std::uint32_t>(r);
}

template <class ExecSpace, class Symbol, class I, wavelet_shape Shape>
void build_wavelet_streamed(const ExecSpace& space, const Symbol* host_text, std::uint64_t n,
                            wavelet_data<ExecSpace, Symbol>& d, const wavelet_options& options, run_stats* stats) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using host_view = Kokkos::View<const Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using P = std::uint64_t;
  constexpr bool tree = Shape == wavelet_shape::tree;
  const std::uint64_t chunk = std::min<std::uint64_t>(std::max<std::uint64_t>(options.build_chunk, 1), std::max<std::uint64_t>(n, 1));
  STRIX_USER_REQUIRE(chunk < (std::uint64_t(1) << 32), "build_chunk must be below 2^32 symbols");
  phase_timer<ExecSpace> timer(space, stats);
  d = wavelet_data<ExecSpace, Symbol>();
  d.n = n;
  auto text = allocate<Symbol, memory_space>("strix::wavelet::chunk_text", chunk);
  auto load = [&](std::uint64_t start) {
    const std::uint64_t len = std::min(chunk, n - start);
    Kokkos::deep_copy(space, Kokkos::subview(text, std::make_pair(std::size_t(0), std::size_t(len))), host_view(host_text + start, len));
    return device_view<const Symbol, ExecSpace>(text.data(), len);
  };

  timer.begin("alphabet");
  if constexpr (sizeof(Symbol) < 4) {
    auto hist = allocate<P, memory_space>("strix::wavelet::histogram", std::size_t(1) << (8 * sizeof(Symbol)));
    Kokkos::deep_copy(space, hist, P(0));
    for (std::uint64_t start = 0; start < n; start += chunk) add_dense_histogram(space, load(start), hist);
    alphabet_from_histogram(space, hist, d);
  } else {
    std::vector<std::uint32_t> alphabet;
    std::vector<P> count;
    for (std::uint64_t start = 0; start < n; start += chunk) {
      wavelet_data<ExecSpace, Symbol> part;
      sorted_alphabet(space, load(start), part);
      auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part.alphabet);
      auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), part.counts);
      std::vector<std::uint32_t> merged;
      std::vector<P> merged_count;
      std::size_t x = 0, y = 0;
      while (x < alphabet.size() || y < a.extent(0)) {
        if (y == a.extent(0) || (x < alphabet.size() && alphabet[x] < a(y))) {
          merged.push_back(alphabet[x]);
          merged_count.push_back(count[x++]);
        } else {
          const P k = c(y + 1) - c(y);
          if (x < alphabet.size() && alphabet[x] == a(y)) {
            merged.push_back(alphabet[x]);
            merged_count.push_back(count[x++] + k);
          } else {
            merged.push_back(a(y));
            merged_count.push_back(k);
          }
          ++y;
        }
      }
      alphabet.swap(merged);
      count.swap(merged_count);
    }
    std::vector<P> counts(alphabet.size() + 1, 0);
    for (std::size_t m = 0; m < alphabet.size(); ++m) counts[m + 1] = counts[m] + count[m];
    d.sigma = alphabet.size();
    d.alphabet = allocate<Symbol, memory_space>("strix::wavelet::alphabet", d.sigma);
    d.counts = allocate<P, memory_space>("strix::wavelet::counts", d.sigma + 1);
    using U = Kokkos::MemoryUnmanaged;
    Kokkos::deep_copy(space, d.alphabet, Kokkos::View<const Symbol*, Kokkos::HostSpace, U>(alphabet.data(), alphabet.size()));
    Kokkos::deep_copy(space, d.counts, Kokkos::View<const P*, Kokkos::HostSpace, U>(counts.data(), counts.size()));
  }
  const P sigma = d.sigma;
  auto counts_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.counts);
  P size[wavelet_max_levels + 1];
  const P total_bits = wavelet_layout<Shape>(counts_h.data(), sigma, size, d.offset, d.levels);
  const int L = d.levels;
  d.bits.n = total_bits;
  d.bits.words = allocate<std::uint64_t, memory_space>("strix::wavelet::bits", padded_words(total_bits));
  Kokkos::deep_copy(space, d.bits.words, std::uint64_t(0));

  if (L > 0) {
    timer.begin("levels");
    auto code = symbol_codes<ExecSpace, Symbol, Shape>(space, sigma, L);
    // Code lengths (tree): a symbol takes part in level l while its code is longer than l.
    auto length = allocate<std::uint8_t, memory_space>("strix::wavelet::code_lengths", sigma);
    Kokkos::parallel_for("strix::wavelet_code_lengths", range(space, 0, sigma), KOKKOS_LAMBDA(const std::int64_t m) {
      P a = 0, b = sigma;
      int len = 0;
      while (b - a > 1) {
        const P split = a + split_width(b - a);
        if (P(m) >= split) a = split;
        else b = split;
        ++len;
      }
      length(m) = static_cast<std::uint8_t>(tree ? len : L);
    });
    auto minimal = allocate<std::uint32_t, memory_space>("strix::wavelet::chunk_minimal", chunk);
    auto keys = allocate<std::uint32_t, memory_space>("strix::wavelet::chunk_keys", chunk);
    auto keys_alt = allocate<std::uint32_t, memory_space>("strix::wavelet::chunk_keys_alt", chunk);
    auto vals = allocate<std::uint32_t, memory_space>("strix::wavelet::chunk_vals", chunk);
    auto vals_alt = allocate<std::uint32_t, memory_space>("strix::wavelet::chunk_vals_alt", chunk);
    primitives::workspace<ExecSpace> ws;
    ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, std::uint32_t>(space, chunk));
    const P groups_max = P(1) << (L - 1);
    auto group_start = allocate<P, memory_space>("strix::wavelet::group_start", groups_max + 1);
    auto seen = allocate<P, memory_space>("strix::wavelet::group_seen", groups_max);
    auto in_chunk = allocate<P, memory_space>("strix::wavelet::group_in_chunk", groups_max + 1);
    auto chunk_first = allocate<P, memory_space>("strix::wavelet::chunk_first", groups_max + 1);
    auto counts = d.counts;
    auto words = d.bits.words;
    const auto w = d.template ref<I, Shape>();  // its alphabet and map only
    for (int l = 0; l < L; ++l) {
      const P groups = P(1) << l, base = d.offset[l];
      const int shift = L - 1 - l;
      // Group starts: the symbols' counts by group, scanned.
      Kokkos::deep_copy(space, group_start, P(0));
      Kokkos::deep_copy(space, seen, P(0));
      Kokkos::parallel_for("strix::wavelet_group_counts", range(space, 0, sigma), KOKKOS_LAMBDA(const std::int64_t m) {
        Kokkos::atomic_add(&group_start(level_key<Shape>(code(m), L, l)), counts(m + 1) - counts(m));
      });
      Kokkos::parallel_scan("strix::wavelet_group_starts", range(space, 0, groups + 1),
                            KOKKOS_LAMBDA(const std::int64_t g, P& upd, const bool final) {
                              const P c = P(g) < groups ? group_start(g) : 0;
                              if (final) group_start(g) = upd;
                              upd += c;
                            });
      for (std::uint64_t start = 0; start < n; start += chunk) {
        const auto t = load(start);
        const std::int64_t len = t.extent(0);
        Kokkos::deep_copy(space, in_chunk, P(0));
        Kokkos::parallel_for("strix::wavelet_chunk_keys", range(space, 0, len), KOKKOS_LAMBDA(const std::int64_t i) {
          P m = 0;
          w.minimal(t(i), m);
          minimal(i) = static_cast<std::uint32_t>(m);
          const std::uint32_t k = level_key<Shape>(code(m), L, l);
          keys(i) = k;
          vals(i) = static_cast<std::uint32_t>(i);
        });
        bool alt = false;
        if (l > 0)
          alt = primitives::radix_sort_pairs(space, ws, device_view<std::uint32_t, ExecSpace>(keys.data(), len),
                                             device_view<std::uint32_t, ExecSpace>(keys_alt.data(), len),
                                             device_view<std::uint32_t, ExecSpace>(vals.data(), len),
                                             device_view<std::uint32_t, ExecSpace>(vals_alt.data(), len), 0, l);
        const std::uint32_t* sk = alt ? keys_alt.data() : keys.data();
        const std::uint32_t* sv = alt ? vals_alt.data() : vals.data();
        // Each group's first and one-past-last sorted index in this chunk, from the sorted
        // keys' boundaries (counting with atomics put every symbol of level 0 on one address).
        Kokkos::parallel_for("strix::wavelet_chunk_groups", range(space, 0, len), KOKKOS_LAMBDA(const std::int64_t j) {
          const std::uint32_t k = sk[j];
          if (j == 0 || sk[j - 1] != k) chunk_first(k) = P(j);
          if (j == len - 1 || sk[j + 1] != k) in_chunk(k) = P(j + 1);  // the end, for now
        });
        Kokkos::parallel_for("strix::wavelet_chunk_counts", range(space, 0, groups), KOKKOS_LAMBDA(const std::int64_t g) {
          if (in_chunk(g) > 0) in_chunk(g) -= chunk_first(g);
        });
        // A thread sets the bits of 64 consecutive sorted symbols: within a group they go to
        // consecutive positions, so it ORs a word's mask once (native 64-bit atomics) instead
        // of 64 contended single-bit ORs.
        Kokkos::parallel_for("strix::wavelet_chunk_bits", range(space, 0, (len + 63) / 64), KOKKOS_LAMBDA(const std::int64_t t) {
          const std::int64_t end = (t + 1) * 64 < len ? (t + 1) * 64 : len;
          unsigned long long mask = 0;
          P word = 0;
          for (std::int64_t j = t * 64; j < end; ++j) {
            const std::uint32_t k = sk[j];
            const std::uint32_t m = minimal(sv[j]);
            if (length(m) <= l) continue;  // its code ended above this level
            if (!((P(code(m)) >> shift) & 1)) continue;
            const P pos = base + group_start(k) + seen(k) + (P(j) - chunk_first(k));
            if (mask && (pos >> 6) != word) {
              Kokkos::atomic_fetch_or(reinterpret_cast<unsigned long long*>(&words(word)), mask);
              mask = 0;
            }
            word = pos >> 6;
            mask |= 1ull << (pos & 63);
          }
          if (mask) Kokkos::atomic_fetch_or(reinterpret_cast<unsigned long long*>(&words(word)), mask);
        });
        Kokkos::parallel_for("strix::wavelet_group_seen", range(space, 0, groups), KOKKOS_LAMBDA(const std::int64_t g) {
          seen(g) += in_chunk(g);
        });
      }
    }
  }
  timer.begin("rank_select");
  finish_wavelet<ExecSpace, Symbol, I, Shape>(space, d, options, false);
  timer.end();
  if (stats) {
    stats->set_counter("alphabet_size", sigma);
    stats->set_counter("levels", std::uint64_t(L));
    stats->set_counter("bytes", d.bytes());
  }
}

}  // namespace strix::detail
