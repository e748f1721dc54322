// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Instances of an execution space whose work may overlap: copies to and from the host in
// one while another computes. The portable default hands out the given instance (host
// spaces gain nothing from more); the CUDA overload gives each instance its own stream.
#include <Kokkos_Core.hpp>
#include <vector>

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

 private:
  std::vector<ExecSpace> spaces_;
};

}  // namespace strix::primitives

#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/streams.hpp>
#endif
