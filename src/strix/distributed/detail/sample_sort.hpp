// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sorting the active suffixes of a distributed prefix-doubling round: triples (pos, rank,
// key) ordered by (rank, key), ties kept in their global order. Locally a stable radix sort
// (strix's primitive, one pass over rank:key when both fit 64 bits, else two); across
// ranks a sample sort with regular sampling (each rank proposes P splitters, every rank
// picks the same P - 1 of the P^2), on (rank, key, global index) so that long runs of equal
// keys still split evenly. Included by the distributed definitions only.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include <strix/core/phase_timer.hpp>
#include <strix/distributed/detail/exchange.hpp>
#include <strix/primitives/merge.hpp>

namespace strix::distributed::detail {

// The active suffixes on this rank: text position, current rank (the first row of its
// group), and the key that refines the group (packed characters, or the rank h further).
template <class I, class ExecSpace>
struct suffix_batch {
  array<I, ExecSpace> pos, rank;
  array<std::uint64_t, ExecSpace> key;
  std::uint64_t size() const { return pos.extent(0); }
};

// Stable sort of a batch by (rank, key); `rank_bits` and `key_bits` bound the values.
template <class I, class ExecSpace>
void sort_batch_locally(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, suffix_batch<I, ExecSpace>& b,
                        int rank_bits, int key_bits) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t m = b.size();
  if (m <= 1) return;
  auto order = make_array<I, ExecSpace>("strix::batch_order", m);
  auto order_alt = make_array<I, ExecSpace>("strix::batch_order_alt", m);
  auto keys = make_array<std::uint64_t, ExecSpace>("strix::batch_keys", m);
  auto keys_alt = make_array<std::uint64_t, ExecSpace>("strix::batch_keys_alt", m);
  ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space, m));
  const bool fused = rank_bits + key_bits <= 64;
  {
    auto rank = b.rank;
    auto key = b.key;
    Kokkos::parallel_for(
        "strix::batch_sort_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
          order(j) = I(j);
          keys(j) = fused && key_bits < 64 ? (std::uint64_t(rank(j)) << key_bits) | key(j) : key(j);
        });
  }
  const int first_bits = fused ? rank_bits + key_bits : key_bits;
  if (first_bits > 0) {
    if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, order, order_alt, 0, first_bits)) {
      std::swap(order, order_alt);
    }
  }
  if (!fused && rank_bits > 0) {
    auto rank = b.rank;
    auto o = order;
    Kokkos::parallel_for(
        "strix::batch_sort_ranks", policy(space, 0, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t j) { keys(j) = std::uint64_t(rank(o(j))); });
    if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, order, order_alt, 0, rank_bits)) {
      std::swap(order, order_alt);
    }
  }
  Kokkos::resize(keys, 0);
  Kokkos::resize(keys_alt, 0);
  Kokkos::resize(order_alt, 0);
  b.pos = gather_in_order<I>(space, b.pos, order, "strix::batch_pos");
  b.rank = gather_in_order<I>(space, b.rank, order, "strix::batch_rank");
  b.key = gather_in_order<std::uint64_t>(space, b.key, order, "strix::batch_key");
}

// Merges the sorted runs [offsets[r], offsets[r + 1]) of a batch (one from each source rank,
// in rank order) into one sorted batch, stably: pairs of neighbouring runs at a time
// (strix's merge-path merge), log2(runs) passes.
template <class I, class ExecSpace>
void merge_batch_runs(const ExecSpace& space, suffix_batch<I, ExecSpace>& b, const std::vector<std::uint64_t>& offsets) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::vector<std::uint64_t> runs = {0};  // boundaries of the non-empty runs
  for (std::size_t r = 1; r < offsets.size(); ++r)
    if (offsets[r] > runs.back()) runs.push_back(offsets[r]);
  const std::uint64_t m = b.size();
  while (runs.size() > 2) {
    suffix_batch<I, ExecSpace> out;
    out.pos = make_array<I, ExecSpace>("strix::merged_pos", m);
    out.rank = make_array<I, ExecSpace>("strix::merged_rank", m);
    out.key = make_array<std::uint64_t, ExecSpace>("strix::merged_key", m);
    std::vector<std::uint64_t> next = {0};
    for (std::size_t r = 0; r + 1 < runs.size(); r += 2) {
      const std::uint64_t a0 = runs[r], b0 = runs[r + 1];
      const std::uint64_t b1 = r + 2 < runs.size() ? runs[r + 2] : b0;
      auto pos = b.pos, rank = b.rank, opos = out.pos, orank = out.rank;
      auto key = b.key, okey = out.key;
      if (b1 == b0) {  // an odd run out: copied
        Kokkos::parallel_for(
            "strix::merge_copy", policy(space, std::int64_t(a0), std::int64_t(b0)), KOKKOS_LAMBDA(const std::int64_t k) {
              opos(k) = pos(k);
              orank(k) = rank(k);
              okey(k) = key(k);
            });
      } else {
        primitives::merge_by(
            space, b0 - a0, b1 - b0,
            KOKKOS_LAMBDA(const std::uint64_t j, const std::uint64_t i) {
              const I rb = rank(b0 + j), ra = rank(a0 + i);
              return rb < ra || (rb == ra && key(b0 + j) < key(a0 + i));
            },
            KOKKOS_LAMBDA(const std::uint64_t k, const bool from_a, const std::uint64_t idx) {
              const std::uint64_t from = from_a ? a0 + idx : b0 + idx;
              opos(a0 + k) = pos(from);
              orank(a0 + k) = rank(from);
              okey(a0 + k) = key(from);
            });
      }
      next.push_back(b1);
    }
    b = out;
    runs = next;
  }
}

