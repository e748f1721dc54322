// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Issue 48's question for the GPU count: how many lanes a pattern. The library runs one lane
// per pattern (a warp steps 32 patterns together); the bench times two others on the same
// device views, for the record of why the library's choice is what it is:
//   two lanes a pattern   lane 0 follows sp and lane 1 ep, each one rank a step, joined by a
//                         vector-level reduction (twice the lanes, the same lines);
//   a warp a pattern      one lane searches while 31 wait: a warp's whole memory parallelism
//                         spent on one pattern (the lower bound of any warp-per-pattern scheme,
//                         whose rank needs only a few words of one line a step).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/fm_index/fm_index_ref.hpp>

namespace strix_bench {

struct sp_ep {
  std::uint64_t sp = 0, ep = 0;
  KOKKOS_INLINE_FUNCTION sp_ep& operator+=(const sp_ep& o) {
    sp += o.sp;
    ep += o.ep;
    return *this;
  }
  // Kokkos 3.x joins through volatile references (plain assignments: C++20 deprecates += there).
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile sp_ep& o) volatile {
    sp = sp + o.sp;
    ep = ep + o.ep;
  }
};

// counts(q) for every pattern; kernels queued on `space`.
template <class Space, class I, class Bytes, class Offsets, class Counts>
void count_two_lanes(const Space& space, const strix::fm_index_ref<I>& fm, const Bytes& bytes, const Offsets& offsets,
                     const Counts& counts) {
  using policy = Kokkos::TeamPolicy<Space>;
  // (Host spaces take teams of one thread: they run the strategies only to check them.)
  const int team = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible ? 1 : 64;
  const std::int64_t m = counts.extent(0);
  Kokkos::parallel_for(
      "strix_bench::count_two_lanes", policy(space, int((m + team - 1) / team), team, 2),
      KOKKOS_LAMBDA(const typename policy::member_type& member) {
        const std::int64_t q = std::int64_t(member.league_rank()) * team + member.team_rank();
        if (q >= m) return;
        const std::uint8_t* p = bytes.data() + offsets(q);
        std::uint64_t k = offsets(q + 1) - offsets(q);
        sp_ep range;
        range.sp = 0;
        range.ep = fm.rows();
        // The k-mer table's rows for the last k symbols, as the library's search starts.
        std::uint64_t sp, ep;
        if (fm.kmer_length > 0 && k >= std::uint64_t(fm.kmer_length) && fm.kmer_start(p + k - fm.kmer_length, sp, ep)) {
          range.sp = sp;
          range.ep = ep;
          k -= fm.kmer_length;
        }
        while (k > 0 && range.sp < range.ep) {
          const std::uint8_t c = p[--k];
          if (!fm.occurs(c)) {
            range.sp = range.ep = 0;
            break;
          }
          sp_ep next;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(member, 2),
              [&](const int lane, sp_ep& part) {
                if (lane == 0) part.sp += fm.C[c] + fm.rank(c, range.sp);
                else part.ep += fm.C[c] + fm.rank(c, range.ep);
              },
              next);
          range = next;
        }
        Kokkos::single(Kokkos::PerThread(member), [&] { counts(q) = static_cast<I>(range.ep - range.sp); });
      });
}

template <class Space, class I, class Bytes, class Offsets, class Counts>
void count_warp_per_pattern(const Space& space, const strix::fm_index_ref<I>& fm, const Bytes& bytes,
                            const Offsets& offsets, const Counts& counts) {
  using policy = Kokkos::TeamPolicy<Space>;
  Kokkos::parallel_for(
      "strix_bench::count_warp_per_pattern", policy(space, int(counts.extent(0)), 1, 32),
      KOKKOS_LAMBDA(const typename policy::member_type& member) {
        const std::int64_t q = member.league_rank();
        Kokkos::single(Kokkos::PerThread(member), [&] {
          std::uint64_t sp, ep;
          fm.search(bytes.data() + offsets(q), offsets(q + 1) - offsets(q), sp, ep);
          counts(q) = static_cast<I>(ep - sp);
        });
      });
}

}  // namespace strix_bench
