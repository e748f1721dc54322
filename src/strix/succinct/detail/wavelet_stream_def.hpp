// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Construction of a wavelet tree or matrix from a host text that need not fit in device
// memory (see wavelet_options::build_chunk): the text is streamed through the device in
// chunks, once for its alphabet and once per level. A symbol's position in level l is its
// group's start (tree: the node of its top l code bits; matrix: those bits read from the
// last to the first) plus the symbols of its group in earlier chunks plus its rank in the
// group within the chunk (a stable radix sort of the chunk's symbols by group); its bit is
// set there. The result is identical to build_wavelet's; the device holds the structure and
// a few chunk-sized buffers. The next chunk's copy runs on a stream of its own while the
// current chunk is worked on (it overlaps where the host text is pinned).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/streams.hpp>
#include <strix/succinct/detail/wavelet_build_def.hpp>
#include <strix/succinct/detail/wavelet_finish_def.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::detail {

// Group key of code c at level l: tree, its top l bits; matrix, the same reversed.
KOKKOS_INLINE_FUNCTION std::uint32_t level_key(std::uint64_t c, int L, int l, bool tree) {
  if (l == 0) return 0;
  const std::uint64_t top = c >> (L - l);
  if (tree) return static_cast<std::uint32_t>(top);
  std::uint64_t r = 0;
  for (int b = 0; b < l; ++b) r |= ((top >> b) & 1) << (l - 1 - b);
  return static_cast<std::uint32_t>(r);
}

// The host text's chunks on the device, in order, pass after pass: get(start) returns the
// chunk at `start` and starts copying the one after it (the next pass's first after the
// last) into the other of two buffers, on a copy stream. Before that copy, the work queued on
// the previous chunk (in that buffer) is waited for; the returned chunk's copy is complete.
template <class ExecSpace, class Symbol>
class chunk_reader {
  using memory_space = typename ExecSpace::memory_space;
  using host_view = Kokkos::View<const Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  static constexpr std::uint64_t none = ~std::uint64_t(0);

 public:
  chunk_reader(const ExecSpace& space, const Symbol* text, std::uint64_t n, std::uint64_t chunk)
      : space_(space), copies_(space, 1), text_(text), n_(n), chunk_(chunk) {
    for (auto& b : buffer_) b = allocate<Symbol, memory_space>("strix::wavelet::chunk_text", chunk);
  }
  ~chunk_reader() { copies_.fence(); }  // no copy into a freed buffer
  chunk_reader(const chunk_reader&) = delete;
  chunk_reader& operator=(const chunk_reader&) = delete;

  // `again`: another pass follows, so the last chunk prefetches the first.
  device_view<const Symbol, ExecSpace> get(std::uint64_t start, bool again) {
    space_.fence();  // the previous chunk's work: its buffer may now be refilled
    int slot = 1 - ready_slot_;
    if (ready_start_ == start) slot = ready_slot_;
    else copy(slot, start);
    copies_.fence();
    ready_start_ = none;
    std::uint64_t next = start + chunk_ < n_ ? start + chunk_ : (again ? 0 : none);
    if (next != none && next != start) {
      copy(1 - slot, next);
      ready_start_ = next;
      ready_slot_ = 1 - slot;
    }
    return device_view<const Symbol, ExecSpace>(buffer_[slot].data(), length(start));
  }

 private:
  std::uint64_t length(std::uint64_t start) const { return std::min(chunk_, n_ - start); }
  void copy(int slot, std::uint64_t start) {
    const std::size_t len = length(start);
    strix::copy(copies_[0], Kokkos::subview(buffer_[slot], std::make_pair(std::size_t(0), len)),
                      host_view(text_ + start, len));
  }

  ExecSpace space_;
  primitives::stream_pool<ExecSpace> copies_;
  const Symbol* text_;
  std::uint64_t n_, chunk_;
  Kokkos::View<Symbol*, memory_space> buffer_[2];
  std::uint64_t ready_start_ = none;
  int ready_slot_ = 0;
};

