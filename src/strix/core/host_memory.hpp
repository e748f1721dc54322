// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How much host memory a run may take: what the system can still give (Linux' MemAvailable,
// within the control group's limit, as under Slurm or in a container), or the limit the user
// set in STRIX_HOST_MEMORY_BYTES, whichever is smaller. `auto` uses it to prefer a lean
// construction over a fast one that would not fit. Plain C++, compiled once into libstrix.
#include <cstdint>

namespace strix {

// Bytes of host memory available to this process; UINT64_MAX when nothing says.
std::uint64_t host_memory_available();

}  // namespace strix
