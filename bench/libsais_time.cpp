// SPDX-License-Identifier: BSD-3-Clause
// Anchor for the suffix-array benchmarks (issue 11): times libsais (built outside the
// repository, with OpenMP) on a file, median of R runs after one warm-up, with T threads
// (0: libsais' default, all cores), and writes its suffix array like strix_bench_divsufsort
// (32-bit entries when n < 2^31, else 64-bit). Built when -DLIBSAIS_ROOT names its build.
//   strix_bench_libsais INPUT OUT_SA [RUNS] [THREADS]   -> prints "seconds=<median>"
#include <libsais.h>
#include <libsais64.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s INPUT OUT_SA [RUNS] [THREADS]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 3; }
  std::vector<std::uint8_t> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int runs = argc > 3 ? std::atoi(argv[3]) : 1;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 0;
  const bool wide = text.size() >= (1ull << 31);
  std::vector<std::int32_t> sa32(wide ? 0 : text.size());
  std::vector<std::int64_t> sa64(wide ? text.size() : 0);
  std::vector<double> times;
  for (int r = 0; r <= runs; ++r) {  // run 0 is the warm-up
    const auto t0 = std::chrono::steady_clock::now();
    const auto rc = wide ? libsais64_omp(text.data(), sa64.data(), static_cast<std::int64_t>(text.size()), 0, nullptr, threads)
                         : libsais_omp(text.data(), sa32.data(), static_cast<std::int32_t>(text.size()), 0, nullptr, threads);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc != 0) { std::fprintf(stderr, "libsais failed (%lld)\n", static_cast<long long>(rc)); return 4; }
    if (r > 0) times.push_back(s);
  }
  std::sort(times.begin(), times.end());
  std::ofstream out(argv[2], std::ios::binary);
  if (wide) {
    out.write(reinterpret_cast<const char*>(sa64.data()), sa64.size() * 8);
  } else {
    std::vector<std::uint32_t> u(sa32.begin(), sa32.end());
    out.write(reinterpret_cast<const char*>(u.data()), u.size() * 4);
  }
  std::printf("seconds=%.6f\n", times.empty() ? 0.0 : times[times.size() / 2]);
  return out ? 0 : 3;
}
