// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pieces of the suffix order, for a difference-cover construction whose merge buffers hold only
// part of the text (issue 64: the suffix array in 16n bytes and less). Once the sample is ranked,
// any two suffixes compare in fewer than X symbols and two rank lookups (suffix_less), so a few
// splitter suffixes cut the suffix order exactly:
//   1. 4096 positions spread over the text, their first X symbols and the ranks after them
//      gathered and ordered by the same comparator (a GPU counts each one's rank, the host
//      sorts); every 4th is a splitter (1023);
//   2. every suffix's bin (how many splitters precede or equal it, by binary search) counted;
//   3. consecutive bins grouped into pieces that fit the buffers;
//   4. for each piece in order, its suffixes marked (two comparisons a suffix), selected into
//      the suffix array's rows of the piece, and ordered there (piece_order.hpp).
// A piece is a contiguous range of rows, so nothing moves afterwards. Bins hold about n/1024
// suffixes whatever the text (a sample sort's splitters: a run of one byte is spread over many
// bins, and suffixes of the classes outside the cover are sampled like the others).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/device_view.hpp>
#include <strix/sa/detail/difference_cover/keys.hpp>
#include <strix/succinct/detail/word_ops.hpp>  // popcount32

namespace strix::detail {

// Whether position j is marked: bit j % 32 of word j / 32 (n / 32 + 1 words for n positions).
template <class ExecSpace>
struct marked {
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> flags;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t j) const { return (flags(j >> 5) >> (j & 31)) & 1u; }
};
inline std::uint64_t mark_words(std::uint64_t n) { return n / 32 + 1; }

// The most splitters (bins - 1): bins of about n/1024 suffixes, well below a piece's share
// (n/5 and more), in ten steps of binary search; their counts fit a team's scratch. The
// positions sampled to find them: 4 a bin. Bins only set the pieces' grain, so a few samples a
// bin do: at 16 a bin their ordering took 10-15 ms of a 40-60 ms construction on an H200,
// sorted on the host or ranked a thread a sample on the GPU (RESULTS §63).
constexpr std::uint64_t max_piece_splitters = 1023;
constexpr std::uint64_t piece_samples = 4 * (max_piece_splitters + 1);

// Suffixes against the splitters. Each suffix's first K symbols packed in 64 bits (a key; as
// many symbols as fit) decide most comparisons with one compare; equal keys go on in
// suffix_less from the K-th symbol. Keys roll along consecutive positions: one symbol read a
// position.
template <class ExecSpace, class Sym, class R>
struct suffix_bin {
  suffix_less<ExecSpace, std::uint64_t, Sym, R> less;
  device_view<const std::uint64_t, ExecSpace> splitters, splitter_keys;
  symbol_digits<Sym> first;  // first.len = K
  std::uint64_t mask;        // K symbols' bits

