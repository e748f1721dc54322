// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The tool's wavelet tree or matrix on a session: one built (from a text) or loaded (from a
// saved file), then saved or queried. No Kokkos types here; wavelet_job.cpp is the Kokkos
// half.
#include <cstdint>
#include <memory>
#include <vector>

#include <strix/succinct/wavelet_file.hpp>

#include "../session.hpp"

namespace strix::cli {

class wavelet_job {
 public:
  // Symbols of `symbol_bytes` bytes (1, 2 or 4), positions of the session's width.
  wavelet_job(session& s, int symbol_bytes, wavelet_shape shape);
  ~wavelet_job();

  // n symbols, little-endian, in `text`; chunk > 0 streams the text through the device in
  // chunks of that many symbols.
  void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk);
  void save(const byte_writer& write);
  // The rest of a file whose header `info` was read from `read` (read_wavelet_info).
  void load(const wavelet_file_info& info, const byte_reader& read);
  // Answers the queries: symbols (rank, select) and positions or k, as 64-bit values the
  // caller checked to fit; answers as 64-bit values.
  std::vector<std::uint64_t> query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                   const std::vector<std::uint64_t>& args);

  std::uint64_t size() const;
  std::uint64_t alphabet_size() const;
  int levels() const;
  std::size_t bytes() const;

  // The typed job of the session's space and width, the symbol type and the shape
  // (wavelet_job.cpp), picked once.
  struct typed;

 private:
  std::unique_ptr<typed> typed_;
};

}  // namespace strix::cli
