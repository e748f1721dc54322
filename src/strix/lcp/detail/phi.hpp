// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// LCP array by the irreducible-PLCP (Phi) method, on any Kokkos backend.
//
// Phi[SA[r]] = SA[r-1] names the suffix sorted just before each suffix, and
// PLCP[i] = lcp(i, Phi[i]) is the LCP array in text order: LCP[r] = PLCP[SA[r]].
// PLCP[i] is "reducible" when T[i-1] == T[Phi[i]-1]: then Phi[i-1] = Phi[i] - 1 and
// PLCP[i] = PLCP[i-1] - 1. Only the irreducible values need character comparisons, and
// they sum to at most 2 n log n (Kaerkkaeinen, Manzini, Puglisi, CPM 2009), so no input
// makes the work quadratic. PLCP[i] + i never decreases, so one running-max scan over
// the irreducible values of PLCP[i] + i fills in every reducible one.
//
// Load balance: a single irreducible value can be ~n (an all-equal text), so a thread
// compares at most lcp_chunk_bytes; unfinished positions go to rounds that split the
// next stretch [base, 2 base) of every comparison into chunks, one per thread, and keep
// the first mismatch with an atomic min. Work stays linear in the compared length and
// the rounds are logarithmic in the longest irreducible value.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::detail {


// Inclusive running maximum of v, in place.
template <class View>
struct running_max_scan {
  using value_type = typename View::non_const_value_type;
  View v;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, value_type& update,
                                         const bool final) const {
    const value_type x = v(i);
    if (x > update) update = x;
    if (final) v(i) = update;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& x) const { x = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src > dst) dst = src;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src > dst) dst = src;
  }
};

// True when PLCP[i] cannot be derived from PLCP[i-1]; `none` marks the first suffix.
template <class TextView, class I>
KOKKOS_INLINE_FUNCTION bool plcp_irreducible(const TextView& text, std::uint64_t i, I j, I none) {
  return i == 0 || j == none || j == 0 || text(i - 1) != text(j - 1);
}

// Positions whose first chunk matched completely and that have more to compare.
template <class IndexView, class I>
struct deferred_position {
  IndexView phi, v;
  std::uint64_t n;
  I none;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t ii) const {
    const std::uint64_t i = ii;
    const I j = phi(i);
    if (j == none) return false;
    const std::uint64_t bound = n - (i > j ? i : std::uint64_t(j));
    // Reducible positions hold 0 (< i + K); irreducible ones i + matched length.
    return bound > lcp_chunk_bytes && std::uint64_t(v(i)) == i + lcp_chunk_bytes;
  }
};

