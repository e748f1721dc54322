// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index's batched queries (see fm_index.hpp): count, locate and extract kernels and
// the host-array batches, included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/fm_index/detail/fm_lockstep_def.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/primitives/streams.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::detail {

// Items [0, count) in pieces of `piece`, handed to the host threads as they free up (the
// lockstep queries differ in length): the sum of f(first, last) over the pieces. A
// parallel_for, not a parallel_reduce: called from a host thread other than the one that
// started Kokkos, Kokkos 3's OpenMP backend runs a parallel_for on the calling thread alone
// but refuses a parallel_reduce. (The Python module calls from Kokkos' own thread.)
template <class ExecSpace, class F>
std::uint64_t in_host_pieces(const ExecSpace& space, const char* label, std::int64_t count, std::int64_t piece,
                             const F& f) {
  using pieces = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t total = 0;
  std::uint64_t* sum = &total;
  Kokkos::parallel_for(label, pieces(space, 0, (count + piece - 1) / piece), [=](const std::int64_t j) {
    const std::uint64_t part = f(j * piece, std::min(count, (j + 1) * piece));
    if (part > 0) Kokkos::atomic_add(sum, part);
  });
  space.fence();
  return total;
}

template <class ExecSpace, class I>
void fm_count(const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint8_t, ExecSpace>& bytes,
              const device_view<const std::uint64_t, ExecSpace>& offsets, const device_view<I, ExecSpace>& counts,
              const device_view<std::uint64_t, ExecSpace>& ranges) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t m = counts.extent(0);
  const bool keep_ranges = ranges.extent(0) > 0;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (fm_lockstep_applies(fm)) {
      const std::uint8_t* b = bytes.data();
      const std::uint64_t* o = offsets.data();
      I* c = counts.data();
      std::uint64_t* r = keep_ranges ? ranges.data() : nullptr;
      in_host_pieces(space, "strix::fm_count_lockstep", m, 256, [=](std::int64_t first, std::int64_t last) {
        fm_count_lockstep<fm_lockstep_lanes>(fm, b, o, first, last, c, r);
        return std::uint64_t(0);
      });
      return;
    }
  }
  Kokkos::parallel_for("strix::fm_count", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
    std::uint64_t sp, ep;
    fm.search(bytes.data() + offsets(q), offsets(q + 1) - offsets(q), sp, ep);
    counts(q) = static_cast<I>(ep - sp);
    if (keep_ranges) {
      ranges(2 * q) = sp;
      ranges(2 * q + 1) = ep;
    }
  });
}

