// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the distributed BWT and suffix-array check (strix/distributed/
// suffix_array.hpp): both are fetches of text bytes and ranks from the ranks that own
// them. Included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>

#include <strix/core/device_length.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/distributed/detail/exchange.hpp>
#include <strix/distributed/suffix_array.hpp>

namespace strix::distributed::detail {

template <class ExecSpace, class I>
layout checked_rows(const collective& c, const layout& positions, std::uint64_t rows_here, const char* what) {
  const layout rows = block_layout(positions.total(), c.size());
  c.run([&] {
    STRIX_USER_REQUIRE(rows_here == rows.size(c.rank()),
                       std::string(what) + ": rank " + std::to_string(c.rank()) + " passed " +
                           std::to_string(rows_here) + " rows, not the " + std::to_string(rows.size(c.rank())) +
                           " of rows " + std::to_string(rows.begin(c.rank())) + ".." + std::to_string(rows.end(c.rank())));
  });
  return rows;
}

template <class ExecSpace, class I>
std::uint64_t build_bwt(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                        const device_view<const I, ExecSpace>& sa, const device_view<std::uint8_t, ExecSpace>& out,
                        run_stats* stats) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using memory = typename ExecSpace::memory_space;
  collective c(comm);
  const layout positions = c.gather_layout(text.extent(0));
  const std::uint64_t n = positions.total();
  const layout rows = checked_rows<ExecSpace, I>(c, positions, sa.extent(0), "distributed bwt");
  c.run([&] {
    STRIX_USER_REQUIRE(out.extent(0) == sa.extent(0), "distributed bwt: output and suffix array sizes differ");
    check_length_on<I, ExecSpace>(n, "text of " + std::to_string(n) + " bytes");
  });
  if (n == 0) return 0;
  strix::detail::phase_timer<ExecSpace> timer(space, stats);
  timer.begin("distributed_transport_setup");
  choose_transport<ExecSpace>(c);
  timer.begin("distributed_bwt");
  primitives::workspace<ExecSpace> ws;
  const std::uint64_t m = sa.extent(0), first = rows.begin(c.rank());
  // Each row's preceding byte (T[n - 1] for the row of suffix 0), and that row.
  array<std::uint64_t, ExecSpace> before;
  std::uint64_t zero_row = n;
  c.run([&] {
    before = make_array<std::uint64_t, ExecSpace>("strix::bwt_targets", m);
    Kokkos::parallel_for(
        "strix::bwt_targets", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
          const std::uint64_t p = sa(j);
          before(j) = p == 0 ? n - 1 : (p <= n ? p - 1 : 0);
        });
    Kokkos::parallel_reduce(
        "strix::bwt_primary", policy(space, 0, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
          if (sa(j) == 0 && first + j < v) v = first + j;
        },
        Kokkos::Min<std::uint64_t>(zero_row));
  });
  const std::uint64_t primary_row = c.min(zero_row);
  c.run([&] { STRIX_USER_REQUIRE(primary_row < n, "distributed bwt: the suffix array has no row for suffix 0"); });
  auto row_bytes = fetch<std::uint8_t, I>(space, ws, c, before, m, positions, Kokkos::View<const std::uint8_t*, memory>(text));
  before = array<std::uint64_t, ExecSpace>();
  // divbwt's layout: the row of suffix 0 first, then the others in order.
  array<std::uint64_t, ExecSpace> source;
  c.run([&] {
    source = make_array<std::uint64_t, ExecSpace>("strix::bwt_sources", m);
    Kokkos::parallel_for(
        "strix::bwt_sources", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
          const std::uint64_t x = first + j;
          source(j) = x == 0 ? primary_row : (x <= primary_row ? x - 1 : x);
        });
  });
  auto placed = fetch<std::uint8_t, I>(space, ws, c, source, m, rows, Kokkos::View<const std::uint8_t*, memory>(row_bytes));
  c.run([&] {
    strix::copy(space, Kokkos::View<std::uint8_t*, memory>(out), placed);
    timer.end();
  });
  if (stats) report_transport(c, stats, "distributed_bwt");
  return primary_row + 1;
}