using sort_key = std::array<std::uint64_t, 3>;  // rank, key, global index

// Sorts the batches of all ranks by (rank, key): afterwards rank r holds a contiguous part
// of the global order (sizes within about 2x of even). Ties keep their global order.
// keep_groups: elements of equal (rank, key) all go to one rank (the replicated-rank
// construction's groups), at the price of balance where one group is large.
template <class I, class ExecSpace>
void sample_sort(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                 suffix_batch<I, ExecSpace>& b, int rank_bits, int key_bits,
                 strix::detail::phase_timer<ExecSpace>& timer, bool keep_groups = false) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  timer.begin("distributed_sort_local");
  c.run([&] { sort_batch_locally(space, ws, b, rank_bits, key_bits); });
  const int ranks = c.size();
  if (ranks == 1) return;
  const std::uint64_t m = b.size();
  const layout before = c.gather_layout(m);
  const std::uint64_t first = before.begin(c.rank());

  timer.begin("distributed_sort_exchange");
  // Regular samples: P per non-empty rank, at j * m / P.
  std::vector<std::uint64_t> mine;
  c.run([&] {
    if (m == 0) return;
    auto picked = make_array<std::uint64_t, ExecSpace>("strix::samples", 3 * std::uint64_t(ranks));
    auto rank = b.rank;
    auto key = b.key;
    Kokkos::parallel_for(
        "strix::pick_samples", policy(space, 0, ranks), KOKKOS_LAMBDA(const std::int64_t s) {
          const std::uint64_t j = std::uint64_t(s) * m / std::uint64_t(ranks);
          picked(3 * s) = std::uint64_t(rank(j));
          picked(3 * s + 1) = key(j);
          picked(3 * s + 2) = first + j;
        });
    auto h = strix::to_host(space, picked);
    mine.assign(h.data(), h.data() + h.extent(0));
  });
  const std::vector<std::uint64_t> flat = c.all_gather(mine);
  std::vector<sort_key> samples(flat.size() / 3);
  for (std::size_t s = 0; s < samples.size(); ++s) samples[s] = {flat[3 * s], flat[3 * s + 1], flat[3 * s + 2]};
  std::sort(samples.begin(), samples.end());

  // Splitter k (1 <= k < P) is sample k * S / P; rank k receives the triples in
  // [splitter k, splitter k + 1).
  std::vector<std::uint64_t> send(std::size_t(ranks) + 1, 0);
  send[ranks] = m;
  c.run([&] {
    if (samples.empty() || m == 0) return;
    auto splitters = make_array<std::uint64_t, ExecSpace>("strix::splitters", 3 * std::uint64_t(ranks));
    auto h = Kokkos::create_mirror_view(splitters);
    for (int k = 1; k < ranks; ++k) {
      const sort_key& s = samples[std::size_t(k) * samples.size() / std::size_t(ranks)];
      for (int f = 0; f < 3; ++f) h(3 * k + f) = s[f];
    }
    strix::copy(space, splitters, h);
    auto bounds = make_array<std::uint64_t, ExecSpace>("strix::splitter_bounds", ranks);
    auto rank = b.rank;
    auto key = b.key;
    Kokkos::parallel_for(
        "strix::split_batch", policy(space, 1, ranks), KOKKOS_LAMBDA(const std::int64_t k) {
          const std::uint64_t sr = splitters(3 * k), sk = splitters(3 * k + 1), sg = splitters(3 * k + 2);
          std::uint64_t lo = 0, hi = m;  // the first j not below the splitter
          while (lo < hi) {
            const std::uint64_t j = lo + (hi - lo) / 2;
            const std::uint64_t r = rank(j), kj = key(j), g = first + j;
            const bool below = r < sr || (r == sr && (kj < sk || (kj == sk && !keep_groups && g < sg)));
            if (below) lo = j + 1;
            else hi = j;
          }
          bounds(k) = lo;
        });
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bounds);
    for (int k = 1; k < ranks; ++k) send[k] = hb(k);
  });
  const auto incoming = receive_offsets(c, send);
  suffix_batch<I, ExecSpace> got;
  got.pos = send_arrays(space, c, b.pos, send, incoming, "strix::sorted_pos");
  got.rank = send_arrays(space, c, b.rank, send, incoming, "strix::sorted_rank");
  got.key = send_arrays(space, c, b.key, send, incoming, "strix::sorted_key");
  b = suffix_batch<I, ExecSpace>();
  b = got;
  // Runs arrive in source order, each sorted: a stable merge of them restores the global
  // order (ties stay in source order, which is their global order).
  timer.begin("distributed_sort_merge");
  c.run([&] { merge_batch_runs(space, b, incoming); });
}

}  // namespace strix::distributed::detail
