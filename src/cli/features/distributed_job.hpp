// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The distributed constructions on a session (strix/distributed/suffix_array.hpp) over
// MPI_COMM_WORLD: this rank's slice of the text in, this rank's rows out. No Kokkos types
// here; distributed_job.cpp is the Kokkos half.
#include <cstdint>
#include <string>

#include "../session.hpp"

namespace strix::cli {

// Every call is collective: all ranks make it, and a failure anywhere throws the same
// strix::error on all.
class distributed_job {
 public:
  explicit distributed_job(session& s) : s_(s) {}
  // This rank's rows of the suffix array of the whole text of n bytes, from this rank's
  // slice of `bytes` bytes (entries of the session's width).
  host_buffer suffix_array(const host_buffer& slice, std::uint64_t bytes, std::uint64_t n);
  // This rank's bytes of the BWT (divbwt layout); `primary` gets the primary index.
  host_buffer bwt(const host_buffer& slice, std::uint64_t bytes, std::uint64_t n, std::uint64_t& primary);
  // Empty when the rows (`count` entries of the session's width) form the text's suffix
  // array, else what is wrong.
  std::string check(const host_buffer& slice, std::uint64_t bytes, const host_buffer& rows, std::uint64_t count);

 private:
  session& s_;
};

}  // namespace strix::cli
