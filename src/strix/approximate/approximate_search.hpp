// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search (issue 53): every start position where a read matches the text within k
// substitutions (Hamming distance) or k substitutions, insertions and deletions (edit
// distance), with the smallest distance found there, from a bidirectional FM-index (the
// FM-index of the text and that of the reversed text) and a lossless search scheme
// (search_scheme.hpp). Batches of reads run as a kernel on every backend: lanes take (read,
// search) walks from a work list.
//
// Conventions: Hamming: a read of length m matches at position p when text[p, p + m) differs
// from it in at most k places. Edit: it matches at p when some text[p, e), p <= e, is within
// edit distance k of it; the distance reported is the smallest over e (so a read of at most k
// symbols matches everywhere, the empty text included). Either way the matched text holds no
// separator of a reference of several sequences, and the empty read matches at every position
// 0..n (as locate's empty pattern), at distance 0.
//
// Memory: each lane's stack holds the longest read's walk (Hamming 80 bytes, edit 72 bytes a
// frame; a frame a read symbol plus k + pieces + 1), for as many lanes as the space runs at
// once (at most one a read); each read keeps its first 16 intervals (384 bytes) between the
// two walks; then the answers: about 5 bytes a unit, a read's units being its length plus
// k + pieces + 1, and 48 bytes a match. The host-array call splits its reads into batches of
// units sized by the device memory free where the backend tells it (CUDA: 1/64 of it a unit,
// so that a batch fits with up to about one match a unit; at most 2^31 units), else 2^27 (1.3 M
// reads of 100 bases: about 0.7 GB besides the stacks); with device views, split batches
// yourself. On a device, unique matches' chains queue for a kernel of their own: two a walk
// (32 bytes each, edit 64), within 1/16 of the memory free. A batch's matches must fit the
// index width (checked).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include <strix/approximate/bidirectional_ref.hpp>
#include <strix/approximate/search_scheme.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/eti.hpp>
#include <strix/fm_index/fm_index.hpp>

namespace strix {

namespace approximate {
enum class metric { hamming, edit };
}

// Read q's matches are positions[starts[q], starts[q + 1]), ascending, with their distances.
template <class MemorySpace, class I>
struct approximate_matches {
  Kokkos::View<std::uint64_t*, MemorySpace> starts;
  Kokkos::View<I*, MemorySpace> positions;
  Kokkos::View<std::uint8_t*, MemorySpace> distances;
};

namespace detail {

// The searches of a scheme as (order, lower, upper) rows of `pieces` entries each.
template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> approximate_search(
    const ExecSpace& space, const approximate::bidirectional_ref<I>& index,
    const device_view<const std::uint8_t, ExecSpace>& bytes, const device_view<const std::uint64_t, ExecSpace>& offsets,
    const device_view<const int, ExecSpace>& scheme, int searches, int pieces, int max_errors, approximate::metric metric);

}  // namespace detail

// The bidirectional view of an index pair: `reverse` must be the FM-index of `forward`'s text
// reversed, with the same separator (checked: size, separator, symbol counts).
template <class ExecSpace, class I>
approximate::bidirectional_ref<I> bidirectional(const fm_index<ExecSpace, I>& forward,
                                                const fm_index<ExecSpace, I>& reverse);

// Reads bytes[offsets[q], offsets[q + 1]) in the space's memory, searched with `scheme` (well
// formed and lossless: checked; at most 6 errors, 16 pieces and 127 searches).
template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> search_approximate(
    const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& bytes,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& offsets,
    const approximate::search_scheme& scheme, approximate::metric metric);

// The same from and into host arrays, in batches of whole reads of about `batch_frames` units
// (a read's length plus k + pieces + 1; 0: sized by the device memory free, as above).
template <class I>
struct host_approximate_matches {
  std::vector<std::uint64_t> starts;
  std::vector<I> positions;
  std::vector<std::uint8_t> distances;
};
template <class ExecSpace, class I>
host_approximate_matches<I> search_approximate(const fm_index<ExecSpace, I>& forward,
                                               const fm_index<ExecSpace, I>& reverse, const std::uint8_t* bytes,
                                               const std::uint64_t* offsets, std::size_t reads,
                                               const approximate::search_scheme& scheme, approximate::metric metric,
                                               std::uint64_t batch_frames = 0);

// With the default scheme for k errors (0 to 6).
template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> search_approximate(
    const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& bytes,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& offsets, int k,
    approximate::metric metric) {
  return search_approximate(forward, reverse, bytes, offsets, approximate::default_scheme(k), metric);
}
template <class ExecSpace, class I>
host_approximate_matches<I> search_approximate(const fm_index<ExecSpace, I>& forward,
                                               const fm_index<ExecSpace, I>& reverse, const std::uint8_t* bytes,
                                               const std::uint64_t* offsets, std::size_t reads, int k,
                                               approximate::metric metric) {
  return search_approximate(forward, reverse, bytes, offsets, reads, approximate::default_scheme(k), metric);
}

// Hamming distance by name.
template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> search_hamming(
    const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& bytes,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& offsets, int k) {
  return search_approximate(forward, reverse, bytes, offsets, k, approximate::metric::hamming);
}
template <class ExecSpace, class I>
host_approximate_matches<I> search_hamming(const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
                                           const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t reads,
                                           int k) {
  return search_approximate(forward, reverse, bytes, offsets, reads, k, approximate::metric::hamming);
}

}  // namespace strix

#define STRIX_APPROXIMATE_DECLARE(PREFIX, SPACE, I)                                                                 \
  PREFIX template strix::approximate::bidirectional_ref<I> strix::bidirectional<SPACE, I>(                         \
      const strix::fm_index<SPACE, I>&, const strix::fm_index<SPACE, I>&);                                         \
  PREFIX template strix::approximate_matches<typename SPACE::memory_space, I> strix::search_approximate<SPACE, I>( \
      const strix::fm_index<SPACE, I>&, const strix::fm_index<SPACE, I>&,                                          \
      const Kokkos::View<const std::uint8_t*, typename SPACE::memory_space>&,                                      \
      const Kokkos::View<const std::uint64_t*, typename SPACE::memory_space>&,                                      \
      const strix::approximate::search_scheme&, strix::approximate::metric);                                       \
  PREFIX template strix::host_approximate_matches<I> strix::search_approximate<SPACE, I>(                          \
      const strix::fm_index<SPACE, I>&, const strix::fm_index<SPACE, I>&, const std::uint8_t*, const std::uint64_t*, \
      std::size_t, const strix::approximate::search_scheme&, strix::approximate::metric, std::uint64_t);
#define STRIX_APPROXIMATE_EXTERN(SPACE, I) STRIX_APPROXIMATE_DECLARE(extern, SPACE, I)
STRIX_FOR_EACH_ETI(STRIX_APPROXIMATE_EXTERN)
