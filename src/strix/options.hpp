#pragma once
// Options and run statistics shared by the suffix-array constructions.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace strix {

// Construction algorithm. Only prefix doubling exists today; the enum lets the
// skew/DC3, hybrid and Larsson-Sadakane variants arrive without changing callers.
enum class sa_algorithm { prefix_doubling };

struct sa_options {
  sa_algorithm algorithm = sa_algorithm::prefix_doubling;
  bool progress = false;  // print one line per phase on stderr
};

// Per-phase wall times (seconds, device synchronised) and memory use of one run.
struct run_stats {
  std::vector<std::pair<std::string, double>> phases;
  std::size_t peak_bytes = 0;  // peak bytes strix held in the execution space's memory
  int rounds = 0;              // doubling rounds after the initial sort

  void add(const std::string& name, double seconds) {
    for (auto& p : phases)
      if (p.first == name) { p.second += seconds; return; }
    phases.emplace_back(name, seconds);
  }
  double total() const {
    double t = 0;
    for (auto& p : phases) t += p.second;
    return t;
  }
};

}  // namespace strix
