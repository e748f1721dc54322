// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index's batched queries (see fm_index.hpp): count, locate and extract kernels and
// the host-array batches, included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <strix/core/bits.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/staging.hpp>
#include <strix/core/memory.hpp>
#include <strix/fm_index/detail/fm_lockstep_def.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/primitives/small_segment_sort.hpp>
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

// The located positions sorted inside their patterns' segments by size class: patterns of up
// to 2^c occurrences (2 <= 2^c <= small_segment_max) listed by class, then one small-segment
// sort a class (a warp or a block a segment, in shared memory). The general segmented sort
// spends most of a locate's sorting time on the few patterns of hundreds of occurrences
// (RESULTS §30). False, with nothing sorted, when a pattern has more than small_segment_max.
template <class ExecSpace, class I>
bool fm_sort_positions_by_class(const ExecSpace& space, const device_view<I, ExecSpace>& positions,
                                const device_view<I, ExecSpace>& rows, const device_view<const I, ExecSpace>& segments,
                                std::int64_t m) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr int largest = 11, beyond = 12, codes = 16, code_bits = 4;  // 2^11 = small_segment_max
  static_assert((std::size_t(1) << largest) == primitives::small_segment_max, "classes up to the small sort's limit");
  auto buf = allocate<I, memory_space>("strix::fm::size_classes", 4 * std::size_t(m));
  device_view<I, ExecSpace> code(buf.data(), m), code_alt(buf.data() + m, m), list(buf.data() + 2 * m, m),
      list_alt(buf.data() + 3 * m, m);
  Kokkos::parallel_for("strix::fm_size_classes", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
    const std::uint64_t len = segments(q + 1) - segments(q);
    code(q) = static_cast<I>(len < 2 ? 0 : len > (std::uint64_t(1) << largest) ? beyond : bits_for(len - 1));
    list(q) = static_cast<I>(q);
  });
  primitives::workspace<ExecSpace> ws;
  ws.reserve(primitives::radix_sort_pairs_scratch_bytes<I, I>(space, std::size_t(m)));
  if (primitives::radix_sort_pairs(space, ws, code, code_alt, list, list_alt, 0, code_bits)) {
    std::swap(code, code_alt);
    std::swap(list, list_alt);
  }
  auto bounds = allocate<I, memory_space>("strix::fm::class_bounds", 2 * codes);
  strix::fill(space, bounds, I(0));
  Kokkos::parallel_for("strix::fm_class_bounds", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t i) {
    const I c = code(i);
    if (i == 0 || code(i - 1) != c) bounds(c) = static_cast<I>(i);
    if (i + 1 == m || code(i + 1) != c) bounds(codes + c) = static_cast<I>(i + 1);
  });
  const auto b = strix::to_host(space, bounds);
  if (b(codes + beyond) > b(beyond)) return false;
  for (int c = 1; c <= largest; ++c) {
    if (b(codes + c) == b(c)) continue;
    primitives::sort_small_segments(space, positions, rows, segments,
                                    device_view<const I, ExecSpace>(list.data() + b(c), b(codes + c) - b(c)),
                                    std::size_t(1) << c);
  }
  return true;
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
    if constexpr (!is_host_space_v<ExecSpace>) {
      if (fm_sort_positions_by_class<ExecSpace, I>(space, device_view<I, ExecSpace>(positions.data(), total),
                                                   device_view<I, ExecSpace>(rows.data(), total),
                                                   device_view<const I, ExecSpace>(segments.data(), m + 1), m)) {
        space.fence();
        return out;
      }
    }
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

namespace detail {

// Per slot: pinned host buffers that the host fills and empties while the device works
// on the other slots, their device twins, and the slots' streams. Grown, never shrunk,
// made once per index: a stream pool's instances cost allocations and device-wide
// synchronisations to make and to destroy (Kokkos 3.4). `busy` while a batch uses them.
template <class ExecSpace, class I>
struct fm_host_staging {
  using pinned = staging_space_t<ExecSpace>;
  using memory_space = typename ExecSpace::memory_space;
  std::mutex busy;
  std::size_t slot_bytes = 0, slot_patterns = 0;
  int slots = 0;
  Kokkos::View<std::uint8_t*, pinned> host_bytes;
  Kokkos::View<std::uint64_t*, pinned> host_offsets;
  Kokkos::View<I*, pinned> host_counts;
  Kokkos::View<std::uint8_t*, memory_space> bytes;
  Kokkos::View<std::uint64_t*, memory_space> offsets;
  Kokkos::View<I*, memory_space> counts;
  std::unique_ptr<primitives::stream_pool<ExecSpace>> streams;