template <class ExecSpace, class I>
fm_locations<typename ExecSpace::memory_space, I> fm_locate(
    const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint8_t, ExecSpace>& bytes,
    const device_view<const std::uint64_t, ExecSpace>& offsets, std::uint64_t max_occ) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::int64_t m = offsets.extent(0) > 0 ? std::int64_t(offsets.extent(0)) - 1 : 0;
  fm_locations<memory_space, I> out;
  out.counts = allocate<I, memory_space>("strix::fm::counts", m);
  out.starts = allocate<std::uint64_t, memory_space>("strix::fm::starts", m + 1);
  auto ranges = allocate<std::uint64_t, memory_space>("strix::fm::ranges", 2 * m);
  fm_count<ExecSpace, I>(space, fm, bytes, offsets, device_view<I, ExecSpace>(out.counts.data(), m),
                         device_view<std::uint64_t, ExecSpace>(ranges.data(), 2 * m));
  // Each pattern's share of the answer, capped, and where it starts.
  const auto counts = out.counts;
  const auto starts = out.starts;
  std::uint64_t total = 0;
  Kokkos::parallel_scan("strix::fm_locate_starts", range(space, 0, m + 1),
                        KOKKOS_LAMBDA(const std::int64_t q, std::uint64_t& sum, const bool final) {
                          if (final) starts(q) = sum;
                          if (q < m) {
                            const std::uint64_t c = counts(q);
                            sum += max_occ && c > max_occ ? max_occ : c;
                          }
                        },
                        total);
  space.fence();
  out.positions = allocate<I, memory_space>("strix::fm::positions", total);
  auto rows = allocate<I, memory_space>("strix::fm::rows", total);
  auto status = allocate<std::uint64_t, memory_space>("strix::fm::status", 1);
  strix::fill(space, status, std::uint64_t(0));
  const auto positions = out.positions;
  // Occurrence t's row: its pattern by binary search in starts, then its place in the
  // pattern's interval.
  const auto row_of = KOKKOS_LAMBDA(const std::int64_t t) {
    std::int64_t lo = 0, hi = m - 1;  // last pattern whose start <= t
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo + 1) / 2;
      if (starts(mid) <= std::uint64_t(t)) lo = mid;
      else hi = mid - 1;
    }
    return ranges(2 * lo) + (std::uint64_t(t) - starts(lo));
  };
  std::uint64_t damaged = 0;
  bool in_lockstep = false;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (fm_lockstep_applies(fm)) {
      // The rows first, then their positions by LF steps of several rows in lockstep.
      in_lockstep = true;
      Kokkos::parallel_for("strix::fm_locate_rows", range(space, 0, std::int64_t(total)),
                           KOKKOS_LAMBDA(const std::int64_t t) { rows(t) = static_cast<I>(row_of(t)); });
      const I* r = rows.data();
      I* p = positions.data();
      damaged = in_host_pieces(space, "strix::fm_locate_lockstep", std::int64_t(total), 256,
                               [=](std::int64_t first, std::int64_t last) {
                                 return fm_positions_lockstep<fm_lockstep_lanes>(fm, r, first, last, p);
                               });
    }
  }
  if (!in_lockstep) {
    // One thread per occurrence: its row, its position by LF steps to a sample.
    Kokkos::parallel_for("strix::fm_locate", range(space, 0, std::int64_t(total)), KOKKOS_LAMBDA(const std::int64_t t) {
      const std::uint64_t r = row_of(t);
      const std::uint64_t p = fm.position(r);
      if (p > fm.n) Kokkos::atomic_add(&status(0), std::uint64_t(1));
      positions(t) = static_cast<I>(p);
      rows(t) = static_cast<I>(r);
    });
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&damaged), Kokkos::subview(status, 0));
  }
  space.fence();
  STRIX_USER_REQUIRE(damaged == 0, "fm_index: the suffix-array samples are damaged");
  if (total > 1) {
    // Ascending per pattern (the vendor sorts take offsets of the index's width).
    STRIX_USER_REQUIRE(total <= std::uint64_t(std::numeric_limits<I>::max()),
                       "fm_index: " + std::to_string(total) + " occurrences in one batch are too many for " +
                           std::to_string(8 * sizeof(I)) + "-bit positions: split the batch or cap it");
    auto segments = allocate<I, memory_space>("strix::fm::segments", m + 1);
    Kokkos::parallel_for("strix::fm_locate_segments", range(space, 0, m + 1),
                         KOKKOS_LAMBDA(const std::int64_t q) { segments(q) = static_cast<I>(starts(q)); });
    auto positions_alt = allocate<I, memory_space>("strix::fm::positions_alt", total);
    auto rows_alt = allocate<I, memory_space>("strix::fm::rows_alt", total);
    primitives::workspace<ExecSpace> ws;
    ws.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space, total, m));
    int key_bits = 1;
    while (key_bits < 64 && (fm.n >> key_bits) > 0) ++key_bits;
    // (Arguments deduced, not spelled: a spelled space would pick the portable default over
    // the vendor sorts.)
    const bool alt = primitives::segmented_sort_pairs(
        space, ws, device_view<I, ExecSpace>(positions.data(), total), device_view<I, ExecSpace>(positions_alt.data(), total),
        device_view<I, ExecSpace>(rows.data(), total), device_view<I, ExecSpace>(rows_alt.data(), total),
        device_view<const I, ExecSpace>(segments.data(), m + 1), m, key_bits);
    if (alt) out.positions = positions_alt;
  }
  space.fence();
  return out;
}

