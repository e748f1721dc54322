// SPDX-License-Identifier: BSD-3-Clause
// Synthetic worst-case inputs for the benchmarks, and a genome-sized DNA text.
//   strix_bench_gen equal|fibonacci|periodic BYTES OUT [PERIOD]
//   strix_bench_gen genome BYTES OUT SOURCE   copies of the DNA text SOURCE (e.g. chrX.dna), each
//       after the first mutated: 3 % of bases substituted, 0.3 % starting an insertion or
//       deletion of 1-10 bases (seeded: the same bytes every run), cut to BYTES.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s equal|fibonacci|periodic BYTES OUT [PERIOD]\n", argv[0]);
    return 2;
  }
  const std::string kind = argv[1];
  const std::uint64_t n = std::strtoull(argv[2], nullptr, 10);
  std::string t;
  if (kind == "equal") {
    t.assign(n, 'a');
  } else if (kind == "fibonacci") {
    std::string a = "a", b = "ab";
    while (b.size() < n) { std::string c = b + a; a.swap(b); b.swap(c); }
    t = b.substr(0, n);
  } else if (kind == "periodic") {
    const std::uint64_t period = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1000;
    std::mt19937_64 rng(42);
    std::string unit(period, 'a');
    for (auto& c : unit) c = static_cast<char>('a' + rng() % 26);
    t.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) t[i] = unit[i % period];
  } else if (kind == "genome") {
    if (argc < 5) {
      std::fprintf(stderr, "genome needs a SOURCE text\n");
      return 2;
    }
    std::ifstream in(argv[4], std::ios::binary);
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (source.empty()) {
      std::fprintf(stderr, "cannot read %s\n", argv[4]);
      return 2;
    }
    static const char bases[] = "ACGT";
    std::mt19937_64 rng(7);
    t.reserve(n);
    t.append(source, 0, std::min<std::uint64_t>(n, source.size()));
    while (t.size() < n) {
      for (std::uint64_t i = 0; i < source.size() && t.size() < n; ++i) {
        const std::uint64_t roll = rng() % 10000;
        if (roll < 300) {
          t.push_back(bases[rng() % 4]);  // substitution
        } else if (roll < 315) {
          for (std::uint64_t k = 1 + rng() % 10; k > 0 && t.size() < n; --k) t.push_back(bases[rng() % 4]);
          t.push_back(source[i]);  // insertion before it
        } else if (roll < 330) {
          i += rng() % 10;  // deletion of it and up to 9 more
        } else {
          t.push_back(source[i]);
        }
      }
    }
    t.resize(n);
  } else {
    std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
    return 2;
  }
  std::ofstream(argv[3], std::ios::binary).write(t.data(), t.size());
  return 0;
}
