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

  std::uint64_t size() const { return size_; }
  std::uint64_t alphabet_size() const { return sigma_; }
  int levels() const { return levels_; }
  std::size_t bytes() const { return bytes_; }

 private:
  template <class F>
  decltype(auto) with_wavelet(F&& f);

  session& session_;
  int symbol_bytes_;
  wavelet_shape shape_;
  std::shared_ptr<void> wavelet_;  // the wavelet of the session's space and width
  std::uint64_t size_ = 0, sigma_ = 0;
  int levels_ = 0;
  std::size_t bytes_ = 0;
};

}  // namespace strix::cli
