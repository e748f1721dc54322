// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's path to wavelet trees and matrices: one built or loaded structure on the
// backend the user picked, behind an interface without Kokkos types (see engine.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine.hpp"

namespace strix::cli {

// A wavelet file's header, as read by read_wt_header.
struct wt_file_header {
  bool matrix = false;
  int symbol_bytes = 1;
  std::uint64_t n = 0, sigma = 0, total_bits = 0, payload_bytes = 0, payload_checksum = 0;
};

using wt_writer = std::function<void(const void*, std::size_t)>;
using wt_reader = std::function<std::size_t(void*, std::size_t)>;

enum class wt_op { access, rank, select };

class wt_engine {
 public:
  virtual ~wt_engine() = default;
  virtual std::string backend() const = 0;
  virtual std::string device() const = 0;
  virtual int width() const = 0;
  virtual host_buffer allocate_host(std::size_t bytes) = 0;
  // n symbols of the engine's symbol size, little-endian, in `text`; chunk > 0 streams the
  // text through the device in chunks of that many symbols.
  virtual void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) = 0;
  virtual void save(const wt_writer& write) = 0;
  // The rest of a file whose header `h` was read from `read`.
  virtual void load(const wt_file_header& h, const wt_reader& read) = 0;
  // Answers m queries: symbols (rank, select) and positions or k, as 64-bit values checked
  // by the caller to fit; answers as 64-bit values.
  virtual std::vector<std::uint64_t> query(wt_op op, const std::vector<std::uint64_t>& symbols,
                                           const std::vector<std::uint64_t>& args) = 0;
  virtual std::uint64_t size() const = 0;
  virtual std::uint64_t alphabet_size() const = 0;
  virtual int levels() const = 0;
  virtual std::size_t bytes() const = 0;
  virtual const run_report& report() const = 0;
};

// Reads and checks the 64-byte header; throws invalid_input for a foreign or corrupt one.
wt_file_header read_wt_header(const wt_reader& read);

std::unique_ptr<wt_engine> make_wt_engine(const std::string& backend, int width, int symbol_bytes, bool matrix,
                                          std::function<void(const std::string&, double)> on_phase = {});

}  // namespace strix::cli
