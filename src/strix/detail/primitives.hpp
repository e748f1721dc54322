#pragma once
// Portable entry points of the sort and scan primitives; dispatch to the vendor adapter by
// overload on the execution space (CUDA -> CUB), else to the host fallback.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <strix/backend/host_sort.hpp>
#include <strix/detail/memory.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <strix/backend/cuda_scan.hpp>
#include <strix/backend/cuda_sort.hpp>
#endif

namespace strix::detail {

// Scratch memory of the sort primitives, grown on demand and reused across calls.
template <class ExecSpace>
struct sort_workspace {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<unsigned char*, memory_space> bytes;
  Kokkos::View<unsigned char*, memory_space> result;  // a scan's total, on the device
  memory_tracker* tracker = nullptr;

  void* reserve(std::size_t n) {
    if (n > bytes.extent(0)) {
      release(bytes, tracker);
      bytes = allocate<unsigned char, memory_space>("strix::sort_scratch", n, tracker);
    }
    return bytes.data();
  }
};

template <class ExecSpace>
constexpr bool host_backend_v = Kokkos::SpaceAccessibility<
    Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

// Runs a Kokkos scan functor over [0, n) and returns its total in `total`.
template <class ExecSpace, class Functor>
void scan_functor(const ExecSpace& space, sort_workspace<ExecSpace>&, const char* label,
                  const Functor& functor, std::int64_t n, typename Functor::value_type& total) {
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                        functor, total);
}
template <class ExecSpace, class Functor>
struct scan_scratch {
  static std::size_t bytes(std::int64_t) { return 0; }
};

// Scratch bytes the backend needs for the largest sorts of n pairs (0 on the host).
template <class ExecSpace, class K, class V>
std::size_t sort_scratch_bytes(std::size_t) { return 0; }
template <class ExecSpace, class K, class V, class O>
std::size_t segmented_sort_scratch_bytes(std::size_t, std::size_t) { return 0; }

// Sorts (keys, vals) by key bits [begin_bit, end_bit); the views are swapped with
// their *_alt partners when the result ends there.
template <class ExecSpace, class KV, class VV>
void sort_pairs(const ExecSpace& space, sort_workspace<ExecSpace>&, KV& keys, KV& keys_alt,
                VV& vals, VV& vals_alt, std::size_t n, int begin_bit, int end_bit) {
  static_assert(host_backend_v<ExecSpace>, "strix: no sort backend for this execution space");
  bool swapped = false;
  backend::host::radix_sort_pairs(space, keys.data(), keys_alt.data(), vals.data(),
                                  vals_alt.data(), n, begin_bit, end_bit, swapped);
  if (swapped) { std::swap(keys, keys_alt); std::swap(vals, vals_alt); }
}

// Sorts (keys, vals) by key within segments [offsets(s), offsets(s+1)).
template <class ExecSpace, class KV, class VV, class OV>
void segmented_sort_pairs(const ExecSpace& space, sort_workspace<ExecSpace>&, KV& keys,
                          KV& keys_alt, VV& vals, VV& vals_alt, std::size_t,
                          const OV& offsets, std::size_t num_segments, int key_bits) {
  static_assert(host_backend_v<ExecSpace>, "strix: no sort backend for this execution space");
  backend::host::segmented_sort_pairs(space, keys.data(), keys_alt.data(), vals.data(),
                                      vals_alt.data(), offsets.data(), num_segments, key_bits);
}