template <class ExecSpace, class I>
void fm_extract(const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint64_t, ExecSpace>& starts,
                const device_view<const std::uint64_t, ExecSpace>& lengths,
                const device_view<const std::uint64_t, ExecSpace>& out_offsets,
                const device_view<std::uint8_t, ExecSpace>& out) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if constexpr (is_host_space_v<ExecSpace>) {
    if (fm_lockstep_applies(fm)) {
      const std::uint64_t *s = starts.data(), *l = lengths.data(), *o = out_offsets.data();
      std::uint8_t* d = out.data();
      in_host_pieces(space, "strix::fm_extract_lockstep", std::int64_t(starts.extent(0)), 64,
                     [=](std::int64_t first, std::int64_t last) {
                       fm_extract_lockstep<fm_lockstep_lanes>(fm, s, l, o, d, first, last);
                       return std::uint64_t(0);
                     });
      return;
    }
  }
  Kokkos::parallel_for("strix::fm_extract", range(space, 0, starts.extent(0)), KOKKOS_LAMBDA(const std::int64_t q) {
    const std::uint64_t start = starts(q), end = start + lengths(q), rate = fm.sample_rate;
    // From the first sampled position at or after the end (or the end of the text, row 0),
    // LF steps back to the start; each step yields the symbol before the current suffix.
    std::uint64_t p = (end + rate - 1) / rate * rate, row = 0;
    if (p > fm.n) p = fm.n;
    else row = fm.sampled_row(p / rate);
    std::uint8_t* dst = out.data() + out_offsets(q);
    while (p > start) {
      std::uint8_t c;
      row = fm.lf(row, c);
      --p;
      if (p < end) dst[p - start] = c;
    }
  });
}

// Offsets ascend from 0 to `size` (checked on the device).
template <class ExecSpace>
bool fm_offsets_ascend(const ExecSpace& space, const device_view<const std::uint64_t, ExecSpace>& offsets,
                       std::uint64_t size) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t bad = 0;
  Kokkos::parallel_reduce("strix::fm_check_offsets", range(space, 0, std::int64_t(offsets.extent(0))),
                          KOKKOS_LAMBDA(const std::int64_t q, std::uint64_t& sum) {
                            const bool ok = q == 0 ? offsets(0) == 0
                                                   : offsets(q) >= offsets(q - 1) && offsets(q) <= size;
                            sum += ok ? 0 : 1;
                          },
                          bad);
  return bad == 0;
}

}  // namespace strix::detail