// Rows a step of the distributed check takes at a time: 2^27, or STRIX_CHECK_CHUNK_ROWS
// (tests: many chunks on small texts).
inline std::uint64_t check_chunk_rows() {
  std::uint64_t rows = std::uint64_t(1) << 27;
  if (const char* set = std::getenv("STRIX_CHECK_CHUNK_ROWS")) rows = std::max<std::uint64_t>(1, std::strtoull(set, nullptr, 10));
  return rows;
}

template <class ExecSpace, class I>
sa_check_result check_suffix_array(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                                   const device_view<const I, ExecSpace>& sa) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using memory = typename ExecSpace::memory_space;
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  collective c(comm);
  const layout positions = c.gather_layout(text.extent(0));
  const std::uint64_t n = positions.total();
  const layout rows = checked_rows<ExecSpace, I>(c, positions, sa.extent(0), "distributed check");
  sa_check_result result;
  if (n == 0) return result;
  choose_transport<ExecSpace>(c);
  primitives::workspace<ExecSpace> ws;
  const std::uint64_t m = sa.extent(0), first = rows.begin(c.rank());
  // The value at the first bad row: its rank knows it, the others add 0.
  auto value_at = [&](std::uint64_t row) {
    std::uint64_t v = 0;
    c.run([&] {
      if (row >= first && row < first + m)
        strix::copy(space, Kokkos::View<I, Kokkos::HostSpace>(reinterpret_cast<I*>(&v)), Kokkos::subview(sa, row - first));
      space.fence();
    });
    return c.sum(v);
  };

  // 1. Every value in range.
  std::uint64_t bad = none;
  c.run([&] {
    Kokkos::parallel_reduce(
        "strix::check_range", policy(space, 0, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
          if (std::uint64_t(sa(j)) >= n && first + j < v) v = first + j;
        },
        Kokkos::Min<std::uint64_t>(bad));
  });
  bad = c.min(bad);
  if (bad != none) {
    result.ok = false;
    result.position = bad;
    result.message = "out-of-range value " + std::to_string(value_at(bad)) + " at SA[" + std::to_string(bad) + "]";
    return result;
  }

  // Steps 2 and 3 go through the rows in chunks (the same number on every rank): an exchange's
  // buffers take some 60 bytes a row, which over a whole slice of a 64-bit suffix array left a
  // 5·10^9-byte text on 2 H200s without memory (bench/RESULTS.md §60).
  const std::uint64_t chunk = check_chunk_rows(), chunks = c.max((m + chunk - 1) / chunk);

  // 2. A permutation: the inverse at each value's owner, read back; a row that does not get
  // its own row back shares its value with another.
  array<I, ExecSpace> isa;
  c.run([&] { isa = make_array<I, ExecSpace>("strix::check_isa", text.extent(0)); });
  for (std::uint64_t k = 0; k < chunks; ++k) {
    const std::uint64_t lo = std::min(m, k * chunk), len = std::min(m, lo + chunk) - lo;
    const device_view<const I, ExecSpace> part(sa.data() + lo, len);
    array<I, ExecSpace> row_of;
    c.run([&] {
      row_of = make_array<I, ExecSpace>("strix::check_rows", len);
      const std::uint64_t row0 = first + lo;
      Kokkos::parallel_for("strix::check_rows", policy(space, 0, std::int64_t(len)),
                           KOKKOS_LAMBDA(const std::int64_t j) { row_of(j) = I(row0 + j); });
    });
    push<I, I>(space, ws, c, part, row_of, len, positions, isa);
  }
  for (std::uint64_t k = 0; k < chunks; ++k) {
    const std::uint64_t lo = std::min(m, k * chunk), len = std::min(m, lo + chunk) - lo;
    const device_view<const I, ExecSpace> part(sa.data() + lo, len);
    auto back = fetch<I, I>(space, ws, c, part, len, positions, Kokkos::View<const I*, memory>(isa));
    c.run([&] {
      const std::uint64_t row0 = first + lo;
      std::uint64_t found = none;
      Kokkos::parallel_reduce(
          "strix::check_duplicates", policy(space, 0, std::int64_t(len)),
          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
            if (std::uint64_t(back(j)) != row0 + j && row0 + j < v) v = row0 + j;
          },
          Kokkos::Min<std::uint64_t>(found));
      bad = std::min(bad, found);
    });
  }
  bad = c.min(bad);
  if (bad != none) {
    result.ok = false;
    result.position = bad;
    result.message = "duplicate value " + std::to_string(value_at(bad)) + " at SA[" + std::to_string(bad) + "]";
    return result;
  }

  // 3. Every neighbour pair in order: this rank's rows and the next rank's first. A chunk
  // takes its rows and the next one (the pair across the seam).
  const std::uint64_t pairs_end = std::min<std::uint64_t>(first + m + 1, n);
  const std::uint64_t count = m == 0 ? 0 : pairs_end - first;  // m or m + 1 values
  array<std::uint64_t, ExecSpace> next_row;
  c.run([&] {
    next_row = make_array<std::uint64_t, ExecSpace>("strix::check_next_row", count > m ? 1 : 0);
    if (count > m) strix::fill(space, next_row, first + m);
  });
  auto next_value = fetch<I, I>(space, ws, c, next_row, next_row.extent(0), rows, Kokkos::View<const I*, memory>(sa));
  for (std::uint64_t k = 0; k < chunks; ++k) {
    const std::uint64_t lo = std::min(count, k * chunk), len = std::min(count, lo + chunk + 1) - lo;
    array<std::uint64_t, ExecSpace> at, after;
    c.run([&] {
      at = make_array<std::uint64_t, ExecSpace>("strix::check_at", len);
      after = make_array<std::uint64_t, ExecSpace>("strix::check_after", len);
      Kokkos::parallel_for(
          "strix::check_targets", policy(space, 0, std::int64_t(len)), KOKKOS_LAMBDA(const std::int64_t j) {
            const std::uint64_t row = lo + std::uint64_t(j);
            const std::uint64_t p = row < m ? std::uint64_t(sa(row)) : std::uint64_t(next_value(0));
            at(j) = p;
            after(j) = p + 1 < n ? p + 1 : n - 1;
          });
    });
    auto chars = fetch<std::uint8_t, I>(space, ws, c, at, len, positions, Kokkos::View<const std::uint8_t*, memory>(text));
    auto ranks_after = fetch<I, I>(space, ws, c, after, len, positions, Kokkos::View<const I*, memory>(isa));
    c.run([&] {
      const std::uint64_t row0 = first + lo;
      std::uint64_t found = none;
      Kokkos::parallel_reduce(
          // (A chunk without pairs: the range must not start after its end, which Kokkos 4 refuses.)
          "strix::check_order", policy(space, 1, std::max<std::int64_t>(1, std::int64_t(len))),
          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
            const std::uint64_t a = at(j - 1), b = at(j);
            bool wrong = chars(j - 1) > chars(j);
            if (chars(j - 1) == chars(j) && a + 1 != n) wrong = (b + 1 == n) || ranks_after(j - 1) > ranks_after(j);
            if (wrong && row0 + j < v) v = row0 + j;
          },
          Kokkos::Min<std::uint64_t>(found));
      bad = std::min(bad, found);
    });
  }
  bad = c.min(bad);
  if (bad != none) {
    result.ok = false;
    result.position = bad;
    result.message = "suffixes out of order at SA[" + std::to_string(bad - 1) + "], SA[" + std::to_string(bad) + "]";
  }
  return result;
}

}  // namespace strix::distributed::detail

#define STRIX_DISTRIBUTED_BWT_CHECK_INSTANTIATE(SPACE, I)                                                  \
  template std::uint64_t strix::distributed::detail::build_bwt<SPACE, I>(                                 \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);                                \
  template strix::sa_check_result strix::distributed::detail::check_suffix_array<SPACE, I>(              \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