  static suffix_bin make(const Sym& sym, const sample_rank<ExecSpace, R>& rank,
                         const device_view<const std::uint64_t, ExecSpace>& splitters,
                         const device_view<const std::uint64_t, ExecSpace>& splitter_keys) {
    const auto one = symbol_digits<Sym>::make(sym, 1);
    const auto first = symbol_digits<Sym>::make(sym, one.per_digit);
    const int width = first.len * sym.bits;
    return {{sym, rank}, splitters, splitter_keys, first, width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1};
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t key(const std::uint64_t i) const { return first.digit(0, i); }
  // The key of i + 1 from i's.
  KOKKOS_INLINE_FUNCTION std::uint64_t next_key(const std::uint64_t key_i, const std::uint64_t i) const {
    return ((key_i << first.sym.bits) | first.sym(i + 1 + std::uint64_t(first.len) - 1)) & mask;
  }
  // f(t, i, key of i) for the positions i = 32 w + t < n of word w, the key rolled along them.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_word(const std::uint64_t w, const std::uint64_t n, const F& f) const {
    const std::uint64_t p0 = w * 32;
    if (p0 >= n) return;
    std::uint64_t k = key(p0);
    for (unsigned t = 0; t < 32 && p0 + t < n; ++t) {
      if (t > 0) k = next_key(k, p0 + t - 1);
      f(t, p0 + t, k);
    }
  }
  // Whether suffix i (its key: key_i) comes before splitter j.
  KOKKOS_INLINE_FUNCTION bool before(const std::uint64_t i, const std::uint64_t key_i, const std::uint64_t j) const {
    const std::uint64_t kj = splitter_keys(j);
    return key_i != kj ? key_i < kj : less(i, splitters(j), static_cast<unsigned>(first.len));
  }
  // The bin of suffix i: how many splitters are at or before it in suffix order.
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(const std::uint64_t i, const std::uint64_t key_i) const {
    std::uint64_t lo = 0, hi = splitters.extent(0);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (before(i, key_i, mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
};

// Whether the gathered sample row x (a position, its X symbols, the ranks after it) comes
// before row y in suffix order: suffix_less on the gathered data.
KOKKOS_INLINE_FUNCTION bool gathered_before(const std::uint64_t* x, const std::uint64_t* y, const difference_cover& cover) {
  const unsigned period = cover.period;
  const unsigned l = cover.common_offset(small_residue(x[0], period), small_residue(y[0], period));
  for (unsigned t = 0; t < l; ++t)
    if (x[1 + t] != y[1 + t]) return x[1 + t] < y[1 + t];
  return x[1 + period + l] < y[1 + period + l];
}

// Up to max_piece_splitters splitters, in suffix order, into `splitters` and their keys into
// `keys`; returns how many. `gathered`: scratch for the sample, 1 + 2X entries a position (a
// position, its X symbols, the ranks after it), up to piece_samples positions; fewer entries
// sample fewer positions.
template <class ExecSpace, class Sym, class R>
std::uint64_t pick_splitters(const ExecSpace& space, const Sym& sym, const sample_rank<ExecSpace, R>& rank,
                             std::uint64_t n, const device_view<std::uint64_t, ExecSpace>& gathered,
                             const device_view<std::uint64_t, ExecSpace>& splitters,
                             const device_view<std::uint64_t, ExecSpace>& keys) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const difference_cover cover = rank.cover;
  const unsigned period = cover.period;
  const std::uint64_t stride = 1 + 2 * std::uint64_t(period);
  const std::uint64_t samples = std::min({n, piece_samples, std::uint64_t(gathered.extent(0)) / stride});
  if (samples < 2) return 0;
  // 1. Position s of `samples` even strides, moved within its stride by a hash of s (a periodic
  // text would otherwise be sampled at one phase); its symbols and the ranks after it.
  Kokkos::parallel_for(
      "strix::dc_piece_samples", policy(space, 0, std::int64_t(samples)), KOKKOS_LAMBDA(const std::int64_t s) {
        const std::uint64_t lo = std::uint64_t(s) * n / samples, hi = (std::uint64_t(s) + 1) * n / samples;
        const std::uint64_t x = (std::uint64_t(s) + 1) * 0x9E3779B97F4A7C15ull;
        const std::uint64_t p = lo + (x >> 32) % (hi - lo);
        std::uint64_t* at = &gathered(std::uint64_t(s) * stride);
        at[0] = p;
        for (unsigned l = 0; l < period; ++l) {
          at[1 + l] = sym(p + l);
          at[1 + period + l] = cover.contains(small_residue(p + l, period)) ? rank(p + l) : 0;
        }
      });
  // 2. Splitter j is the sample of rank (j + 1) · samples / (count + 1) (evenly spaced).
  const std::uint64_t count = std::min(max_piece_splitters, samples - 1);
  if constexpr (is_host_space_v<ExecSpace>) {
    // Host: the sample sorted by the comparator.
    space.fence();
    const std::uint64_t* data = gathered.data();
    std::vector<std::uint64_t> order(samples);
    for (std::uint64_t s = 0; s < samples; ++s) order[s] = s;
    std::sort(order.begin(), order.end(),
              [&](std::uint64_t a, std::uint64_t b) { return gathered_before(data + a * stride, data + b * stride, cover); });
    for (std::uint64_t j = 0; j < count; ++j) splitters(j) = data[order[(j + 1) * samples / (count + 1)] * stride];
  } else {
    // GPU: each sample's rank counted against all others by a team (samples² comparisons in
    // the device's caches), instead of a copy to the host, a sort there and a copy back. Ranks
    // are distinct: no two positions' suffixes tie. (A thread a sample kept a few SMs busy for
    // 3 ms at 4096 samples on an H200, RESULTS §63.)
    using team_policy = Kokkos::TeamPolicy<ExecSpace>;
    using member = typename team_policy::member_type;
    Kokkos::parallel_for(
        "strix::dc_splitter_ranks", team_policy(space, static_cast<int>(samples), 128),
        KOKKOS_LAMBDA(const member& team) {
          const std::uint64_t* x = &gathered(std::uint64_t(team.league_rank()) * stride);
          std::uint64_t r = 0;  // samples before this one
          Kokkos::parallel_reduce(
              Kokkos::TeamThreadRange(team, samples),
              [&](const std::uint64_t t, std::uint64_t& before) {
                before += gathered_before(&gathered(t * stride), x, cover) ? 1 : 0;
              },
              r);
          // The smallest q ≥ 1 with q · samples / (count + 1) ≥ r; this sample is splitter q - 1
          // if equal.
          const std::uint64_t q = r == 0 ? 1 : (r * (count + 1) + samples - 1) / samples;
          Kokkos::single(Kokkos::PerTeam(team), [&]() {
            if (q <= count && q * samples / (count + 1) == r) splitters(q - 1) = x[0];
          });
        });
  }
  const auto bin = suffix_bin<ExecSpace, Sym, R>::make(sym, rank, splitters, keys);
  Kokkos::parallel_for(
      "strix::dc_splitter_keys", policy(space, 0, std::int64_t(count)),
      KOKKOS_LAMBDA(const std::int64_t j) { keys(j) = bin.key(splitters(j)); });
  return count;
}

// Suffixes a bin, counted (counts: splitters + 1 entries). Each team counts a stretch of the
// text in its scratch (no contended global atomics: a run of one byte puts its suffixes in
// few bins), then adds its counts; a thread rolls the key along 32 positions.
template <class ExecSpace, class Sym, class R>
void count_bins(const ExecSpace& space, const suffix_bin<ExecSpace, Sym, R>& bin, std::uint64_t n,
                const device_view<std::uint64_t, ExecSpace>& counts) {
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  using local_counts = Kokkos::View<std::uint32_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  Kokkos::deep_copy(space, counts, std::uint64_t(0));
  const std::uint64_t bins = counts.extent(0), words = mark_words(n);
  // At most 1024 teams (so at most 1024 additions a bin), each at least 2^10 words.
  const std::uint64_t team_words = std::max<std::uint64_t>(1024, (words + 1023) / 1024);
  const std::uint64_t teams = (words + team_words - 1) / team_words;
  const int team_size = is_host_space_v<ExecSpace> ? 1 : 256;
  Kokkos::parallel_for(
      "strix::dc_count_bins",
      team_policy(space, static_cast<int>(teams), team_size).set_scratch_size(0, Kokkos::PerTeam(local_counts::shmem_size(bins))),
      KOKKOS_LAMBDA(const member& team) {
        local_counts local(team.team_scratch(0), bins);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins), [&](const std::uint64_t b) { local(b) = 0; });
        team.team_barrier();
        const std::uint64_t w0 = std::uint64_t(team.league_rank()) * team_words;
        const std::uint64_t w1 = w0 + team_words < words ? w0 + team_words : words;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, w0, w1), [&](const std::uint64_t w) {
          bin.for_word(w, n, [&](unsigned, std::uint64_t i, std::uint64_t key) {
            Kokkos::atomic_add(&local(bin(i, key)), std::uint32_t(1));
          });
        });
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, bins), [&](const std::uint64_t b) {
          if (local(b)) Kokkos::atomic_add(&counts(b), std::uint64_t(local(b)));
        });
      });
}

