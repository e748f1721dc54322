// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the suffix array checker (see strix/sa/check.hpp); included by libstrix's
// instantiation files only.
//
// Host backends run the scans of backends/host (prefetched, no atomics) unless the build asks
// for the portable code everywhere (STRIX_VENDOR_PRIMITIVES=OFF, which CI tests).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include <strix/backend/host/sa_check.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/memory.hpp>
#include <strix/primitives/vendor.hpp>
#include <strix/sa/check.hpp>

namespace strix::detail {

template <class ExecutionSpace, class I>
sa_check_result portable_check_suffix_array(const ExecutionSpace& space, const text_view<ExecutionSpace>& text,
                                            const device_view<const I, ExecutionSpace>& sa, bool generalized = false) {
  using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = text.extent(0);
  sa_check_result result;
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  constexpr I unset = std::numeric_limits<I>::max();
  auto isa = allocate<I, typename ExecutionSpace::memory_space>("strix::check_isa", n);
  strix::fill(space, isa, unset);

  // 1. Permutation: every value in range and seen once. Code = 2 * index + kind.
  std::uint64_t first_bad = none;
  Kokkos::parallel_reduce(
      "strix::check_permutation", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& bad) {
        const std::uint64_t s = sa(i);
        std::uint64_t code = none;
        if (s >= n) {
          code = 2 * std::uint64_t(i);
        } else if (Kokkos::atomic_exchange(&isa(s), static_cast<I>(i)) != unset) {
          code = 2 * std::uint64_t(i) + 1;
        }
        if (code < bad) bad = code;
      },
      Kokkos::Min<std::uint64_t>(first_bad));
  if (first_bad != none) {
    result.ok = false;
    result.position = first_bad / 2;
    I value;
    strix::copy(Kokkos::View<I, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&value), Kokkos::subview(sa, result.position));
    result.message = (first_bad % 2 == 0 ? "out-of-range value " : "duplicate value ") +
                     std::to_string(value) + " at SA[" + std::to_string(result.position) + "]";
    return result;
  }

  // 2. Order of every neighbour pair.
  Kokkos::parallel_reduce(
      "strix::check_order", policy(space, 1, std::max<std::uint64_t>(1, n)),  // (Kokkos 4 refuses begin > end)
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& bad) {
        const std::uint64_t a = sa(i - 1), b = sa(i);
        const auto ca = text(a), cb = text(b);
        bool wrong = ca > cb;
        // Generalized order (strix/sa/generalized_suffix_array.hpp): two 0x00s by position.
        if (ca == cb && generalized && ca == 0) wrong = a > b;
        else if (ca == cb && a + 1 != n) wrong = (b + 1 == n) || isa(a + 1) > isa(b + 1);
        if (wrong && std::uint64_t(i) < bad) bad = i;
      },
      Kokkos::Min<std::uint64_t>(first_bad));
  if (first_bad != none) {
    result.ok = false;
    result.position = first_bad;
    result.message = "suffixes out of order at SA[" + std::to_string(first_bad - 1) + "], SA[" +
                     std::to_string(first_bad) + "]";
  }
  return result;
}

// The same answers from the host scans (backends/host/sa_check.hpp).
template <class ExecutionSpace, class I>
sa_check_result host_check_suffix_array(const ExecutionSpace& space, const text_view<ExecutionSpace>& text,
                                        const device_view<const I, ExecutionSpace>& sa) {
  using problem = backend::host::sa_check_problem;
  const std::uint64_t n = text.extent(0);
  auto isa = allocate<I, typename ExecutionSpace::memory_space>("strix::check_isa", n);
  space.fence();  // the text and suffix array may still be in flight
  const auto found = backend::host::check_suffix_array(text.data(), sa.data(), isa.data(), n, space.concurrency());
  sa_check_result result;
  if (found.problem == problem::none) return result;
  result.ok = false;
  result.position = found.row;
  if (found.problem == problem::out_of_order) {
    result.message = "suffixes out of order at SA[" + std::to_string(found.row - 1) + "], SA[" +
                     std::to_string(found.row) + "]";
  } else {
    result.message = (found.problem == problem::out_of_range ? "out-of-range value " : "duplicate value ") +
                     std::to_string(sa(found.row)) + " at SA[" + std::to_string(found.row) + "]";
  }
  return result;
}

// The verdict on sizes alone: wrong when they differ; `decided` also when the text is empty.
inline sa_check_result check_sa_check_sizes(std::uint64_t n, std::uint64_t entries, bool& decided) {
  sa_check_result result;
  decided = entries != n || n == 0;
  if (entries != n) {
    result.ok = false;
    result.message = "suffix array has " + std::to_string(entries) + " entries, text has " + std::to_string(n) + " bytes";
  }
  return result;
}

// Checks the sizes, then runs the host scans or the portable kernels.
template <class ExecutionSpace, class I>
sa_check_result check_suffix_array(const ExecutionSpace& space, const text_view<ExecutionSpace>& text,
                                   const device_view<const I, ExecutionSpace>& sa) {
  bool decided = false;
  auto result = check_sa_check_sizes(text.extent(0), sa.extent(0), decided);
  if (decided) return result;
  if constexpr (STRIX_VENDOR_HOST && is_host_space_v<ExecutionSpace>) {
    return host_check_suffix_array<ExecutionSpace, I>(space, text, sa);
  } else {
    return portable_check_suffix_array<ExecutionSpace, I>(space, text, sa);
  }
}

}  // namespace strix::detail
