// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Scratch memory of the primitives (CUB-style two-phase temporary storage): a caller asks
// a primitive how many bytes it needs, reserves them once, and every later call reuses
// them. Grows on demand; never shrinks until released.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include <strix/core/memory.hpp>

namespace strix::primitives {

template <class ExecSpace>
class workspace {
 public:
  using memory_space = typename ExecSpace::memory_space;

  explicit workspace(detail::memory_tracker* tracker = nullptr) : tracker_(tracker) {}

  // At least `n` bytes of scratch, 256-byte aligned (CUB's requirement).
  void* reserve(std::size_t n) {
    if (n > bytes_.extent(0)) {
      detail::release(bytes_, tracker_);
      bytes_ = detail::allocate<unsigned char, memory_space>("strix::scratch", n, tracker_);
    }
    return bytes_.data();
  }
  std::size_t size() const { return bytes_.extent(0); }

  // A small buffer in the execution space's memory for a primitive's result (a total,
  // a count), separate from the scratch so that results outlive the next call's scratch.
  void* result(std::size_t n) {
    if (n > result_.extent(0)) {
      detail::release(result_, tracker_);
      result_ = detail::allocate<unsigned char, memory_space>("strix::scratch_result",
                                                              n < 64 ? 64 : n, tracker_);
    }
    return result_.data();
  }

  void release() {
    detail::release(bytes_, tracker_);
    detail::release(result_, tracker_);
  }

 private:
  detail::memory_tracker* tracker_;
  Kokkos::View<unsigned char*, memory_space> bytes_, result_;
};

}  // namespace strix::primitives
