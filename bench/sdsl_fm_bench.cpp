// SPDX-License-Identifier: BSD-3-Clause
// SDSL baseline of the FM-index benchmark (issue 16): csa_wt<wt_huff<>> with suffix-array
// samples every 32 positions (SDSL's default csa_wt: SA-order sampling 32, ISA 64), the same
// patterns as strix_bench_fm, count and locate spread over OpenMP threads (both const);
// locate covers the patterns of at most --max-occ occurrences.
// Prints "RESULT <name> <value> <unit>".
//   strix_bench_sdsl_fm FILE [--patterns M] [--runs R] [--max-occ K]
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sdsl/suffix_arrays.hpp>
#include <string>

#include "fm_patterns.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: strix_bench_sdsl_fm FILE [--patterns M] [--runs R] [--max-occ K]\n");
    return 2;
  }
  const std::string path = argv[1];
  std::size_t m = 1000000;
  int runs = 5;
  std::uint64_t max_occ = 1000;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--patterns") m = std::stoull(argv[i + 1]);
    else if (a == "--runs") runs = std::stoi(argv[i + 1]);
    else if (a == "--max-occ") max_occ = std::stoull(argv[i + 1]);
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.find('\0') != std::string::npos) {
    std::fprintf(stderr, "strix_bench_sdsl_fm: SDSL's byte construction needs a non-empty text without 0 bytes\n");
    return 2;
  }
  const auto name = "sdsl_" + strix_bench::input_name(path);
  sdsl::csa_wt<sdsl::wt_huff<>, 32, 64> csa;
  const auto t0 = std::chrono::steady_clock::now();
  sdsl::construct_im(csa, text, 1);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("RESULT %s_build_ms %.4g ms\n", name.c_str(), build * 1e3);
  std::printf("RESULT %s_bits_per_char %.4g bits\n", name.c_str(), 8.0 * sdsl::size_in_bytes(csa) / double(text.size()));
  std::printf("RESULT %s_threads %d -\n", name.c_str(), omp_get_max_threads());
  for (std::size_t length : {16u, 32u, 100u}) {
    const auto p = strix_bench::make_patterns(text, m, length, length);
    std::vector<std::uint64_t> counts(p.size());
    const double t = strix_bench::median_seconds(runs, [&] {
#pragma omp parallel for schedule(dynamic, 4096)
      for (std::int64_t q = 0; q < std::int64_t(p.size()); ++q) {
        const char* b = reinterpret_cast<const char*>(p.bytes.data()) + p.offsets[q];
        counts[q] = sdsl::count(csa, b, b + (p.offsets[q + 1] - p.offsets[q]));
      }
    });
    std::printf("RESULT %s_count%zu %.4g Mpatterns/s\n", name.c_str(), length, p.size() / t / 1e6);
  }
  const auto p = strix_bench::make_patterns(text, m / 10, 20, 7);
  std::uint64_t occurrences = 0, position_sum = 0;
  const double t = strix_bench::median_seconds(runs, [&] {
    std::uint64_t total = 0, sum = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : total, sum)
    for (std::int64_t q = 0; q < std::int64_t(p.size()); ++q) {
      const char* b = reinterpret_cast<const char*>(p.bytes.data()) + p.offsets[q];
      std::uint64_t lo = 0, hi = 0;
      const auto c = sdsl::backward_search(csa, 0, csa.size() - 1, b, b + (p.offsets[q + 1] - p.offsets[q]), lo, hi);
      std::uint64_t found = 0;
      if (c > max_occ) continue;  // the frequent patterns are left out, as in strix_bench_fm
      for (std::uint64_t r = lo; c > 0 && r <= hi; ++r, ++found) sum += csa[r];
      total += found;
    }
    occurrences = total;
    position_sum = sum;
  });
  std::printf("RESULT %s_locate20 %.4g Moccurrences/s\n", name.c_str(), occurrences / t / 1e6);
  std::printf("RESULT %s_locate20_occurrences %llu occ (position sum %llu)\n", name.c_str(),
              static_cast<unsigned long long>(occurrences), static_cast<unsigned long long>(position_sum));
  return 0;
}
