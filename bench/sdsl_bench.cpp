// SPDX-License-Identifier: BSD-3-Clause
// SDSL baseline for issue 10: a balanced wavelet tree (wt_blcd over a bit_vector with
// rank_support_v5 and select_support_mcl) of a byte text, queries spread over OpenMP
// threads (access, rank and select are const on wt_blcd). The same query generation as
// strix_bench_succinct's --file runs. Prints "RESULT <name> <value> <unit>".
//   strix_bench_sdsl FILE [--queries Q] [--runs R]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sdsl/wavelet_trees.hpp>
#include <string>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class F>
double median_seconds(int runs, F&& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: strix_bench_sdsl FILE [--queries Q] [--runs R]\n");
    return 2;
  }
  const std::string path = argv[1];
  std::uint64_t q = 10000000;
  int runs = 5;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--queries") q = std::stoull(argv[i + 1]);
    else if (a == "--runs") runs = std::stoi(argv[i + 1]);
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::uint64_t n = text.size();
  if (n == 0 || text.find('\0') != std::string::npos) {
    std::fprintf(stderr, "strix_bench_sdsl: SDSL's byte construction needs a non-empty text without 0 bytes\n");
    return 2;
  }
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (auto& c : name) if (c == '.' || c == '-') c = '_';
  using wt_type = sdsl::wt_blcd<sdsl::bit_vector, sdsl::rank_support_v5<>, sdsl::select_support_mcl<1>,
                                sdsl::select_support_mcl<0>>;
  wt_type wt;
  const auto t0 = std::chrono::steady_clock::now();
  sdsl::construct_im(wt, text, 1);
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("RESULT sdsl_%s_build_ms %.4g ms\n", name.c_str(), build * 1e3);
  std::vector<std::uint64_t> count(256, 0);
  for (unsigned char c : text) ++count[c];
  std::vector<std::uint64_t> pos(q), ks(q), out(q);
  std::vector<unsigned char> sym(q);
  for (std::uint64_t i = 0; i < q; ++i) {
    pos[i] = mix(2 * i) % n;
    sym[i] = static_cast<unsigned char>(text[mix(2 * i + 1) % n]);
    ks[i] = 1 + mix(3 * i + 2) % count[sym[i]];
  }
  const double access = median_seconds(runs, [&] {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(q); ++i) out[i] = wt[pos[i]];
  });
  const double rank = median_seconds(runs, [&] {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(q); ++i) out[i] = wt.rank(pos[i], sym[i]);
  });
  const double select = median_seconds(runs, [&] {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < std::int64_t(q); ++i) out[i] = wt.select(ks[i], sym[i]);
  });
  std::printf("RESULT sdsl_%s_access %.4g Gq/s\nRESULT sdsl_%s_rank %.4g Gq/s\nRESULT sdsl_%s_select %.4g Gq/s\n",
              name.c_str(), q / access / 1e9, name.c_str(), q / rank / 1e9, name.c_str(), q / select / 1e9);
  std::printf("# sdsl threads: %d\n", omp_get_max_threads());
  return 0;
}
