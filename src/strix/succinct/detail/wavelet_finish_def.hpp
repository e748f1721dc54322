// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The query tables of a wavelet tree or matrix, from its counts and level bits: after a
// build, and after reading a file (then also checked against the counts, so that a damaged
// file can give wrong answers at worst, never reads out of bounds).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/succinct/detail/bit_vector_def.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::detail {

struct level_offsets {
  std::uint64_t v[wavelet_max_levels + 1];
};

template <class ExecSpace, class Symbol>
void finish_wavelet(const ExecSpace& space, wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape,
                    const wavelet_options& options, bool check) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  build_rank_select<ExecSpace, P>(space, d.bits, options.bits);
  const bit_vector_ref<P> bits = d.bits.ref();
  const int L = d.levels;
  const P n = d.n, sigma = d.sigma;
  level_offsets off{};
  for (int l = 0; l <= L; ++l) off.v[l] = d.offset[l];

  auto before = allocate<P, memory_space>("strix::wavelet::ones_before", L + 1);
  Kokkos::parallel_for("strix::wavelet_level_ones", range(space, 0, L + 1), KOKKOS_LAMBDA(const std::int64_t l) {
    before(l) = bits.rank1(off.v[l]);
  });
  auto before_h = strix::to_host(space, before);
  for (int l = 0; l < L; ++l) d.ones_before[l] = before_h(l);

  auto counts = d.counts;
  std::uint64_t bad = 0;
  if (shape == wavelet_shape::tree) {
    const P heap = P(1) << L;
    d.nodes = allocate<P, memory_space>("strix::wavelet::nodes", heap);
    auto nodes = d.nodes;
    Kokkos::parallel_reduce(
        "strix::wavelet_tree_nodes", range(space, 0, heap),
        KOKKOS_LAMBDA(const std::int64_t h, std::uint64_t& errors) {
          nodes(h) = 0;
          if (h == 0) return;
          int l = 0;
          while ((P(h) >> (l + 1)) != 0) ++l;
          tree_node node{0, sigma};
          for (int depth = 0; depth < l; ++depth) {
            if (!node.inner()) return;  // no such node
            node.descend((P(h) >> (l - 1 - depth)) & 1);
          }
          if (!node.inner()) return;  // a leaf: no bits
          nodes(h) = bits.rank1(off.v[l] + counts(node.a));
          if (check) {
            const P ones = bits.rank1(off.v[l] + counts(node.b)) - nodes(h);
            if (ones != counts(node.b) - counts(node.split())) ++errors;
          }
        },
        bad);
  } else {
    auto counts_h = strix::to_host(space, d.counts);
    for (int l = 0; l < L; ++l) {
      const int shift = L - 1 - l;
      P zeros = 0;
      Kokkos::parallel_reduce(
          "strix::wavelet_matrix_zeros", range(space, 0, sigma),
          KOKKOS_LAMBDA(const std::int64_t m, P& z) {
            if (!((P(m) >> shift) & 1)) z += counts(m + 1) - counts(m);
          },
          zeros);
      d.level_zeros[l] = zeros;
      const P level_ones = (l + 1 < L ? before_h(l + 1) : before_h(L)) - before_h(l);
      if (check && level_ones != n - zeros) ++bad;
    }
    // Where each symbol's run starts after the last level: symbols ordered by their code
    // read from the last level's bit to the first.
    std::vector<P> order(sigma), start(sigma);
    std::iota(order.begin(), order.end(), P(0));
    auto reversed = [L](P m) {
      P r = 0;
      for (int l = 0; l < L; ++l) r |= ((m >> l) & 1) << (L - 1 - l);
      return r;
    };
    std::sort(order.begin(), order.end(), [&](P x, P y) { return reversed(x) < reversed(y); });
    P sum = 0;
    for (P m : order) {
      start[m] = sum;
      sum += counts_h(m + 1) - counts_h(m);
    }
    d.nodes = allocate<P, memory_space>("strix::wavelet::nodes", sigma);
    strix::copy(space, d.nodes, Kokkos::View<const P*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(start.data(), sigma));
  }
  space.fence();
  STRIX_USER_REQUIRE(bad == 0, "wavelet structure is inconsistent: its level bits disagree with its symbol counts");
}

}  // namespace strix::detail
