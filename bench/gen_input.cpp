// SPDX-License-Identifier: BSD-3-Clause
// Synthetic worst-case inputs for the benchmarks.
//   strix_bench_gen equal|fibonacci|periodic BYTES OUT [PERIOD]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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
  } else {
    std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
    return 2;
  }
  std::ofstream(argv[3], std::ios::binary).write(t.data(), t.size());
  return 0;
}