template <class ExecSpace, class Symbol>
void build_wavelet_streamed(const ExecSpace& space, const Symbol* host_text, std::uint64_t n,
                            wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape, const wavelet_options& options,
                            run_stats* stats) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  const std::uint64_t chunk = std::min<std::uint64_t>(std::max<std::uint64_t>(options.build_chunk, 1), std::max<std::uint64_t>(n, 1));
  STRIX_USER_REQUIRE(chunk < (std::uint64_t(1) << 32), "build_chunk must be below 2^32 symbols");
  phase_timer<ExecSpace> timer(space, stats);
  d = wavelet_data<ExecSpace, Symbol>();
  d.n = n;
  chunk_reader<ExecSpace, Symbol> reader(space, host_text, n, chunk);
  bool more_passes = true;  // whether a pass follows the current one (then its first chunk is prefetched)
  auto load = [&](std::uint64_t start) { return reader.get(start, more_passes); };

  timer.begin("alphabet");
  if constexpr (sizeof(Symbol) < 4) {
    auto hist = allocate<P, memory_space>("strix::wavelet::histogram", std::size_t(1) << (8 * sizeof(Symbol)));
    strix::fill(space, hist, P(0));
    for (std::uint64_t start = 0; start < n; start += chunk) add_dense_histogram(space, load(start), hist);
    alphabet_from_histogram(space, hist, d);
  } else {
    std::vector<std::uint32_t> alphabet;
    std::vector<P> count;
    for (std::uint64_t start = 0; start < n; start += chunk) {
      wavelet_data<ExecSpace, Symbol> part;
      sorted_alphabet(space, load(start), part);
      auto a = strix::to_host(space, part.alphabet);
      auto c = strix::to_host(space, part.counts);
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
    upload_alphabet(space, alphabet, counts, d);
  }
  const P sigma = d.sigma;
  begin_levels(space, d, shape);
  const int L = d.levels;

  if (L > 0) {
    timer.begin("levels");
    const bool tree = shape == wavelet_shape::tree;
    const auto codes = symbol_codes<ExecSpace, Symbol>(space, sigma, L, shape);
    auto code = codes.code;
    auto length = codes.length;
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
    const auto w = d.template ref<std::uint64_t, wavelet_shape::tree>();  // its alphabet and map: either shape's
    // The per-chunk kernels take their functors as kernel arguments (Kokkos' light-weight
    // hint). By default a functor over 512 bytes (chunk_keys holds the whole ref) goes
    // through constant memory: a host-to-device copy that queues behind the next chunk's copy
    // on the copy engine, so the chunk's kernels would wait for that copy instead of
    // overlapping it.
    auto light = [&](std::int64_t end) {
      return Kokkos::Experimental::require(range(space, 0, end), Kokkos::Experimental::WorkItemProperty::HintLightWeight);
    };
    for (int l = 0; l < L; ++l) {
      more_passes = l + 1 < L;
      const P groups = P(1) << l, base = d.offset[l];
      const int shift = L - 1 - l;
      // Group starts: the symbols' counts by group, scanned.
      strix::fill(space, group_start, P(0));
      strix::fill(space, seen, P(0));
      Kokkos::parallel_for("strix::wavelet_group_counts", range(space, 0, sigma), KOKKOS_LAMBDA(const std::int64_t m) {
        Kokkos::atomic_add(&group_start(level_key(code(m), L, l, tree)), counts(m + 1) - counts(m));
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
        strix::fill(space, in_chunk, P(0));
        Kokkos::parallel_for("strix::wavelet_chunk_keys", light(len), KOKKOS_LAMBDA(const std::int64_t i) {
          P m = 0;
          w.minimal(t(i), m);
          keys(i) = level_key(code(m), L, l, tree);
          vals(i) = static_cast<std::uint32_t>(m);  // sorted with its key: read in order below
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
        Kokkos::parallel_for("strix::wavelet_chunk_groups", light(len), KOKKOS_LAMBDA(const std::int64_t j) {
          const std::uint32_t k = sk[j];
          if (j == 0 || sk[j - 1] != k) chunk_first(k) = P(j);
          if (j == len - 1 || sk[j + 1] != k) in_chunk(k) = P(j + 1);  // the end, for now
        });
        Kokkos::parallel_for("strix::wavelet_chunk_counts", light(groups), KOKKOS_LAMBDA(const std::int64_t g) {
          if (in_chunk(g) > 0) in_chunk(g) -= chunk_first(g);
        });
        // A thread sets the bits of 64 consecutive sorted symbols: within a group they go to
        // consecutive positions, so it ORs a word's mask once (native 64-bit atomics) instead
        // of 64 contended single-bit ORs. Its keys and symbols come eight at a time (a 32-byte
        // sector in two 16-byte loads: a warp's loads are 256 bytes apart, and each sector is
        // used whole at once, before the cache can evict it).
        Kokkos::parallel_for("strix::wavelet_chunk_bits", light((len + 63) / 64), KOKKOS_LAMBDA(const std::int64_t t) {
          const std::int64_t first = t * 64, end = first + 64 < len ? first + 64 : len;
          unsigned long long mask = 0;
          P word = 0;
          auto visit = [&](std::uint32_t k, std::uint32_t m, std::int64_t j) {
            if (length(m) <= l) return;  // its code ended above this level
            if (!((P(code(m)) >> shift) & 1)) return;
            const P pos = base + group_start(k) + seen(k) + (P(j) - chunk_first(k));
            if (mask && (pos >> 6) != word) {
              Kokkos::atomic_fetch_or(reinterpret_cast<unsigned long long*>(&words(word)), mask);
              mask = 0;
            }
            word = pos >> 6;
            mask |= 1ull << (pos & 63);
          };
          if (end - first == 64) {
            for (int q = 0; q < 64; q += 8) {
              std::uint32_t k8[8], m8[8];
              load_u32x4(sk + first + q, k8);
              load_u32x4(sk + first + q + 4, k8 + 4);
              load_u32x4(sv + first + q, m8);
              load_u32x4(sv + first + q + 4, m8 + 4);
              for (int r = 0; r < 8; ++r) visit(k8[r], m8[r], first + q + r);
            }
          } else {
            for (std::int64_t j = first; j < end; ++j) visit(sk[j], sv[j], j);
          }
          if (mask) Kokkos::atomic_fetch_or(reinterpret_cast<unsigned long long*>(&words(word)), mask);
        });
        Kokkos::parallel_for("strix::wavelet_group_seen", light(groups), KOKKOS_LAMBDA(const std::int64_t g) {
          seen(g) += in_chunk(g);
        });
      }
    }
  }
  end_build(space, d, shape, options, timer, stats);
}

}  // namespace strix::detail
