// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How much host memory a run may take: what the system can still give (Linux' MemAvailable,
// within the control group's limit, as under Slurm or in a container), or the limit the user
// set in STRIX_HOST_MEMORY_BYTES, whichever is smaller: for callers that choose between a lean
// and a fast path. Plain C++, compiled once into libstrix.
#include <cstddef>
#include <cstdint>

namespace strix {

// Bytes of host memory available to this process; UINT64_MAX when nothing says.
std::uint64_t host_memory_available();

// Asks the kernel to back [p, p + bytes) with transparent huge pages where it allows them on
// request (Linux' THP mode "madvise" or "always"; elsewhere nothing happens). Called on strix's
// large host arrays before their first touch: the host constructions read and write them at
// random (the induced sort's scans, the LF walks of the inverse BWT), and with 4 KiB pages most
// such accesses also miss the TLB. STRIX_HUGE_PAGES=0 in the environment turns it off.
void advise_huge_pages(void* p, std::size_t bytes);

}  // namespace strix