namespace strix {

template <class ExecutionSpace, class I>
std::size_t fm_index<ExecutionSpace, I>::check_batch(const view<const std::uint8_t>& bytes,
                                                     const view<const std::uint64_t>& offsets) const {
  STRIX_USER_REQUIRE(offsets.extent(0) >= 1, "fm_index: a batch of m patterns has m + 1 offsets");
  STRIX_USER_REQUIRE(detail::fm_offsets_ascend(space_, dv(offsets), bytes.extent(0)),
                     "fm_index: pattern offsets must ascend from 0 to the bytes' length");
  return offsets.extent(0) - 1;
}

template <class ExecutionSpace, class I>
void fm_index<ExecutionSpace, I>::extract(const view<const std::uint64_t>& starts, const view<const std::uint64_t>& lengths,
                                          const view<const std::uint64_t>& out_offsets,
                                          const view<std::uint8_t>& out) const {
  const std::size_t m = starts.extent(0);
  STRIX_USER_REQUIRE(lengths.extent(0) == m && out_offsets.extent(0) == m,
                     "fm_index: extract takes as many lengths and output offsets as starts");
  STRIX_USER_REQUIRE(can_extract(), "fm_index: built without extract samples (fm_options::extract)");
  using range = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t bad = 0;
  const std::uint64_t n = size(), room = out.extent(0);
  Kokkos::parallel_reduce("strix::fm_check_extract", range(space_, 0, std::int64_t(m)),
                          KOKKOS_LAMBDA(const std::int64_t q, std::uint64_t& sum) {
                            const bool ok = starts(q) <= n && lengths(q) <= n - starts(q) &&
                                            out_offsets(q) <= room && lengths(q) <= room - out_offsets(q);
                            sum += ok ? 0 : 1;
                          },
                          bad);
  STRIX_USER_REQUIRE(bad == 0, "fm_index: " + std::to_string(bad) + " extract ranges out of the text or the output");
  detail::fm_extract<ExecutionSpace, I>(space_, ref(), dv(starts), dv(lengths), dv(out_offsets), dv(out));
}

template <class ExecutionSpace, class I>
std::vector<I> fm_index<ExecutionSpace, I>::count(const std::uint8_t* bytes, const std::uint64_t* offsets,
                                                  std::size_t m) const {
  std::vector<I> counts(m);
  if (m == 0) return counts;
  using host_u8 = Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using host_u64 = Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  // The offsets must ascend: checked here, where they are read anyway.
  for (std::size_t q = 0; q < m; ++q)
    STRIX_USER_REQUIRE(offsets[q] <= offsets[q + 1], "fm_index: pattern offsets must ascend");
  const std::size_t chunk = std::min(options_.host_chunk, m);
  const std::size_t chunks = (m + chunk - 1) / chunk;
  // Chunks round-robin over streams, each with its own buffers: chunk j + s waits only for
  // chunk j's copy-out on its stream, and copies overlap the searches of other streams (with
  // one stream on host backends, where the memory is the execution space's).
  const int s_count = is_host_space_v<ExecutionSpace> ? 1 : int(std::min<std::size_t>(4, chunks));
  primitives::stream_pool<ExecutionSpace> streams(space_, s_count);
  std::size_t most_bytes = 0;
  for (std::size_t j = 0; j < chunks; ++j) {
    const std::size_t first = j * chunk, k = std::min(chunk, m - first);
    most_bytes = std::max<std::size_t>(most_bytes, offsets[first + k] - offsets[first]);
  }
  auto d_bytes = detail::allocate<std::uint8_t, memory_space>("strix::fm::chunk_bytes", s_count * most_bytes);
  auto d_offsets = detail::allocate<std::uint64_t, memory_space>("strix::fm::chunk_offsets", s_count * (chunk + 1));
  auto d_counts = detail::allocate<I, memory_space>("strix::fm::chunk_counts", s_count * chunk);
  std::vector<std::uint64_t> rebased(s_count * (chunk + 1));
  space_.fence();
  const auto fm = ref();
  for (std::size_t j = 0; j < chunks; ++j) {
    const int s = int(j % s_count);
    const auto& sp = streams[s];
    const std::size_t first = j * chunk, k = std::min(chunk, m - first);
    const std::uint64_t base = offsets[first], length = offsets[first + k] - base;
    if (j >= std::size_t(s_count)) sp.fence();  // this stream's buffers are free again
    std::uint64_t* local = rebased.data() + s * (chunk + 1);
    for (std::size_t q = 0; q <= k; ++q) local[q] = offsets[first + q] - base;
    device_view<std::uint8_t, ExecutionSpace> b(d_bytes.data() + s * most_bytes, length);
    device_view<std::uint64_t, ExecutionSpace> o(d_offsets.data() + s * (chunk + 1), k + 1);
    device_view<I, ExecutionSpace> c(d_counts.data() + s * chunk, k);
    strix::copy(sp, b, host_u8(bytes + base, length));
    strix::copy(sp, o, host_u64(local, k + 1));
    detail::fm_count<ExecutionSpace, I>(sp, fm, b, o, c, device_view<std::uint64_t, ExecutionSpace>());
    strix::copy(sp, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(counts.data() + first, k), c);
  }
  streams.fence();
  return counts;
}

template <class ExecutionSpace, class I>
typename fm_index<ExecutionSpace, I>::host_locations fm_index<ExecutionSpace, I>::locate(
    const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m, std::uint64_t max_occ) const {
  host_locations out;
  out.starts.assign(1, 0);
  std::vector<std::uint64_t> local;
  for (std::size_t first = 0; first < m; first += options_.host_chunk) {
    const std::size_t k = std::min(options_.host_chunk, m - first);
    local.assign(offsets + first, offsets + first + k + 1);
    for (auto& o : local) o -= offsets[first];
    auto d_bytes = strix::to_device(space_, bytes + offsets[first], local[k], "strix::fm::pattern_bytes");
    auto d_offsets = strix::to_device(space_, local.data(), k + 1, "strix::fm::pattern_offsets");
    const auto found = locate(d_bytes, d_offsets, max_occ);
    auto starts = strix::to_host(space_, found.starts);
    auto positions = strix::to_host(space_, found.positions);
    auto counts = strix::to_host(space_, found.counts);
    const std::uint64_t base = out.positions.size();
    out.positions.insert(out.positions.end(), positions.data(), positions.data() + positions.extent(0));
    out.counts.insert(out.counts.end(), counts.data(), counts.data() + k);
    for (std::size_t q = 1; q <= k; ++q) out.starts.push_back(base + starts(q));
  }
  return out;
}

template <class ExecutionSpace, class I>
std::vector<std::uint8_t> fm_index<ExecutionSpace, I>::extract(std::uint64_t start, std::uint64_t length) const {
  STRIX_USER_REQUIRE(start <= size() && length <= size() - start,
                     "fm_index: extract of [" + std::to_string(start) + ", " + std::to_string(start) + " + " +
                         std::to_string(length) + ") beyond a text of " + std::to_string(size()));
  // Pieces of 4096 symbols (each from its own sample) so that a long range runs in parallel.
  constexpr std::uint64_t piece = 4096;
  const std::size_t pieces = (length + piece - 1) / piece;
  std::vector<std::uint64_t> starts(pieces), lengths(pieces), at(pieces);
  for (std::size_t j = 0; j < pieces; ++j) {
    at[j] = j * piece;
    starts[j] = start + at[j];
    lengths[j] = std::min(piece, length - at[j]);
  }
  auto d_starts = strix::to_device(space_, starts.data(), pieces, "strix::fm::extract_starts");
  auto d_lengths = strix::to_device(space_, lengths.data(), pieces, "strix::fm::extract_lengths");
  auto d_at = strix::to_device(space_, at.data(), pieces, "strix::fm::extract_at");
  auto d_out = detail::allocate<std::uint8_t, memory_space>("strix::fm::extracted", length);
  extract(d_starts, d_lengths, d_at, d_out);
  std::vector<std::uint8_t> text(length);
  strix::copy(space_, Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(text.data(), length), d_out);
  space_.fence();
  return text;
}

template <class ExecutionSpace, class I>
std::uint64_t fm_index<ExecutionSpace, I>::count(const std::string& pattern) const {
  const std::uint64_t offsets[2] = {0, pattern.size()};
  return count(reinterpret_cast<const std::uint8_t*>(pattern.data()), offsets, 1)[0];
}

template <class ExecutionSpace, class I>
std::vector<I> fm_index<ExecutionSpace, I>::locate(const std::string& pattern, std::uint64_t max_occ) const {
  const std::uint64_t offsets[2] = {0, pattern.size()};
  return locate(reinterpret_cast<const std::uint8_t*>(pattern.data()), offsets, 1, max_occ).positions;
}

}  // namespace strix
