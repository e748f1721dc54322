// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The Kokkos side of a session (session.hpp): space_session<Space> holds the execution space
// and its staging memory, and on_space() / on_space_and_width() reach it from the plain
// session, the one place where the tool dispatches on the backend. Included only by the
// features' Kokkos halves (features/*.cpp) and session_backends.cpp.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/config.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/staging.hpp>
#include <strix/error.hpp>

#include "session.hpp"

namespace strix::cli {

template <class Space>
constexpr backend_kind kind_of();
#ifdef KOKKOS_ENABLE_CUDA
template <>
constexpr backend_kind kind_of<Kokkos::Cuda>() { return backend_kind::cuda; }
#endif
#ifdef KOKKOS_ENABLE_OPENMP
template <>
constexpr backend_kind kind_of<Kokkos::OpenMP>() { return backend_kind::openmp; }
#endif
#ifdef KOKKOS_ENABLE_SERIAL
template <>
constexpr backend_kind kind_of<Kokkos::Serial>() { return backend_kind::serial; }
#endif

// "model name" of /proc/cpuinfo (a host backend's device).
std::string host_cpu_name();

template <class Space>
class space_session final : public session {
 public:
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  using host_space = strix::staging_space_t<Space>;  // pinned for CUDA
  template <class T>
  using device_array = Kokkos::View<T*, memory_space>;

  explicit space_session(int width) : session(kind_of<Space>(), width) {}

  const Space& space() const { return space_; }
  std::string backend() const override { return Space::name(); }
  std::string device() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) return space_.cuda_device_prop().name;
#endif
    return host_cpu_name() + " (" + std::to_string(space_.concurrency()) + " threads)";
  }
  void fence() override { space_.fence(); }

  host_buffer allocate_host(std::size_t bytes) override {
    Kokkos::View<std::uint8_t*, host_space> v;
    try {
      v = Kokkos::View<std::uint8_t*, host_space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::staging"),
                                                  bytes);
    } catch (const std::exception&) {
      throw error(error_code::host_out_of_memory, "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    host_buffer b;
    b.data = v.data();
    b.bytes = bytes;
    b.owner = std::shared_ptr<std::uint8_t>(v.data(), [v](std::uint8_t*) mutable { v = {}; });
    return b;
  }

  // `count` values of T from a staging buffer into new device memory (not fenced).
  template <class T>
  device_array<T> to_device(const host_buffer& h, std::size_t count, const char* label) {
    STRIX_REQUIRE(h.bytes >= count * sizeof(T));
    auto d = detail::allocate<T, memory_space>(label, count);
    Kokkos::View<const T*, host_space, Kokkos::MemoryUnmanaged> src(reinterpret_cast<const T*>(h.data), count);
    strix::copy(space_, d, src);
    return d;
  }

  // Whether arrays of this space are host memory already (host backends): to_host then
  // hands them out as they are, and no staging memory is needed.
  static constexpr bool arrays_on_host =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory_space>::accessible;

  // A device array into `into` (reallocated when too small; fenced); returns its bytes. On
  // host backends, the array itself, kept alive by the returned buffer (`into` is unused).
  template <class View>
  host_buffer to_host(const View& v, host_buffer& into) {
    using T = typename View::non_const_value_type;
    const std::size_t bytes = v.extent(0) * sizeof(T);
    if constexpr (arrays_on_host) {
      space_.fence();
      host_buffer h;
      h.data = reinterpret_cast<std::uint8_t*>(const_cast<T*>(v.data()));
      h.bytes = bytes;
      h.owner = std::shared_ptr<std::uint8_t>(h.data, [keep = View(v)](std::uint8_t*) mutable { keep = View(); });
      return h;
    }
    if (into.bytes < bytes) into = allocate_host(bytes);
    Kokkos::View<T*, host_space, Kokkos::MemoryUnmanaged> dst(reinterpret_cast<T*>(into.data), v.extent(0));
    strix::copy(space_, dst, v);
    space_.fence();
    host_buffer h = into;
    h.bytes = bytes;
    return h;
  }
  // The same into new staging memory.
  template <class View>
  host_buffer to_host(const View& v) {
    host_buffer fresh;
    return to_host(v, fresh);
  }

 private:
  Space space_;
};

// f(space_session<Space>&) for the session's execution space.
template <class F>
decltype(auto) on_space(session& s, F&& f) {
  switch (s.kind()) {
#if STRIX_ETI_HAS_CUDA
    case backend_kind::cuda: return f(static_cast<space_session<Kokkos::Cuda>&>(s));
#endif
#if STRIX_ETI_HAS_OPENMP
    case backend_kind::openmp: return f(static_cast<space_session<Kokkos::OpenMP>&>(s));
#endif
#if STRIX_ETI_HAS_SERIAL
    case backend_kind::serial: return f(static_cast<space_session<Kokkos::Serial>&>(s));
#endif
    default: break;
  }
  throw error(error_code::internal, "strix: a session of a backend this build does not have");
}

// f(space_session<Space>&, I{}) with I the session's index type.
template <class F>
decltype(auto) on_space_and_width(session& s, F&& f) {
  return on_space(s, [&f](auto& typed) -> decltype(auto) {
    if (typed.width() == 64) return f(typed, std::uint64_t{});
    return f(typed, std::uint32_t{});
  });
}

}  // namespace strix::cli
