// SPDX-License-Identifier: BSD-3-Clause
// Baseline for the benchmarks: times libdivsufsort on a file (median of R runs after
// one warm-up) and writes its suffix array, 32-bit when n < 2^31 else 64-bit.
//   strix_bench_divsufsort INPUT OUT_SA [RUNS]   -> prints "seconds=<median>"
#include <divsufsort.h>
#include <divsufsort64.h>

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
    std::fprintf(stderr, "usage: %s INPUT OUT_SA [RUNS]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 3; }
  std::vector<unsigned char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int runs = argc > 3 ? std::atoi(argv[3]) : 1;
  const bool wide = text.size() >= (1ull << 31);
  std::vector<saidx_t> sa32(wide ? 0 : text.size());
  std::vector<saidx64_t> sa64(wide ? text.size() : 0);
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = wide ? divsufsort64(text.data(), sa64.data(), text.size())
                        : divsufsort(text.data(), sa32.data(), static_cast<saidx_t>(text.size()));
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (rc != 0) { std::fprintf(stderr, "divsufsort failed\n"); return 4; }
  }
  std::sort(times.begin(), times.end());
  std::ofstream out(argv[2], std::ios::binary);
  if (wide) {
    out.write(reinterpret_cast<const char*>(sa64.data()), sa64.size() * 8);
  } else {
    std::vector<std::uint32_t> u(sa32.begin(), sa32.end());
    out.write(reinterpret_cast<const char*>(u.data()), u.size() * 4);
  }
  std::printf("seconds=%.6f\n", times[times.size() / 2]);
  return out ? 0 : 3;
}
