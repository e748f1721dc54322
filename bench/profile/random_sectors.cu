// Random-sector ceiling of the GPU: each thread reads R random 32-byte sectors (two 16-byte
// loads each) of a buffer of B bytes, independent or chained (the next address from the data
// just read). Prints sectors/s, median of 7 after a warm-up. Compiled and run on the device.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s line %d\n", cudaGetErrorString(e), __LINE__); return 1; } } while (0)
__device__ __forceinline__ uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull; return x ^ (x >> 31);
}
__global__ void fill(uint64_t* p, uint64_t n) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) p[i] = mix(i);
}
// mode 0: R independent sectors; mode 1: R chained sectors; mode 2: one 8-byte word per access
template <int R, int MODE>
__global__ void probe(const uint4* __restrict__ buf, uint64_t nsec, uint64_t q, uint64_t* out) {
  const uint64_t t = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (t >= q) return;
  uint64_t acc = 0, h = mix(t);
  if (MODE == 0) {
    uint64_t a[R];
#pragma unroll
    for (int r = 0; r < R; ++r) { a[r] = mix(h + r) % nsec; }
#pragma unroll
    for (int r = 0; r < R; ++r) { uint4 x = __ldg(buf + 2 * a[r]); uint4 y = __ldg(buf + 2 * a[r] + 1); acc ^= x.x ^ y.w ^ (uint64_t(x.z) << 32); }
  } else if (MODE == 1) {
    uint64_t s = h % nsec;
#pragma unroll
    for (int r = 0; r < R; ++r) { uint4 x = __ldg(buf + 2 * s); uint4 y = __ldg(buf + 2 * s + 1); acc ^= x.x ^ y.w; s = mix(acc + s) % nsec; }
  } else {
    const uint64_t* w = reinterpret_cast<const uint64_t*>(buf);
#pragma unroll
    for (int r = 0; r < R; ++r) acc ^= __ldg(w + (mix(h + r) % (nsec * 4)));
  }
  out[t] = acc;
}
template <class K>
float timeit(K k) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  k(); cudaDeviceSynchronize();
  std::vector<float> v;
  for (int i = 0; i < 7; ++i) { cudaEventRecord(a); k(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); v.push_back(ms); }
  std::sort(v.begin(), v.end()); return v[3];
}
int main() {
  const uint64_t q = 100000000ull;
  uint64_t* out; CK(cudaMalloc(&out, q * 8));
  for (uint64_t bytes : {4000000000ull, 32000000ull}) {
    uint4* buf; CK(cudaMalloc(&buf, bytes));
    fill<<<1024, 256>>>(reinterpret_cast<uint64_t*>(buf), bytes / 8); CK(cudaGetLastError());
    const uint64_t nsec = bytes / 32;
    auto go = [&](const char* name, int r, auto kern) {
      float ms = timeit([&] { kern<<<(q + 255) / 256, 256>>>(buf, nsec, q, out); });
      cudaError_t e = cudaGetLastError();
      printf("RSEC buf=%llu %s: %.3f ms, %.2f Gthreads/s, %.2f G accesses/s (x32 B = %.0f GB/s)%s\n", (unsigned long long)bytes, name, ms,
             q / ms / 1e6, q * double(r) / ms / 1e6, q * double(r) * 32 / ms / 1e6, e == cudaSuccess ? "" : cudaGetErrorString(e));
    };
    go("1 sector/thread", 1, probe<1, 0>);
    go("2 independent sectors/thread", 2, probe<2, 0>);
    go("4 independent sectors/thread", 4, probe<4, 0>);
    go("2 chained sectors/thread", 2, probe<2, 1>);
    go("8 chained sectors/thread", 8, probe<8, 1>);
    go("1 word (8 B)/thread", 1, probe<1, 2>);
    CK(cudaFree(buf));
  }
  return 0;
}
