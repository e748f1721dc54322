// SPDX-License-Identifier: BSD-3-Clause
// Anchor for the host benchmarks (issues 11, 51): times one libsais call (built outside the
// repository, with OpenMP) on a file, median of R runs after one warm-up, with T threads (0:
// libsais' default, all cores), and writes what it made in the format strix writes it, so that
// the two outputs can be compared byte for byte. Built when -DLIBSAIS_ROOT names its build.
//   strix_bench_libsais INPUT OUT [RUNS] [THREADS] [MODE] [PRIMARY]   -> prints "seconds=<median>"
// MODE (what is timed; what OUT holds):
//   sa     libsais_omp, or libsais64_omp from 2^31 bytes      the suffix array (u32, or u64 from 2^31)
//   sa64   libsais64_omp                                      the suffix array (u64)
//   gsa    libsais_gsa_omp (INPUT: strings each ended by a    the generalized suffix array (u32)
//          0x00, none empty: libsais refuses two in a row)
//   bwt    libsais_bwt_omp                                    the BWT's n bytes; "primary=<i>" printed
//   lcp    libsais_omp + libsais_plcp_omp + libsais_lcp_omp   the LCP array (u32)
//   unbwt  libsais_unbwt_omp of INPUT, a BWT whose primary    the text
//          index (as `strix bwt` prints it) is PRIMARY
#include <libsais.h>
#include <libsais64.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace {

template <class T>
bool write_all(const char* path, const std::vector<T>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(T)));
  return bool(out);
}

// Median seconds of `runs` calls after one warm-up; a call returns false when libsais failed.
double median_seconds(int runs, const std::function<bool()>& call) {
  std::vector<double> times;
  for (int r = 0; r <= runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!call()) return -1;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) times.push_back(s);
  }
  std::sort(times.begin(), times.end());
  return times.empty() ? 0.0 : times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s INPUT OUT [RUNS] [THREADS] [sa|sa64|gsa|bwt|lcp|unbwt] [PRIMARY]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", argv[1]); return 3; }
  const std::vector<std::uint8_t> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const int runs = argc > 3 ? std::atoi(argv[3]) : 1;
  const int threads = argc > 4 ? std::atoi(argv[4]) : 0;
  const std::string mode = argc > 5 ? argv[5] : "sa";
  const std::int64_t n = std::int64_t(text.size());
  const bool narrow = n < (std::int64_t(1) << 31);
  double seconds = -1;
  bool written = false;
  if ((mode == "sa" && !narrow) || mode == "sa64") {
    std::vector<std::int64_t> sa(text.size());
    seconds = median_seconds(runs, [&] { return libsais64_omp(text.data(), sa.data(), n, 0, nullptr, threads) == 0; });
    written = write_all(argv[2], sa);
  } else if (!narrow) {
    std::fprintf(stderr, "mode %s: texts below 2^31 bytes only\n", mode.c_str());
    return 2;
  } else if (mode == "sa" || mode == "gsa") {
    if (mode == "gsa" && (text.empty() || text.back() != 0)) {
      std::fprintf(stderr, "gsa: the input must end with a 0x00 byte\n");
      return 2;
    }
    std::vector<std::int32_t> sa(text.size());
    const auto build = mode == "gsa" ? libsais_gsa_omp : libsais_omp;
    seconds = median_seconds(runs, [&] { return build(text.data(), sa.data(), std::int32_t(n), 0, nullptr, threads) == 0; });
    written = write_all(argv[2], std::vector<std::uint32_t>(sa.begin(), sa.end()));
  } else if (mode == "bwt") {
    std::vector<std::uint8_t> bwt(text.size());
    std::vector<std::int32_t> work(text.size());
    std::int32_t primary = -1;
    seconds = median_seconds(runs, [&] {
      primary = libsais_bwt_omp(text.data(), bwt.data(), work.data(), std::int32_t(n), 0, nullptr, threads);
      return primary >= 0;
    });
    written = write_all(argv[2], bwt);
    std::printf("primary=%d ", primary);
  } else if (mode == "lcp") {
    std::vector<std::int32_t> sa(text.size()), plcp(text.size()), lcp(text.size());
    seconds = median_seconds(runs, [&] {
      return libsais_omp(text.data(), sa.data(), std::int32_t(n), 0, nullptr, threads) == 0 &&
             libsais_plcp_omp(text.data(), sa.data(), plcp.data(), std::int32_t(n), threads) == 0 &&
             libsais_lcp_omp(plcp.data(), sa.data(), lcp.data(), std::int32_t(n), threads) == 0;
    });
    written = write_all(argv[2], std::vector<std::uint32_t>(lcp.begin(), lcp.end()));
  } else if (mode == "unbwt") {
    if (argc < 7) { std::fprintf(stderr, "unbwt: give the primary index\n"); return 2; }
    const std::int32_t primary = std::int32_t(std::atoll(argv[6]));
    std::vector<std::uint8_t> out(text.size());
    std::vector<std::int32_t> work(text.size() + 1);
    seconds = median_seconds(runs, [&] {
      return libsais_unbwt_omp(text.data(), out.data(), work.data(), std::int32_t(n), nullptr, primary, threads) == 0;
    });
    written = write_all(argv[2], out);
  } else {
    std::fprintf(stderr, "unknown mode %s\n", mode.c_str());
    return 2;
  }
  if (seconds < 0) { std::fprintf(stderr, "libsais failed (%s)\n", mode.c_str()); return 4; }
  std::printf("seconds=%.6f\n", seconds);
  return written ? 0 : 3;
}
