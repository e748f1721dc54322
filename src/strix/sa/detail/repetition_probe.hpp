// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A cheap look at how repetitive a text is, for `auto`: the fraction of sampled positions
// whose next 32 bytes also start at another sampled position. Texts made of a few
// substrings repeated over and over (periodic, Fibonacci, long runs) score near 1; natural
// text, DNA and source archives score low. Costs one small kernel and a host sort of the
// samples' hashes (16 Ki of them).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>

namespace strix::detail {

template <class ExecSpace>
double repeated_sample_fraction(const ExecSpace& space, const text_view<ExecSpace>& text) {
  constexpr std::uint64_t window = 32;
  const std::uint64_t n = text.extent(0);
  const std::uint64_t samples = std::min<std::uint64_t>(16384, n / window);
  if (samples < 2) return 0.0;
  const std::uint64_t stride = n / samples;
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> hashes(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strix::repetition_probe"), samples);
  Kokkos::parallel_for(
      "strix::repetition_probe", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, samples),
      KOKKOS_LAMBDA(const std::int64_t k) {
        // A jitter inside each stride, so that a period dividing the stride is not hidden.
        std::uint64_t mix = static_cast<std::uint64_t>(k) * 0x9E3779B97F4A7C15ull;
        mix ^= mix >> 29;
        const std::uint64_t p = static_cast<std::uint64_t>(k) * stride + mix % stride;
        std::uint64_t h = 0xcbf29ce484222325ull;
        for (std::uint64_t i = 0; i < window; ++i) {
          const std::uint64_t c = p + i < n ? text(p + i) + 1u : 0u;  // 0: past the end
          h = (h ^ c) * 0x100000001b3ull;
        }
        hashes(k) = h;
      });
  auto host = strix::to_host(space, hashes);
  std::vector<std::uint64_t> v(host.data(), host.data() + samples);
  std::sort(v.begin(), v.end());
  std::uint64_t repeated = 0;
  for (std::uint64_t i = 0; i < samples; ++i)
    if ((i > 0 && v[i] == v[i - 1]) || (i + 1 < samples && v[i] == v[i + 1])) ++repeated;
  return double(repeated) / double(samples);
}

}  // namespace strix::detail
