// SPDX-License-Identifier: BSD-3-Clause
// Streams for strix::primitives::stream_pool<Kokkos::Cuda>.
#include <cuda_runtime.h>

#include <string>

#include <strix/backend/cuda/error.hpp>
#include <strix/primitives/streams.hpp>  // the primary template, then this overload

namespace strix::backend::cuda {

std::vector<Kokkos::Cuda> create_stream_instances(int count, std::vector<void*>& streams) {
  std::vector<Kokkos::Cuda> spaces;
  for (int i = 0; i < count; ++i) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    streams.push_back(s);
    spaces.emplace_back(s);
  }
  return spaces;
}

void copy_on_stream(void* stream, void* dst, const void* src, std::size_t bytes) {
  // cudaMemcpyDefault: the pointers tell the direction (unified addressing); from and to pinned
  // host memory the copy is truly asynchronous.
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)), "cudaMemcpyAsync");
}

void destroy_streams(std::vector<void*>& streams) {
  for (void* s : streams) {
    cudaStreamSynchronize(static_cast<cudaStream_t>(s));
    cudaStreamDestroy(static_cast<cudaStream_t>(s));
  }
  streams.clear();
}

}  // namespace strix::backend::cuda