// lcp has n entries of the suffix array's index type; it also holds Phi on the way.
template <class ExecSpace, class I>
void phi_lcp(const ExecSpace& space, const text_view<ExecSpace>& text,
             const device_view<const I, ExecSpace>& sa, const device_view<I, ExecSpace>& lcp,
             run_stats* stats) {
  using mem = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index_view = device_view<I, ExecSpace>;
  constexpr std::uint64_t K = lcp_chunk_bytes;
  const std::uint64_t n = text.extent(0);
  memory_tracker tracker;
  tracker.acquire(n + 2 * n * sizeof(I));  // the caller's text, suffix array and output
  primitives::workspace<ExecSpace> ws(&tracker);
  phase_timer<ExecSpace> timer(space, stats);
  if (n == 0) {
    if (stats) stats->peak_bytes = tracker.peak();
    return;
  }
  const I none = static_cast<I>(n);  // n fits: the caller checked n <= max(I)

  timer.begin("lcp phi");
  auto phi = lcp;
  Kokkos::parallel_for(
      "strix::lcp_phi", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t r) { phi(sa(r)) = r == 0 ? none : sa(r - 1); });
  timer.begin("lcp irreducible");
  // v[i] = PLCP[i] + i at irreducible positions, 0 elsewhere (the scan's identity).
  auto v_buf = allocate<I, mem>("strix::lcp_plcp", n, &tracker);
  index_view v(v_buf.data(), n);
  std::uint64_t deferred = 0;
  Kokkos::parallel_reduce(
      "strix::lcp_irreducible", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t ii, std::uint64_t& count) {
        const std::uint64_t i = ii;
        const I j = phi(i);
        I value = 0;
        if (plcp_irreducible(text, i, j, none)) {
          std::uint64_t l = 0;
          if (j != none) {
            const std::uint64_t bound = n - (i > j ? i : std::uint64_t(j));
            const std::uint64_t lim = bound < K ? bound : K;
            while (l < lim && text(i + l) == text(j + l)) ++l;
            if (l == K && K < bound) ++count;
          }
          value = static_cast<I>(i + l);
        }
        v(i) = value;
      },
      deferred);
  if (deferred > 0) {
    timer.begin("lcp long comparisons");
    // The positions whose first chunk matched completely, in text order.
    auto todo_buf = allocate<I, mem>("strix::lcp_todo", deferred, &tracker);
    auto next_buf = allocate<I, mem>("strix::lcp_todo_next", deferred, &tracker);
    auto found_buf = allocate<I, mem>("strix::lcp_mismatch", deferred, &tracker);
    index_view todo(todo_buf.data(), deferred), next(next_buf.data(), deferred);
    index_view found(found_buf.data(), deferred);
    const std::uint64_t listed = primitives::select_indices(
        space, ws, static_cast<std::int64_t>(n),
        deferred_position<index_view, I>{phi, v, n, none}, todo);
    STRIX_REQUIRE(listed == deferred);
    constexpr I unset = std::numeric_limits<I>::max();  // never an offset: offsets < n
    std::uint64_t m = deferred, base = K;
    while (m > 0) {
      STRIX_REQUIRE(base < n);  // a deferred comparison has more than `base` bytes to go
      // Round: offsets [base, 2 base) of m comparisons, base / K chunks each.
      int shift = 0;
      while ((K << shift) < base) ++shift;
      const std::uint64_t chunks = m << shift;
      const std::uint64_t mask = (std::uint64_t(1) << shift) - 1;
      strix::fill(space, Kokkos::subview(found, std::make_pair(std::uint64_t(0), m)), unset);
      Kokkos::parallel_for(
          "strix::lcp_long_compare", policy(space, 0, chunks),
          KOKKOS_LAMBDA(const std::int64_t c) {
            const std::uint64_t t = std::uint64_t(c) >> shift;
            const std::uint64_t i = todo(t);
            const std::uint64_t j = phi(i);
            const std::uint64_t bound = n - (i > j ? i : j);
            const std::uint64_t from = base + (std::uint64_t(c) & mask) * K;
            if (from >= bound) return;
            const std::uint64_t to = from + K < bound ? from + K : bound;
            for (std::uint64_t o = from; o < to; ++o) {
              if (text(i + o) != text(j + o)) {
                Kokkos::atomic_fetch_min(&found(t), static_cast<I>(o));
                return;
              }
            }
            if (to == bound) Kokkos::atomic_fetch_min(&found(t), static_cast<I>(bound));
          });
      std::uint64_t left = 0;
      Kokkos::parallel_scan(
          "strix::lcp_long_finish", policy(space, 0, m),
          KOKKOS_LAMBDA(const std::int64_t t, std::uint64_t& upd, const bool final) {
            const I i = todo(t);
            const I l = found(t);
            if (l != unset) {
              if (final) v(i) = static_cast<I>(i + l);
              return;
            }
            if (final) next(upd) = i;
            ++upd;
          },
          left);
      std::swap(todo, next);
      m = left;
      base *= 2;
    }
    release(todo_buf, &tracker);
    release(next_buf, &tracker);
    release(found_buf, &tracker);
  }

  timer.begin("lcp fill");
  I max_end = 0;
  primitives::scan(space, ws, "strix::lcp_fill", running_max_scan<index_view>{v},
                   static_cast<std::int64_t>(n), max_end);
  Kokkos::parallel_for(
      "strix::lcp_gather", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t r) {
        const I s = sa(r);
        lcp(r) = static_cast<I>(v(s) - s);
      });
  timer.end();
  release(v_buf, &tracker);
  if (stats) stats->peak_bytes = tracker.peak();
}

}  // namespace strix::detail
