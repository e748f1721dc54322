// SPDX-License-Identifier: BSD-3-Clause
#include "demo_text.hpp"

#include <array>
#include <cmath>
#include <random>
#include <string>

namespace strix::cli {

std::vector<std::uint8_t> demo_text(std::uint64_t bytes, std::uint64_t seed) {
  static const std::array<const char*, 64> words = {
      "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with",
      "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but",
      "have", "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her",
      "has", "there", "been", "if", "more", "when", "will", "would", "who", "so", "no",
      "suffix", "array", "string", "index", "genome", "sequence", "pattern", "search",
      "compression", "transform", "wheeler", "burrows", "kokkos", "device", "parallel"};
  std::mt19937_64 rng(seed);
  // Zipf weights 1/(rank+1).
  std::vector<double> cdf(words.size());
  double sum = 0;
  for (std::size_t i = 0; i < words.size(); ++i) cdf[i] = (sum += 1.0 / double(i + 1));
  std::uniform_real_distribution<double> u(0.0, sum);
  std::uniform_int_distribution<int> pct(0, 99);
  std::vector<std::uint8_t> text;
  text.reserve(bytes);
  bool sentence_start = true;
  while (text.size() < bytes) {
    // Now and then repeat an earlier stretch, as real texts quote and repeat.
    if (text.size() > 4096 && pct(rng) == 0) {
      std::uniform_int_distribution<std::uint64_t> from(0, text.size() - 2048);
      const std::uint64_t start = from(rng);
      const std::uint64_t len = 64 + rng() % 1024;
      for (std::uint64_t i = 0; i < len && text.size() < bytes; ++i) text.push_back(text[start + i]);
      continue;
    }
    const double x = u(rng);
    std::size_t w = 0;
    while (w + 1 < cdf.size() && cdf[w] < x) ++w;
    std::string word = words[w];
    if (sentence_start) word[0] = static_cast<char>(word[0] - 'a' + 'A');
    sentence_start = false;
    for (char c : word) text.push_back(static_cast<std::uint8_t>(c));
    const int p = pct(rng);
    if (p < 6) { text.push_back('.'); sentence_start = true; }
    else if (p < 10) text.push_back(',');
    text.push_back(p == 0 ? '\n' : ' ');
  }
  text.resize(bytes);
  return text;
}

}  // namespace strix::cli
