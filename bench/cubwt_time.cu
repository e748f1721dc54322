// SPDX-License-Identifier: BSD-3-Clause
// Anchor for the GPU suffix-array and BWT benchmarks (issue 49): times libcubwt (its source
// built outside the repository by bench/build-anchors.sh, one binary per version) on a file
// the way strix's side is timed: host buffers pinned and device storage allocated before the
// clock starts, the copies in and out inside it; median of R runs after one warm-up. Writes
// the suffix array (32-bit entries, libcubwt 1.0 only) or the BWT (divbwt layout: the
// symbols without the sentinel, the primary index printed) for a byte comparison with strix;
// or (libcubwt 1.5 on) inverts a BWT in that layout given its primary index.
//   strix_bench_cubwt sa|bwt INPUT OUT [RUNS]
//   strix_bench_cubwt unbwt BWT OUT RUNS PRIMARY
//     -> "seconds=<median> device_bytes=<storage> primary=<index> version=<libcubwt>"
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "libcubwt.cuh"

namespace {

int fail(const char* what, long long code) {
  std::fprintf(stderr, "strix_bench_cubwt: %s (%lld)\n", what, code);
  return 4;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s sa|bwt INPUT OUT [RUNS] | unbwt BWT OUT RUNS PRIMARY\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  const int runs = argc > 4 ? std::atoi(argv[4]) : 5;
#if LIBCUBWT_VERSION_MAJOR == 1 && LIBCUBWT_VERSION_MINOR == 0
  const bool has_sa = true;
#else
  const bool has_sa = false;
#endif
#if LIBCUBWT_VERSION_MAJOR > 1 || LIBCUBWT_VERSION_MINOR >= 5
  const bool has_unbwt = true;
#else
  const bool has_unbwt = false;
#endif
  const std::int64_t given_primary = argc > 5 ? std::atoll(argv[5]) : -1;
  if ((mode != "sa" && mode != "bwt" && mode != "unbwt") || (mode == "sa" && !has_sa) ||
      (mode == "unbwt" && (!has_unbwt || given_primary < 1))) {
    std::fprintf(stderr, "strix_bench_cubwt: libcubwt %s has no '%s'\n", LIBCUBWT_VERSION_STRING, mode.c_str());
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "strix_bench_cubwt: cannot open %s\n", argv[2]);
    return 3;
  }
  const std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::int64_t n = static_cast<std::int64_t>(file.size());
  if (n < 2) {
    std::fprintf(stderr, "strix_bench_cubwt: input too short\n");
    return 3;
  }
  std::uint8_t *text = nullptr, *out = nullptr;
  const std::size_t out_bytes = mode == "sa" ? std::size_t(n) * 4 : std::size_t(n);
  if (cudaMallocHost(&text, n) != cudaSuccess || cudaMallocHost(&out, out_bytes) != cudaSuccess)
    return fail("cudaMallocHost", 0);
  std::memcpy(text, file.data(), n);
  std::size_t free_before = 0, free_after = 0, total = 0;
  cudaMemGetInfo(&free_before, &total);
  void* storage = nullptr;
  if (const auto rc = libcubwt_allocate_device_storage(&storage, n); rc != LIBCUBWT_NO_ERROR)
    return fail("libcubwt_allocate_device_storage", rc);
  cudaMemGetInfo(&free_after, &total);
  std::vector<double> times;
  std::int64_t primary = -1;
  for (int r = 0; r <= runs; ++r) {  // run 0 is the warm-up
    const auto t0 = std::chrono::steady_clock::now();
    std::int64_t rc;
#if LIBCUBWT_VERSION_MAJOR == 1 && LIBCUBWT_VERSION_MINOR == 0
    if (mode == "sa") rc = libcubwt_sa(storage, text, reinterpret_cast<std::uint32_t*>(out), n);
    else
#endif
#if LIBCUBWT_VERSION_MAJOR > 1 || LIBCUBWT_VERSION_MINOR >= 5
      if (mode == "unbwt") rc = libcubwt_unbwt(storage, text, out, n, nullptr, static_cast<std::int32_t>(given_primary));
      else
#endif
      rc = libcubwt_bwt(storage, text, out, n);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc < 0) return fail("libcubwt call", rc);
    if (mode == "bwt") primary = rc;
    if (mode == "unbwt") primary = given_primary;
    if (r > 0) times.push_back(s);
  }
  libcubwt_free_device_storage(storage);
  std::sort(times.begin(), times.end());
  std::ofstream o(argv[3], std::ios::binary);
  o.write(reinterpret_cast<const char*>(out), static_cast<std::streamsize>(out_bytes));
  std::printf("seconds=%.6f device_bytes=%zu primary=%lld version=%s\n", times[times.size() / 2],
              free_before - free_after, static_cast<long long>(primary), LIBCUBWT_VERSION_STRING);
  cudaFreeHost(text);
  cudaFreeHost(out);
  return o ? 0 : 3;
}
