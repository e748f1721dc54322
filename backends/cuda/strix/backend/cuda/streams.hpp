// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overload of strix::primitives::stream_pool: instances of Kokkos::Cuda on streams of
// their own (created and destroyed in streams.cpp), so that copies and kernels of different
// instances overlap. No CUDA runtime type here.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include <strix/primitives/streams.hpp>  // the primary template (streams.cpp includes only this file)

namespace strix::backend::cuda {

// `count` non-blocking streams and a Kokkos::Cuda instance on each; destroy_streams fences
// and destroys them.
std::vector<Kokkos::Cuda> create_stream_instances(int count, std::vector<void*>& streams);
void destroy_streams(std::vector<void*>& streams);
// `bytes` from src to dst on `stream`, returning at once (Kokkos 3.4's deep_copy with an
// instance fences it and waits for the copy).
void copy_on_stream(void* stream, void* dst, const void* src, std::size_t bytes);

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <>
class stream_pool<Kokkos::Cuda> {
 public:
  stream_pool(const Kokkos::Cuda& space, int count) {
    space.fence();  // work queued before on `space` comes first
    spaces_ = backend::cuda::create_stream_instances(count < 1 ? 1 : count, streams_);
  }
  ~stream_pool() {
    spaces_.clear();
    backend::cuda::destroy_streams(streams_);
  }
  stream_pool(const stream_pool&) = delete;
  stream_pool& operator=(const stream_pool&) = delete;
  int size() const { return int(spaces_.size()); }
  const Kokkos::Cuda& operator[](int i) const { return spaces_[i]; }
  void fence() const {
    for (const auto& s : spaces_) s.fence();
  }
  void copy(int i, void* dst, bool /*dst_on_host*/, const void* src, bool /*src_on_host*/, std::size_t bytes) const {
    if (bytes > 0) backend::cuda::copy_on_stream(streams_[i], dst, src, bytes);
  }

 private:
  std::vector<void*> streams_;
  std::vector<Kokkos::Cuda> spaces_;
};

}  // namespace strix::primitives
