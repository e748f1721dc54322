// SPDX-License-Identifier: BSD-3-Clause
#include "report.hpp"

#include <cstdio>
#include <iostream>

#include <strix/error.hpp>

#include "files.hpp"
#include "progress.hpp"

namespace strix::cli {

nlohmann::json stats_json(const std::string& command, std::uint64_t n, const session& s) {
  const run_report& r = s.report();
  nlohmann::json j;
  j["command"] = command;
  j["n"] = n;
  j["width"] = s.width();
  j["backend"] = s.backend();
  j["device"] = s.device();
  nlohmann::json stages = nlohmann::json::object(), phases = nlohmann::json::object(),
                 counters = nlohmann::json::object();
  for (const auto& s : r.stages.phases) stages[s.first] = s.second;
  for (const auto& p : r.library.phases) phases[p.first] = p.second;
  for (const auto& c : r.library.counters) counters[c.first] = c.second;
  // What the library chose (e.g. "algorithm": the suffix-array algorithm `auto` picked).
  for (const auto& note : r.library.notes) j[note.first] = note.second;
  j["stages_seconds"] = stages;
  j["allocate_seconds"] = r.allocate_seconds;
  j["phases_seconds"] = phases;
  j["counters"] = counters;
  const double total = r.total_seconds();
  j["total_seconds"] = total;
  j["throughput_MBps"] = total > 0 ? double(n) / total / 1e6 : 0.0;
  j["peak_bytes"] = r.library.peak_bytes;
  j["peak_bytes_per_input_byte"] = n ? double(r.library.peak_bytes) / double(n) : 0.0;
  return j;
}

void print_json(const nlohmann::json& j) {
  progress().stop();  // a terminal shows stdout and stderr together
  std::ostream& to = report_stream();  // standard error when "-o -" took standard output
  to << j.dump(2) << std::endl;
  if (!to) throw error(error_code::io_error, std::string("cannot write to standard ") + (&to == &std::cout ? "output" : "error"));
}

}  // namespace strix::cli