  void reserve(const ExecSpace& space, int want_slots, std::size_t patterns, std::size_t most_bytes) {
    if (want_slots > slots || !streams) streams = std::make_unique<primitives::stream_pool<ExecSpace>>(space, std::max(slots, want_slots));
    if (want_slots <= slots && patterns <= slot_patterns && most_bytes <= slot_bytes) return;
    slots = std::max(slots, want_slots);
    slot_patterns = std::max(slot_patterns, patterns);
    slot_bytes = std::max(slot_bytes, most_bytes);
    const std::size_t s = std::size_t(slots);
    host_bytes = allocate<std::uint8_t, pinned>("strix::fm::staged_bytes", s * slot_bytes);
    host_offsets = allocate<std::uint64_t, pinned>("strix::fm::staged_offsets", s * (slot_patterns + 1));
    host_counts = allocate<I, pinned>("strix::fm::staged_counts", s * slot_patterns);
    bytes = allocate<std::uint8_t, memory_space>("strix::fm::chunk_bytes", s * slot_bytes);
    offsets = allocate<std::uint64_t, memory_space>("strix::fm::chunk_offsets", s * (slot_patterns + 1));
    counts = allocate<I, memory_space>("strix::fm::chunk_counts", s * slot_patterns);
  }
};

// Block b of a host copy of `bytes` bytes cut in blocks of `block`: the staging pass and the
// drain share it.
inline void fm_copy_block(std::uint8_t* to, const std::uint8_t* from, std::uint64_t bytes, std::int64_t b,
                          std::int64_t block) {
  const std::uint64_t at = std::uint64_t(b) * std::uint64_t(block);
  std::memcpy(to + at, from + at, std::min<std::uint64_t>(std::uint64_t(block), bytes - at));
}

// One pass of the host's threads over a host-array batch: chunk `first`'s patterns staged
// (dst_offsets[0, k] = offsets[first, first + k] - offsets[first] and their bytes copied)
// and, beside them, an earlier chunk's counts drained (`drain_bytes` from drain_src to
// drain_dst; none when 0). False when the staged offsets do not ascend.
inline bool fm_stage_chunk(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t first, std::size_t k,
                           std::uint8_t* dst_bytes, std::uint64_t* dst_offsets, void* drain_dst, const void* drain_src,
                           std::size_t drain_bytes) {
  using host = Kokkos::DefaultHostExecutionSpace;
  using range = Kokkos::RangePolicy<host, Kokkos::IndexType<std::int64_t>>;
  constexpr std::int64_t block = 1 << 16;
  const std::uint64_t base = offsets[first], length = offsets[first + k] - base;
  const std::int64_t byte_blocks = std::int64_t((length + block - 1) / block);
  const std::int64_t offset_blocks = std::int64_t((k + 1 + block - 1) / block);
  const std::int64_t drain_blocks = std::int64_t((drain_bytes + block - 1) / block);
  std::uint64_t bad = 0;
  std::uint64_t* flag = &bad;
  auto* drain_to = static_cast<std::uint8_t*>(drain_dst);
  const auto* drain_from = static_cast<const std::uint8_t*>(drain_src);
  // (A parallel_for: Kokkos 3's OpenMP refuses reductions from threads it did not start.)
  Kokkos::parallel_for("strix::fm_stage_chunk", range(host(), 0, byte_blocks + offset_blocks + drain_blocks),
                       [=](std::int64_t b) {
    if (b < byte_blocks) return fm_copy_block(dst_bytes, bytes + base, length, b, block);
    b -= byte_blocks;
    if (b >= offset_blocks) return fm_copy_block(drain_to, drain_from, drain_bytes, b - offset_blocks, block);
    // Ascending pairs within the block and across its first edge: with offsets[first] as the
    // base, every offset then lies in [base, offsets[first + k]].
    const std::size_t lo = std::size_t(b) * block, hi = std::min<std::size_t>(k + 1, lo + block);
    std::uint64_t wrong = 0;
    for (std::size_t q = lo; q < hi; ++q) {
      const std::uint64_t o = offsets[first + q];
      wrong |= (q > 0 && o < offsets[first + q - 1]);
      dst_offsets[q] = o - base;
    }
    if (wrong) Kokkos::atomic_add(flag, std::uint64_t(1));
  });
  host().fence();
  return bad == 0;
}

// dst[0, bytes) = src[0, bytes) on the host's threads (the batch's last counts).
inline void fm_drain(void* dst, const void* src, std::size_t bytes) {
  using host = Kokkos::DefaultHostExecutionSpace;
  constexpr std::int64_t block = 1 << 16;
  auto* to = static_cast<std::uint8_t*>(dst);
  const auto* from = static_cast<const std::uint8_t*>(src);
  Kokkos::parallel_for("strix::fm_drain", Kokkos::RangePolicy<host, Kokkos::IndexType<std::int64_t>>(
                                             host(), 0, std::int64_t((bytes + block - 1) / block)),
                       [=](const std::int64_t b) { fm_copy_block(to, from, bytes, b, block); });
  host().fence();
}

}  // namespace detail

