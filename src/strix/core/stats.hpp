// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Run statistics every strix algorithm can fill: named phases (seconds, device
// synchronised), named counters, and peak memory. The library never prints: a caller
// that wants to see phases as they finish sets `on_phase`.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace strix {

struct run_stats {
  std::vector<std::pair<std::string, double>> phases;           // in the order first seen
  std::vector<std::pair<std::string, std::uint64_t>> counters;  // e.g. "rounds"
  std::vector<std::pair<std::string, std::string>> notes;      // e.g. "algorithm"
  std::size_t peak_bytes = 0;  // peak bytes held in the execution space's memory

  // Called after each phase with its name and seconds (e.g. for progress output).
  std::function<void(const std::string& phase, double seconds)> on_phase;
  // Called when a phase starts (fraction < 0: unknown) and, where the algorithm knows, as
  // it advances: the fraction of the input done (e.g. suffixes in their final place).
  std::function<void(const std::string& phase, double fraction)> on_progress;

  // An empty record that reports to the same observers (for a part of a larger run).
  run_stats observers() const {
    run_stats s;
    s.on_phase = on_phase;
    s.on_progress = on_progress;
    return s;
  }

  void add_phase(const std::string& name, double seconds) {
    for (auto& p : phases)
      if (p.first == name) { p.second += seconds; return; }
    phases.emplace_back(name, seconds);
  }
  void set_counter(const std::string& name, std::uint64_t value) {
    for (auto& c : counters)
      if (c.first == name) { c.second = value; return; }
    counters.emplace_back(name, value);
  }
  void set_note(const std::string& name, const std::string& value) {
    for (auto& n : notes)
      if (n.first == name) { n.second = value; return; }
    notes.emplace_back(name, value);
  }
  // The note's value, empty when it was never set.
  std::string note(const std::string& name) const {
    for (const auto& n : notes)
      if (n.first == name) return n.second;
    return {};
  }
  // The counter's value, 0 when it was never set.
  std::uint64_t counter(const std::string& name) const {
    for (const auto& c : counters)
      if (c.first == name) return c.second;
    return 0;
  }
  double total_seconds() const {
    double t = 0;
    for (const auto& p : phases) t += p.second;
    return t;
  }
  // Adds another run's phases and counters; the peak is the larger one.
  void merge(const run_stats& other) {
    for (const auto& p : other.phases) add_phase(p.first, p.second);
    for (const auto& c : other.counters) set_counter(c.first, c.second);
    for (const auto& n : other.notes) set_note(n.first, n.second);
    if (other.peak_bytes > peak_bytes) peak_bytes = other.peak_bytes;
  }
};

}  // namespace strix
