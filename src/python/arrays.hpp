// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Python objects to host arrays and back: byte texts taken without a copy when contiguous,
// integer arrays checked and converted, NumPy arrays made for answers, and host arrays
// moved to an execution space and back (no copy on host backends).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/length.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/views.hpp>

namespace strix::python {

namespace py = pybind11;

// Bytes of a bytes, bytearray, memoryview or 1-D array of 1-byte items, kept alive by
// `owner`; a non-contiguous view or array is copied. Anything else is a TypeError.
struct byte_span {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;
  py::object owner;
};
byte_span bytes_of(const py::handle& obj, const char* what);

// A str or os.PathLike as a file path (os.fspath).
std::string path_of(const py::handle& obj);

// A 1-D array of symbols (uint8, uint16 or uint32; bytes-like objects are uint8), C-contiguous
// (copied when not). symbol_bytes says which.
struct symbol_span {
  py::array array;
  int symbol_bytes = 1;
  std::size_t size() const { return std::size_t(array.size()); }
};
symbol_span symbols_of(const py::handle& obj, const char* what);

// A 1-D array of non-negative integers as a C-contiguous array of T (copied and checked when
// it is of another integer type); ValueError for negative or too large values, TypeError for
// a non-integer dtype.
template <class T>
py::array_t<T, py::array::c_style> integers_of(const py::handle& obj, const char* what);

// A NumPy array that takes over a std::vector (no copy).
template <class T>
py::array_t<T> adopt(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_it(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(owned->size(), owned->data(), free_it);
}

template <class T>
using host_view = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;

// n elements of host memory as a view of the execution space: the same memory on host
// backends, a copy in the space's memory otherwise.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> to_space(const Space& space, T* host, std::size_t n, const char* label) {
  using memory_space = typename Space::memory_space;
  if constexpr (std::is_same_v<memory_space, Kokkos::HostSpace>) {
    return Kokkos::View<T*, memory_space>(host, n);
  } else {
    // (Before anything is allocated: an over-long text on a GPU whose Kokkos limits ranges is
    // refused with that reason, not with an out-of-memory error from the arrays made for it.)
    check_device_length(n, std::string(label) + " of " + std::to_string(n) + " entries");
    auto v = detail::allocate<std::remove_const_t<T>, memory_space>(label, n);
    strix::copy(space, v, host_view<const std::remove_const_t<T>>(host, n));
    return v;
  }
}

// Room for n answers in the execution space, to be written back to `host` by from_space.
template <class Space, class T>
Kokkos::View<T*, typename Space::memory_space> answer_space(const Space&, T* host, std::size_t n, const char* label) {
  using memory_space = typename Space::memory_space;
  if constexpr (std::is_same_v<memory_space, Kokkos::HostSpace>) {
    return Kokkos::View<T*, memory_space>(host, n);
  } else {
    return detail::allocate<T, memory_space>(label, n);
  }
}
template <class Space, class T>
void from_space(const Space& space, const Kokkos::View<T*, typename Space::memory_space>& v, T* host) {
  if (v.data() != host) strix::copy(space, host_view<T>(host, v.extent(0)), v);
  space.fence();
}

}  // namespace strix::python
