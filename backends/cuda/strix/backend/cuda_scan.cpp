// CUB-backed functor scan (see cuda_scan.hpp), instantiated for the round scans of
// the prefix-doubling construction.
#include <strix/backend/cuda_scan.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <string>

#include <strix/detail/round_scan.hpp>
#include <strix/error.hpp>

namespace strix::backend::cuda {
namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();
  const std::string msg = std::string(what) + ": " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation)
    throw strix::error(strix::error_code::device_out_of_memory, msg);
  throw strix::error(strix::error_code::device_error, msg);
}

// Element i's own contribution: the functor's update of the identity.
template <class Functor>
struct contribution {
  Functor f;
  __host__ __device__ typename Functor::value_type operator()(std::int64_t i) const {
    typename Functor::value_type v;
    f.init(v);
    f(i, v, false);
    return v;
  }
};

template <class Functor>
struct combine {
  Functor f;
  __host__ __device__ typename Functor::value_type operator()(
      const typename Functor::value_type& a, const typename Functor::value_type& b) const {
    typename Functor::value_type r = a;
    f.join(r, b);
    return r;
  }
};

// Receives element i's exclusive prefix: runs the final pass; the last one stores
// the total.
template <class Functor>
struct finish {
  Functor f;
  std::int64_t n;
  typename Functor::value_type* total;
  __host__ __device__ void operator()(std::int64_t i, typename Functor::value_type prefix) const {
    f(i, prefix, true);
    if (i + 1 == n) *total = prefix;
  }
};

template <class Functor>
cudaError_t run_scan(void* temp, std::size_t& bytes, const Functor& f, std::int64_t n,
                     typename Functor::value_type* total, cudaStream_t stream) {
  using value_type = typename Functor::value_type;
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                            contribution<Functor>{f});
  auto out = thrust::make_tabulate_output_iterator(finish<Functor>{f, n, total});
  value_type init;
  f.init(init);
  return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, combine<Functor>{f}, init, n, stream);
}

}  // namespace

template <class Functor>
std::size_t functor_scan_temp_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  Functor f{};
  check(run_scan(nullptr, bytes, f, n, nullptr, nullptr), "cub::DeviceScan (size query)");
  return bytes;
}

template <class Functor>
void functor_scan(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes,
                  const Functor& functor, std::int64_t n, typename Functor::value_type* total) {
  if (n <= 0) return;
  check(run_scan(temp, temp_bytes, functor, n, total, space.cuda_stream()),
        "cub::DeviceScan::ExclusiveScan");
}

#define STRIX_INSTANTIATE_ROUND_SCAN(I, K)                                                   \
  template std::size_t functor_scan_temp_bytes<strix::detail::round_scan<                   \
      Kokkos::View<K*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>,                          \
      Kokkos::View<I*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>>>(std::int64_t);          \
  template void functor_scan<strix::detail::round_scan<                                      \
      Kokkos::View<K*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>,                          \
      Kokkos::View<I*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>>>(                        \
      const Kokkos::Cuda&, void*, std::size_t,                                               \
      const strix::detail::round_scan<Kokkos::View<K*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>, \
                                      Kokkos::View<I*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>>&, \
      std::int64_t,                                                                          \
      typename strix::detail::round_scan<                                                    \
          Kokkos::View<K*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>,                      \
          Kokkos::View<I*, Kokkos::CudaSpace, Kokkos::MemoryUnmanaged>>::value_type*);

STRIX_INSTANTIATE_ROUND_SCAN(std::uint32_t, std::uint32_t)
STRIX_INSTANTIATE_ROUND_SCAN(std::uint32_t, std::uint64_t)
STRIX_INSTANTIATE_ROUND_SCAN(std::uint64_t, std::uint64_t)

}  // namespace strix::backend::cuda
#endif
