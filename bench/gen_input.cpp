// SPDX-License-Identifier: BSD-3-Clause
// Synthetic worst-case inputs for the benchmarks, and a genome-sized DNA text.
//   strix_bench_gen equal|fibonacci|periodic BYTES OUT [PERIOD]
//   strix_bench_gen genome BYTES OUT SOURCE   copies of the DNA text SOURCE (e.g. chrX.dna), each
//       after the first mutated: 3 % of bases substituted, 0.3 % starting an insertion or
//       deletion of 1-10 bases (seeded per copy: the same bytes every run, whatever the thread
//       count; not the bytes of the generator before 2979c4f, one seed for all copies), cut to BYTES.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

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
    // Copies after the first are mutated each from a seed of its own (7 + copy), in parallel:
    // an 8 GB genome in seconds rather than minutes, the same bytes every run.
    const auto mutated = [&source](std::uint64_t copy) {
      static const char bases[] = "ACGT";
      std::mt19937_64 rng(7 + copy);
      std::string m;
      m.reserve(source.size() + source.size() / 64);
      for (std::uint64_t i = 0; i < source.size(); ++i) {
        const std::uint64_t roll = rng() % 10000;
        if (roll < 300) {
          m.push_back(bases[rng() % 4]);  // substitution
        } else if (roll < 315) {
          for (std::uint64_t k = 1 + rng() % 10; k > 0; --k) m.push_back(bases[rng() % 4]);
          m.push_back(source[i]);  // insertion before it
        } else if (roll < 330) {
          i += rng() % 10;  // deletion of it and up to 9 more
        } else {
          m.push_back(source[i]);
        }
      }
      return m;
    };
    t.reserve(n);
    t.append(source, 0, std::min<std::uint64_t>(n, source.size()));
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    for (std::uint64_t next = 1; t.size() < n;) {
      // (About as many copies as the rest needs: a mutated copy is about the source's length.)
      const std::uint64_t wanted = (n - t.size() + source.size() - 1) / source.size();
      std::vector<std::string> batch(std::min<std::uint64_t>(threads, wanted));
      std::vector<std::thread> workers;
      for (std::size_t w = 0; w < batch.size(); ++w) workers.emplace_back([&, w, first = next] { batch[w] = mutated(first + w); });
      next += batch.size();
      for (auto& w : workers) w.join();
      for (const auto& m : batch) t.append(m, 0, std::min<std::uint64_t>(m.size(), n - t.size()));
    }
    t.resize(n);
  } else {
    std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
    return 2;
  }
  std::ofstream out(argv[3], std::ios::binary);
  out.write(t.data(), std::streamsize(t.size()));
  out.close();
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", argv[3]);
    return 1;
  }
  return 0;
}