// A piece: bins [first_bin, end_bin), rows [first_row, first_row + rows).
struct suffix_piece {
  std::uint64_t first_bin = 0, end_bin = 0, first_row = 0, rows = 0;
};

// Consecutive bins grouped greedily into pieces of at most `capacity` rows (a bin larger than
// that is a piece alone).
inline std::vector<suffix_piece> plan_pieces(const std::vector<std::uint64_t>& bin_counts, std::uint64_t capacity) {
  std::vector<suffix_piece> pieces;
  suffix_piece p;
  for (std::uint64_t b = 0; b < bin_counts.size(); ++b) {
    if (p.rows > 0 && p.rows + bin_counts[b] > capacity) {
      pieces.push_back(p);
      p = suffix_piece{b, b, p.first_row + p.rows, 0};
    }
    p.end_bin = b + 1;
    p.rows += bin_counts[b];
  }
  if (p.rows > 0) pieces.push_back(p);
  return pieces;
}

// The suffixes of piece p marked in `flags` (mark_words(n) words); returns how many.
template <class ExecSpace, class Sym, class R>
std::uint64_t mark_piece(const ExecSpace& space, const suffix_bin<ExecSpace, Sym, R>& bin, std::uint64_t n,
                         const suffix_piece& p, const Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space>& flags) {
  const std::uint64_t splitters = bin.splitters.extent(0);
  // At or after splitter first_bin - 1, before splitter end_bin - 1 (none at the ends).
  const bool has_low = p.first_bin > 0, has_high = p.end_bin <= splitters;
  const std::uint64_t low = has_low ? p.first_bin - 1 : 0, high = has_high ? p.end_bin - 1 : 0;
  std::uint64_t count = 0;
  Kokkos::parallel_reduce(
      "strix::dc_mark_piece",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(mark_words(n))),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& sum) {
        std::uint32_t marks = 0;
        bin.for_word(std::uint64_t(w), n, [&](unsigned t, std::uint64_t i, std::uint64_t key) {
          if ((!has_low || !bin.before(i, key, low)) && (!has_high || bin.before(i, key, high))) marks |= std::uint32_t(1) << t;
        });
        flags(w) = marks;
        sum += std::uint64_t(popcount32(marks));
      },
      count);
  return count;
}

}  // namespace strix::detail
