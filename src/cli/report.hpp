// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the strix tool prints about a run: one JSON layout for every subcommand's --stats.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "session.hpp"

namespace strix::cli {

// command, n, width, backend, device, stages_seconds, allocate_seconds, phases_seconds,
// counters, total_seconds (the stages), throughput_MBps, peak_bytes, peak_bytes_per_input_byte.
nlohmann::json stats_json(const std::string& command, std::uint64_t n, const session& s);

// Prints one JSON object on stdout; throws io_error when stdout cannot take it.
void print_json(const nlohmann::json& j);

}  // namespace strix::cli
