// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Copies and fills of contiguous views, compiled once into libstrix.
//
// Kokkos::deep_copy instantiates its element-wise copy kernels (for two execution spaces and
// two index types) for every pair of view types it is called with, in every translation unit
// that calls it, although a contiguous copy runs as a memcpy. strix copies the bytes through
// one instantiation per execution space instead, compiled into libstrix (bench/NOTES.md, "Build
// cost"): the semantics are deep_copy's (ordered on the execution space, asynchronous towards
// the host where deep_copy(space, ...) is).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <strix/core/eti.hpp>
#include <strix/core/memory.hpp>
#include <strix/error.hpp>

namespace strix {
namespace detail {

// Bytes between the execution space's memory and host memory, in any direction.
template <class ExecSpace>
void copy_bytes(const ExecSpace& space, void* dst, bool dst_on_host, const void* src, bool src_on_host,
                std::size_t bytes);
// `count` words of `width` bytes (1, 2, 4 or 8), each set to the low bytes of `pattern`.
template <class ExecSpace>
void fill_words(const ExecSpace& space, void* dst, bool on_host, std::size_t count, std::uint64_t pattern,
                int width);

template <class View>
constexpr bool on_host_v = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename View::memory_space>::accessible;

template <class ExecSpace, class View>
void check_copyable(const View& v, const char* what) {
  static_assert(Kokkos::is_view<View>::value, "strix::copy: arrays must be Kokkos::Views");
  static_assert(View::rank <= 1, "strix::copy: views of rank 0 or 1");
  static_assert(on_host_v<View> || Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible,
                "strix::copy: views in host memory or in the execution space's memory");
  STRIX_USER_REQUIRE(v.span_is_contiguous() || v.size() <= 1,
                     std::string("strix::copy: the ") + what + " view must be contiguous");
}

}  // namespace detail

// dst = src, for contiguous views of rank 0 or 1 with the same element type and size, each in
// host memory or in the memory of `space`.
template <class ExecSpace, class Dst, class Src>
void copy(const ExecSpace& space, const Dst& dst, const Src& src) {
  static_assert(std::is_same<typename Dst::value_type, typename Dst::non_const_value_type>::value,
                "strix::copy: the destination must not be const");
  static_assert(std::is_same<typename Dst::non_const_value_type, typename Src::non_const_value_type>::value,
                "strix::copy: the element types must match");
  detail::check_copyable<ExecSpace>(dst, "destination");
  detail::check_copyable<ExecSpace>(src, "source");
  STRIX_USER_REQUIRE(dst.size() == src.size(), "strix::copy: " + std::to_string(src.size()) + " elements into " +
                                               std::to_string(dst.size()));
  if (dst.size() == 0 || dst.data() == src.data()) return;
  detail::copy_bytes(space, dst.data(), detail::on_host_v<Dst>, src.data(), detail::on_host_v<Src>,
                     dst.size() * sizeof(typename Dst::value_type));
}

// Every element of dst (contiguous, rank 0 or 1, of a 1-, 2-, 4- or 8-byte trivially copyable
// type) set to `value`.
template <class ExecSpace, class Dst>
void fill(const ExecSpace& space, const Dst& dst, const typename Dst::non_const_value_type& value) {
  using T = typename Dst::non_const_value_type;
  static_assert(std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                "strix::fill: elements of 1, 2, 4 or 8 bytes");
  detail::check_copyable<ExecSpace>(dst, "destination");
  if (dst.size() == 0) return;
  // The value as an unsigned word of its width, so the compiled half can cast it back.
  using word = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                     std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  word w;
  std::memcpy(&w, &value, sizeof(T));
  detail::fill_words(space, dst.data(), detail::on_host_v<Dst>, dst.size(), std::uint64_t(w), int(sizeof(T)));
}

// dst = src without an execution space: like Kokkos::deep_copy(dst, src), it waits for all
// work before and for the copy itself (on the device memory's own execution space).
template <class Dst, class Src>
void copy(const Dst& dst, const Src& src) {
  static_assert(Kokkos::is_view<Dst>::value && Kokkos::is_view<Src>::value, "strix::copy: arrays must be Kokkos::Views");
  Kokkos::fence();
  if constexpr (detail::on_host_v<Dst> && detail::on_host_v<Src>) {
    using host = Kokkos::DefaultHostExecutionSpace;
    static_assert(std::is_same<typename Dst::non_const_value_type, typename Src::non_const_value_type>::value,
                  "strix::copy: the element types must match");
    detail::check_copyable<host>(dst, "destination");
    detail::check_copyable<host>(src, "source");
    STRIX_USER_REQUIRE(dst.size() == src.size(), "strix::copy: sizes differ");
    if (dst.size() != 0 && dst.data() != src.data())
      std::memcpy(dst.data(), src.data(), dst.size() * sizeof(typename Dst::value_type));
  } else {
    using device_memory = std::conditional_t<detail::on_host_v<Dst>, typename Src::memory_space, typename Dst::memory_space>;
    const typename device_memory::execution_space space;
    copy(space, dst, src);
    space.fence();
  }
}

// Every element of dst set to `value`, waiting as copy(dst, src) does.
template <class Dst>
void fill(const Dst& dst, const typename Dst::non_const_value_type& value) {
  static_assert(Kokkos::is_view<Dst>::value, "strix::fill: arrays must be Kokkos::Views");
  Kokkos::fence();
  if constexpr (detail::on_host_v<Dst>) {
    detail::check_copyable<Kokkos::DefaultHostExecutionSpace>(dst, "destination");
    for (std::size_t i = 0; i < dst.size(); ++i) dst.data()[i] = value;
  } else {
    const typename Dst::memory_space::execution_space space;
    fill(space, dst, value);
    space.fence();
  }
}

// A new host array holding a copy of `v` (the space is fenced: it is ready to read).
template <class ExecSpace, class View>
Kokkos::View<typename View::non_const_value_type*, Kokkos::HostSpace> to_host(const ExecSpace& space, const View& v) {
  auto h = detail::allocate<typename View::non_const_value_type, Kokkos::HostSpace>(v.label(), v.size());
  copy(space, h, Kokkos::View<typename View::const_value_type*, typename View::memory_space, Kokkos::MemoryUnmanaged>(
                     v.data(), v.size()));
  space.fence();
  return h;
}

// A new array in the memory of `space` holding a copy of n elements at `data` (host memory).
template <class ExecSpace, class T>
Kokkos::View<T*, typename ExecSpace::memory_space> to_device(const ExecSpace& space, const T* data, std::size_t n,
                                                             const std::string& label) {
  auto d = detail::allocate<T, typename ExecSpace::memory_space>(label, n);
  copy(space, d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(data, n));
  return d;
}

}  // namespace strix

#define STRIX_COPY_DECLARE(PREFIX, SPACE)                                                                        \
  PREFIX template void strix::detail::copy_bytes<SPACE>(const SPACE&, void*, bool, const void*, bool, std::size_t); \
  PREFIX template void strix::detail::fill_words<SPACE>(const SPACE&, void*, bool, std::size_t, std::uint64_t, int);
#define STRIX_COPY_EXTERN(SPACE) STRIX_COPY_DECLARE(extern, SPACE)
STRIX_FOR_EACH_ETI_SPACE(STRIX_COPY_EXTERN)
#undef STRIX_COPY_EXTERN