#ifdef KOKKOS_ENABLE_CUDA
template <>
inline std::size_t sort_scratch_bytes<Kokkos::Cuda, std::uint64_t, std::uint32_t>(std::size_t n) {
  return backend::cuda::radix_sort_pairs_temp_bytes<std::uint64_t, std::uint32_t>(n, 0, 64);
}
template <>
inline std::size_t sort_scratch_bytes<Kokkos::Cuda, std::uint64_t, std::uint64_t>(std::size_t n) {
  return backend::cuda::radix_sort_pairs_temp_bytes<std::uint64_t, std::uint64_t>(n, 0, 64);
}
template <>
inline std::size_t sort_scratch_bytes<Kokkos::Cuda, std::uint32_t, std::uint32_t>(std::size_t n) {
  return backend::cuda::radix_sort_pairs_temp_bytes<std::uint32_t, std::uint32_t>(n, 0, 32);
}
template <>
inline std::size_t segmented_sort_scratch_bytes<Kokkos::Cuda, std::uint32_t, std::uint32_t, std::uint32_t>(
    std::size_t n, std::size_t segments) {
  return backend::cuda::segmented_sort_pairs_temp_bytes<std::uint32_t, std::uint32_t, std::uint32_t>(n, segments);
}
template <>
inline std::size_t segmented_sort_scratch_bytes<Kokkos::Cuda, std::uint64_t, std::uint64_t, std::uint64_t>(
    std::size_t n, std::size_t segments) {
  return backend::cuda::segmented_sort_pairs_temp_bytes<std::uint64_t, std::uint64_t, std::uint64_t>(n, segments);
}

template <class Functor>
void scan_functor(const Kokkos::Cuda& space, sort_workspace<Kokkos::Cuda>& ws, const char*,
                  const Functor& functor, std::int64_t n, typename Functor::value_type& total) {
  using value_type = typename Functor::value_type;
  functor.init(total);
  if (n <= 0) return;
  if (ws.result.extent(0) < sizeof(value_type))
    ws.result = allocate<unsigned char, Kokkos::CudaSpace>("strix::scan_total", 64, ws.tracker);
  const std::size_t bytes = backend::cuda::functor_scan_temp_bytes<Functor>(n);
  void* temp = ws.reserve(bytes);
  auto* device_total = reinterpret_cast<value_type*>(ws.result.data());
  backend::cuda::functor_scan<Functor>(space, temp, bytes, functor, n, device_total);
  Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(&total);
  Kokkos::View<value_type, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged> dev(device_total);
  Kokkos::deep_copy(space, host, dev);
  space.fence();
}
template <class Functor>
struct scan_scratch<Kokkos::Cuda, Functor> {
  static std::size_t bytes(std::int64_t n) { return backend::cuda::functor_scan_temp_bytes<Functor>(n); }
};

template <class KV, class VV>
void sort_pairs(const Kokkos::Cuda& space, sort_workspace<Kokkos::Cuda>& ws, KV& keys,
                KV& keys_alt, VV& vals, VV& vals_alt, std::size_t n, int begin_bit, int end_bit) {
  using K = typename KV::value_type;
  using V = typename VV::value_type;
  const std::size_t bytes = backend::cuda::radix_sort_pairs_temp_bytes<K, V>(n, begin_bit, end_bit);
  void* temp = ws.reserve(bytes);
  bool swapped = false;
  backend::cuda::radix_sort_pairs<K, V>(space, temp, bytes, keys.data(), keys_alt.data(),
                                        vals.data(), vals_alt.data(), n, begin_bit, end_bit,
                                        swapped);
  if (swapped) { std::swap(keys, keys_alt); std::swap(vals, vals_alt); }
}

template <class KV, class VV, class OV>
void segmented_sort_pairs(const Kokkos::Cuda& space, sort_workspace<Kokkos::Cuda>& ws, KV& keys,
                          KV& keys_alt, VV& vals, VV& vals_alt, std::size_t n,
                          const OV& offsets, std::size_t num_segments, int) {
  using K = typename KV::value_type;
  using V = typename VV::value_type;
  using O = std::remove_const_t<typename OV::value_type>;
  const std::size_t bytes =
      backend::cuda::segmented_sort_pairs_temp_bytes<K, V, O>(n, num_segments);
  void* temp = ws.reserve(bytes);
  bool swapped = false;
  backend::cuda::segmented_sort_pairs<K, V, O>(space, temp, bytes, keys.data(), keys_alt.data(),
                                               vals.data(), vals_alt.data(), n, offsets.data(),
                                               num_segments, swapped);
  if (swapped) { std::swap(keys, keys_alt); std::swap(vals, vals_alt); }
}
#endif

}  // namespace strix::detail