template <class ExecutionSpace, class I>
std::vector<I> fm_index<ExecutionSpace, I>::count(const std::uint8_t* bytes, const std::uint64_t* offsets,
                                                  std::size_t m) const {
  // The answer on huge pages where the kernel allows: its first touch otherwise faults page
  // by page (22 ms of a 61 ms call for 10^7 counts on the H100 machine's host, RESULTS §29).
  std::vector<I> counts;
  counts.reserve(m);
  advise_huge_pages(counts.data(), m * sizeof(I));
  counts.resize(m);
  count(bytes, offsets, m, counts.data());
  return counts;
}

template <class ExecutionSpace, class I>
void fm_index<ExecutionSpace, I>::count(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                                        I* counts) const {
  if (m == 0) return;
  const auto fm = ref();
  if constexpr (is_host_space_v<ExecutionSpace>) {
    // The execution space reads host memory: the batch as it is, no copies.
    STRIX_USER_REQUIRE(offsets[0] == 0, "fm_index: pattern offsets must ascend from 0");
    for (std::size_t q = 0; q < m; ++q)
      STRIX_USER_REQUIRE(offsets[q] <= offsets[q + 1], "fm_index: pattern offsets must ascend");
    detail::fm_count<ExecutionSpace, I>(space_, fm, device_view<const std::uint8_t, ExecutionSpace>(bytes, offsets[m]),
                                        device_view<const std::uint64_t, ExecutionSpace>(offsets, m + 1),
                                        device_view<I, ExecutionSpace>(counts, m),
                                        device_view<std::uint64_t, ExecutionSpace>());
    space_.fence();
  } else {
    // Chunks round-robin over slots, each with its own stream and buffers: in one pass the
    // host threads stage chunk j (its bytes and rebased offsets into pinned memory) and drain
    // chunk j - slots's counts into the answer, while the device copies in, searches and
    // copies out the chunks between.
    const std::size_t chunk = std::min(options_.host_chunk, m);
    const std::size_t chunks = (m + chunk - 1) / chunk;
    const int slots = int(std::min<std::size_t>(3, chunks));
    std::size_t most_bytes = 0;
    for (std::size_t j = 0; j < chunks; ++j) {
      const std::size_t first = j * chunk, k = std::min(chunk, m - first);
      STRIX_USER_REQUIRE(offsets[first + k] >= offsets[first], "fm_index: pattern offsets must ascend");
      most_bytes = std::max<std::size_t>(most_bytes, offsets[first + k] - offsets[first]);
    }
    // This index's staging, or one of this batch's own while another host thread holds it.
    std::shared_ptr<detail::fm_host_staging<ExecutionSpace, I>> own;
    std::unique_lock<std::mutex> held;
    {
      static std::mutex making;
      std::lock_guard<std::mutex> guard(making);
      if (!staging_) staging_ = std::make_shared<detail::fm_host_staging<ExecutionSpace, I>>();
      held = std::unique_lock<std::mutex>(staging_->busy, std::try_to_lock);
    }
    if (!held.owns_lock()) own = std::make_shared<detail::fm_host_staging<ExecutionSpace, I>>();
    auto& st = held.owns_lock() ? *staging_ : *own;
    st.reserve(space_, slots, chunk, most_bytes);
    const auto& streams = *st.streams;
    space_.fence();  // the index's own work before the streams read it
    const std::size_t sb = st.slot_bytes, sq = st.slot_patterns;
    const auto patterns_of = [&](std::size_t j) { return std::min(chunk, m - j * chunk); };
    for (std::size_t j = 0; j < chunks; ++j) {
      const int s = int(j % slots);
      const auto& sp = streams[s];
      const std::size_t first = j * chunk, k = patterns_of(j);
      const std::uint64_t length = offsets[first + k] - offsets[first];
      std::uint8_t* hb = st.host_bytes.data() + s * sb;
      std::uint64_t* ho = st.host_offsets.data() + s * (sq + 1);
      I* hc = st.host_counts.data() + s * sq;
      // This slot's chunk before, j - slots, is drained in the staging pass (its buffers free).
      const bool draining = j >= std::size_t(slots);
      if (draining) sp.fence();
      const std::size_t drained = draining ? patterns_of(j - slots) : 0;
      if (!detail::fm_stage_chunk(bytes, offsets, first, k, hb, ho, draining ? counts + (j - slots) * chunk : nullptr, hc,
                                  drained * sizeof(I))) {
        streams.fence();
        throw error(error_code::invalid_input, "fm_index: pattern offsets must ascend");
      }
      device_view<std::uint8_t, ExecutionSpace> b(st.bytes.data() + s * sb, length);
      device_view<std::uint64_t, ExecutionSpace> o(st.offsets.data() + s * (sq + 1), k + 1);
      device_view<I, ExecutionSpace> c(st.counts.data() + s * sq, k);
      // (The pool's copies: Kokkos 3.4's deep_copy with an instance waits for its copy.)
      streams.copy(s, b.data(), false, hb, true, length);
      streams.copy(s, o.data(), false, ho, true, (k + 1) * sizeof(std::uint64_t));
      detail::fm_count<ExecutionSpace, I>(sp, fm, b, o, c, device_view<std::uint64_t, ExecutionSpace>());
      streams.copy(s, hc, true, c.data(), false, k * sizeof(I));
    }
    for (std::size_t j = chunks > std::size_t(slots) ? chunks - slots : 0; j < chunks; ++j) {
      const int s = int(j % slots);
      streams[s].fence();
      detail::fm_drain(counts + j * chunk, st.host_counts.data() + s * sq, patterns_of(j) * sizeof(I));
    }
  }
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
void fm_index<ExecutionSpace, I>::extract(std::uint64_t start, std::uint64_t length, const view<std::uint8_t>& out) const {
  STRIX_USER_REQUIRE(start <= size() && length <= size() - start,
                     "fm_index: extract of [" + std::to_string(start) + ", " + std::to_string(start) + " + " +
                         std::to_string(length) + ") beyond a text of " + std::to_string(size()));
  STRIX_USER_REQUIRE(out.extent(0) >= length, "fm_index: room for " + std::to_string(out.extent(0)) + " of " +
                                                  std::to_string(length) + " extracted symbols");
  STRIX_USER_REQUIRE(can_extract(), "fm_index: built without extract samples (fm_options::extract)");
  if (length == 0) return;
  using range = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  if constexpr (is_host_space_v<ExecutionSpace>) {
    if (detail::fm_lockstep_applies(ref())) {
      // Host threads walk several pieces in lockstep: pieces of 4096 symbols, as a batch.
      constexpr std::uint64_t piece = 4096;
      const std::int64_t pieces = std::int64_t((length + piece - 1) / piece);
      auto starts = detail::allocate<std::uint64_t, memory_space>("strix::fm::extract_starts", pieces);
      auto lengths = detail::allocate<std::uint64_t, memory_space>("strix::fm::extract_lengths", pieces);
      auto at = detail::allocate<std::uint64_t, memory_space>("strix::fm::extract_at", pieces);
      Kokkos::parallel_for("strix::fm_extract_pieces", range(space_, 0, pieces), KOKKOS_LAMBDA(const std::int64_t j) {
        at(j) = std::uint64_t(j) * piece;
        starts(j) = start + at(j);
        lengths(j) = length - at(j) < piece ? length - at(j) : piece;
      });
      detail::fm_extract<ExecutionSpace, I>(space_, ref(), dv(view<const std::uint64_t>(starts.data(), pieces)),
                                            dv(view<const std::uint64_t>(lengths.data(), pieces)),
                                            dv(view<const std::uint64_t>(at.data(), pieces)), dv(out));
      space_.fence();
      return;
    }
  }
  // Piece j covers text [j * rate, (j + 1) * rate) clipped to the range: a walk from the
  // sample at its end (or the text's end, row 0) back over at most rate symbols.
  const auto fm = ref();
  const std::uint64_t rate = fm.sample_rate, end = start + length, first = start / rate;
  const std::int64_t pieces = std::int64_t((end - 1) / rate - first + 1);
  std::uint8_t* dst = out.data();
  Kokkos::parallel_for("strix::fm_extract_range", range(space_, 0, pieces), KOKKOS_LAMBDA(const std::int64_t k) {
    const std::uint64_t j = first + std::uint64_t(k);
    const std::uint64_t lo = j * rate > start ? j * rate : start;
    std::uint64_t p = (j + 1) * rate, row = 0;
    if (p > fm.n) p = fm.n;
    else row = fm.sampled_row(p / rate);
    const std::uint64_t hi = p < end ? p : end;
    while (p > lo) {
      std::uint8_t c;
      row = fm.lf(row, c);
      --p;
      if (p < hi) dst[p - start] = c;
    }
  });
}

template <class ExecutionSpace, class I>
std::vector<std::uint8_t> fm_index<ExecutionSpace, I>::extract(std::uint64_t start, std::uint64_t length) const {
  auto d_out = detail::allocate<std::uint8_t, memory_space>("strix::fm::extracted", length);
  extract(start, length, view<std::uint8_t>(d_out.data(), length));
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
