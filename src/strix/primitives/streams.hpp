// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Instances of an execution space whose work may overlap: copies to and from the host in
// one while another computes. The portable default hands out the given instance (host
// spaces gain nothing from more); the CUDA overload gives each instance its own stream.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include <strix/core/copy.hpp>

#include <strix/primitives/vendor.hpp>

namespace strix::primitives {

template <class ExecSpace>
class stream_pool {
 public:
  stream_pool(const ExecSpace& space, int count) : spaces_(count < 1 ? 1 : count, space) {}
  int size() const { return int(spaces_.size()); }
  const ExecSpace& operator[](int i) const { return spaces_[i]; }
  void fence() const {
    for (const auto& s : spaces_) s.fence();
  }
  // `bytes` from src to dst (each in host memory or the space's) in instance i's order; it
  // may return before the copy ends (the CUDA overload does, and pinned host memory makes the
  // copy overlap other instances' work): fence instance i before the host reads dst or
  // reuses src.
  void copy(int i, void* dst, bool dst_on_host, const void* src, bool src_on_host, std::size_t bytes) const {
    detail::copy_bytes(spaces_[i], dst, dst_on_host, src, src_on_host, bytes);
  }

 private:
  std::vector<ExecSpace> spaces_;
};

}  // namespace strix::primitives

#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/streams.hpp>
#endif
