// CUB-backed byte histogram (see histogram.hpp).
#include <strix/backend/cuda/histogram.hpp>

#include <cub/device/device_histogram.cuh>

#include <strix/backend/cuda/error.hpp>

namespace strix::backend::cuda {
namespace {

cudaError_t run(void* temp, std::size_t& bytes, const std::uint8_t* values, std::size_t n,
                std::uint64_t* counts, cudaStream_t stream) {
  // 256 bins of width 1: levels 0, 1, ..., 256.
  return cub::DeviceHistogram::HistogramEven(temp, bytes, values,
                                             reinterpret_cast<unsigned long long*>(counts), 257, 0,
                                             256, static_cast<std::int64_t>(n), stream);
}

}  // namespace

std::size_t byte_histogram_temp_bytes(std::size_t n) {
  std::size_t bytes = 0;
  check(run(nullptr, bytes, nullptr, n, nullptr, nullptr), "cub::DeviceHistogram (size query)");
  return bytes;
}

void byte_histogram(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes,
                    const std::uint8_t* values, std::size_t n, std::uint64_t* counts) {
  if (n == 0) {
    check(cudaMemsetAsync(counts, 0, 256 * sizeof(std::uint64_t), space.cuda_stream()), "cudaMemsetAsync");
    return;
  }
  check(run(temp, temp_bytes, values, n, counts, space.cuda_stream()), "cub::DeviceHistogram::HistogramEven");
}

}  // namespace strix::backend::cuda
