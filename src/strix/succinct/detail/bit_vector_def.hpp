// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the bit vector's construction and batched queries (see bit_vector.hpp),
// included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/succinct/bit_vector.hpp>

namespace strix::detail {

template <class ExecSpace, class P>
void build_rank_select(const ExecSpace& space, bit_vector_data<ExecSpace, P>& d,
                       const bit_vector_options& options) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  check_select_sample(options.select_sample);
  const std::uint64_t n = d.n;
  const std::uint64_t num_l2 = (n + 511) >> l2_bits_log2;
  const std::uint64_t num_l1 = (num_l2 >> (l1_bits_log2 - l2_bits_log2)) + 1;
  STRIX_REQUIRE(d.words.extent(0) >= padded_words(n));
  d.sample_log2 = log2_exact(options.select_sample);
  d.l1 = allocate<std::uint64_t, memory_space>("strix::bit_vector::l1", num_l1);
  // Whole 16-count sectors (select reads them whole); the padding is zero.
  d.l2 = allocate<std::uint16_t, memory_space>("strix::bit_vector::l2", (num_l2 + 1 + 15) / 16 * 16);
  strix::fill(space, d.l2, std::uint16_t(0));

  // Bits at and after n are zero: rank counts backward from block ends, select0 inverts.
  auto words = d.words;
  const std::uint64_t first_word = n >> 6, end_word = words.extent(0);
  if (first_word < end_word)
    Kokkos::parallel_for(
        "strix::bit_vector_clear_tail", range(space, first_word, end_word), KOKKOS_LAMBDA(const std::int64_t w) {
          const unsigned keep = std::uint64_t(w) == first_word ? unsigned(n & 63) : 0u;
          words(w) &= keep ? (std::uint64_t(1) << keep) - 1 : std::uint64_t(0);
        });

  // One team per L1 block: each L2 block's popcount, scanned inside the team; entry 128 of
  // the scan is the block's total, kept in l1 for the scan over blocks below.
  auto l1 = d.l1;
  auto l2 = d.l2;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  const int team_size = is_host_space_v<ExecSpace> ? 1 : l2_per_l1;
  Kokkos::parallel_for(
      "strix::bit_vector_l2_counts", team_policy(space, std::int64_t(num_l1), team_size),
      KOKKOS_LAMBDA(const member& team) {
        const std::uint64_t b = team.league_rank();
        Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, l2_per_l1 + 1),
                              [&](const int t, std::uint64_t& upd, const bool final) {
                                const std::uint64_t j = b * l2_per_l1 + t;
                                std::uint64_t c = 0;
                                if (t < l2_per_l1 && j < num_l2)
                                  for (int w = 0; w < words_per_l2; ++w) c += popcount64(words(j * words_per_l2 + w));
                                if (final) {
                                  if (t < l2_per_l1 && j <= num_l2) l2(j) = static_cast<std::uint16_t>(upd);
                                  if (t == l2_per_l1) l1(b) = upd;
                                }
                                upd += c;
                              });
      });
  std::uint64_t ones = 0;
  Kokkos::parallel_scan(
      "strix::bit_vector_l1_counts", range(space, 0, num_l1),
      KOKKOS_LAMBDA(const std::int64_t b, std::uint64_t& upd, const bool final) {
        const std::uint64_t c = l1(b);
        if (final) l1(b) = upd;
        upd += c;
      },
      ones);
  d.ones = ones;

  // Select samples: the (s*S + 1)-th one and zero, found by searching the counts alone.
  const std::uint64_t zeros = n - ones;
  const std::uint64_t s1 = ones ? ((ones - 1) >> d.sample_log2) + 1 : 0;
  const std::uint64_t s0 = zeros ? ((zeros - 1) >> d.sample_log2) + 1 : 0;
  d.samples1 = allocate<P, memory_space>("strix::bit_vector::samples1", s1);
  d.samples0 = allocate<P, memory_space>("strix::bit_vector::samples0", s0);
  const bit_vector_ref<P> ref = d.ref();
  auto samples1 = d.samples1;
  auto samples0 = d.samples0;
  const int shift = d.sample_log2;
  Kokkos::parallel_for(
      "strix::bit_vector_samples", range(space, 0, s1 + s0), KOKKOS_LAMBDA(const std::int64_t s) {
        if (std::uint64_t(s) < s1)
          samples1(s) = ref.template select<true>((P(s) << shift) + 1, false);
        else
          samples0(s - s1) = ref.template select<false>((P(s - s1) << shift) + 1, false);
      });
  space.fence();
}

template <class ExecSpace, class P>
void bit_vector_queries(const ExecSpace& space, const bit_vector_ref<P>& bv, bit_query op,
                        const device_view<const P, ExecSpace>& args, const device_view<P, ExecSpace>& answers,
                        const device_view<std::uint64_t, ExecSpace>& status) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t m = args.extent(0);
  // One kernel per operation: no per-query branch on the kind.
  switch (op) {
    case bit_query::access:
      Kokkos::parallel_for("strix::bit_vector_access", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P i = args(q);
        if (i >= bv.n) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); answers(q) = 0; return; }
        answers(q) = bv.access(i) ? 1 : 0;
      });
      break;
    case bit_query::rank1:
      Kokkos::parallel_for("strix::bit_vector_rank1", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P i = args(q);
        if (i > bv.n) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); answers(q) = 0; return; }
        answers(q) = bv.rank1(i);
      });
      break;
    case bit_query::rank0:
      Kokkos::parallel_for("strix::bit_vector_rank0", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P i = args(q);
        if (i > bv.n) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); answers(q) = 0; return; }
        answers(q) = bv.rank0(i);
      });
      break;
    case bit_query::select1:
      Kokkos::parallel_for("strix::bit_vector_select1", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P k = args(q);
        if (k == 0) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); answers(q) = 0; return; }
        answers(q) = k <= bv.ones ? bv.select1(k) : bv.n;
      });
      break;
    case bit_query::select0:
      Kokkos::parallel_for("strix::bit_vector_select0", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P k = args(q);
        if (k == 0) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); answers(q) = 0; return; }
        answers(q) = k <= bv.zeros() ? bv.select0(k) : bv.n;
      });
      break;
  }
}

}  // namespace strix::detail

#define STRIX_BIT_VECTOR_INSTANTIATE(SPACE, I)                                                    \
  template void strix::detail::build_rank_select<SPACE, I>(                                       \
      const SPACE&, strix::detail::bit_vector_data<SPACE, I>&, const strix::bit_vector_options&); \
  template void strix::detail::bit_vector_queries<SPACE, I>(                                      \
      const SPACE&, const strix::bit_vector_ref<I>&, strix::bit_query,                            \
      const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&,             \
      const strix::device_view<std::uint64_t, SPACE>&);
