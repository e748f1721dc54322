// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The saved wavelet file's format, without Kokkos: read_wavelet_info checks a file's header
// (serialize.hpp saves and loads the structures themselves).
//
// strix writes wavelets in its index container (strix/io/container.hpp), kind "wavelet",
// version 1, with the sections
//   meta      u64[5]: shape (0 tree, 1 matrix), symbol bytes (1, 2, 4), n, sigma, level bits
//   alphabet  the sorted symbols (sigma of them, symbol bytes each)
//   counts    cumulative symbol counts (sigma + 1 u64)
//   levels    the level words (u64, whole 512-bit blocks)
// and still reads the format-1 files of earlier strix versions, laid out as follows (all
// integers little-endian):
//   0  magic "STRIXWV" 0x1a        8 bytes
//   8  format version (1)          u32
//  12  shape (0 tree, 1 matrix)    u8,  symbol bytes (1, 2, 4) u8,  reserved u16 = 0
//  16  n (symbols)                 u64
//  24  sigma (distinct symbols)    u64
//  32  level bits in all           u64
//  40  payload bytes               u64
//  48  payload checksum            u64
//  56  header checksum (bytes 0-55) u64
//  64  payload: the alphabet (sigma symbols, zero-padded to 8 bytes), the cumulative counts
//      (sigma + 1 u64), the level words (u64, whole 512-bit blocks).
// The rank/select directory and the query tables are rebuilt on loading, and the level bits
// are checked against the counts, so a file that passes the checks cannot make queries read
// out of bounds. A truncated, corrupt or foreign file is an invalid_input strix::error.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <strix/error.hpp>
#include <strix/io/checksum.hpp>
#include <strix/io/container.hpp>
#include <strix/succinct/wavelet_shape.hpp>

namespace strix {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

// Writes `bytes` bytes or throws; returns how many bytes it read (fewer at the end).
using byte_writer = std::function<void(const void* data, std::size_t bytes)>;
using byte_reader = std::function<std::size_t(void* data, std::size_t bytes)>;

struct wavelet_file_info {
  wavelet_shape shape = wavelet_shape::tree;
  int symbol_bytes = 1;
  std::uint64_t n = 0, sigma = 0, total_bits = 0, payload_bytes = 0, payload_checksum = 0;
  // A container file, read and checked whole (else a format-1 file, whose payload follows).
  std::shared_ptr<const io::container_reader> container;
};

constexpr std::uint32_t wavelet_file_version = 1;  // the format-1 files (STRIXWV)
constexpr const char* wavelet_container_kind = "wavelet";
constexpr std::uint32_t wavelet_container_version = 1;
constexpr std::size_t wavelet_header_bytes = 64;

namespace detail {

constexpr char wavelet_magic[8] = {'S', 'T', 'R', 'I', 'X', 'W', 'V', 0x1a};

// Words the level bits are stored in: whole 512-bit blocks (as padded_words in bit_vector.hpp).
inline std::uint64_t wavelet_file_words(std::uint64_t bits) { return ((bits + 511) >> 9) * 8; }

inline std::uint64_t padded8(std::uint64_t bytes) { return (bytes + 7) / 8 * 8; }

inline std::uint64_t wavelet_payload_bytes(int symbol_bytes, std::uint64_t sigma, std::uint64_t total_bits) {
  return padded8(sigma * symbol_bytes) + (sigma + 1) * 8 + wavelet_file_words(total_bits) * 8;
}

inline void read_exact(const byte_reader& read, void* data, std::size_t bytes, const char* what) {
  auto* p = static_cast<unsigned char*>(data);
  std::size_t got = 0;
  while (got < bytes) {
    const std::size_t r = read(p + got, bytes - got);
    if (r == 0) break;
    got += r;
  }
  STRIX_USER_REQUIRE(got == bytes, std::string("wavelet file is truncated (in its ") + what + ")");
}

// Size checks shared by both formats.
inline bool wavelet_sizes_ok(const wavelet_file_info& info) {
  return info.sigma <= info.n && (info.n == 0) == (info.sigma == 0) &&
         (info.symbol_bytes == 4 || info.sigma <= (std::uint64_t(1) << (8 * info.symbol_bytes))) &&
         info.n < (std::uint64_t(1) << 48) && info.total_bits <= info.n * 32 + 512 * 33;
}

inline wavelet_file_info read_wavelet_container(const unsigned char* head, std::size_t got, const byte_reader& read) {
  std::vector<unsigned char> all(head, head + got);
  unsigned char block[1 << 16];
  for (std::size_t r; (r = read(block, sizeof block)) > 0;) all.insert(all.end(), block, block + r);
  auto file = std::make_shared<const io::container_reader>(std::move(all), "wavelet file", wavelet_container_kind,
                                                           wavelet_container_version);
  const auto meta = file->vector<std::uint64_t>("meta");
  STRIX_USER_REQUIRE(meta.size() == 5 && meta[0] <= 1 && (meta[1] == 1 || meta[1] == 2 || meta[1] == 4),
                     "wavelet file is corrupt (bad shape or symbol size)");
  wavelet_file_info info;
  info.shape = static_cast<wavelet_shape>(meta[0]);
  info.symbol_bytes = int(meta[1]);
  info.n = meta[2];
  info.sigma = meta[3];
  info.total_bits = meta[4];
  STRIX_USER_REQUIRE(wavelet_sizes_ok(info), "wavelet file is corrupt (inconsistent sizes)");
  info.container = std::move(file);
  return info;
}

}  // namespace detail

// Reads and checks a file's header (a container file: the whole file); the caller picks the
// wavelet type from it and then calls load_wavelet with the same reader.
inline wavelet_file_info read_wavelet_info(const byte_reader& read) {
  unsigned char header[wavelet_header_bytes];
  std::size_t got = 0;
  while (got < sizeof header) {
    const std::size_t r = read(header + got, sizeof header - got);
    if (r == 0) break;
    got += r;
  }
  if (got >= 8 && std::memcmp(header, io::container_magic, 8) == 0) return detail::read_wavelet_container(header, got, read);
  STRIX_USER_REQUIRE(got >= 8 && std::memcmp(header, detail::wavelet_magic, 8) == 0,
                     "not a strix wavelet file (no STRIXIDX or STRIXWV signature)");
  STRIX_USER_REQUIRE(got == sizeof header, "wavelet file is truncated (in its header)");
  auto get64 = [&](std::size_t at) {
    std::uint64_t v;
    std::memcpy(&v, header + at, 8);
    return v;
  };
  detail::checksum64 head;
  head.add(header, 56);
  STRIX_USER_REQUIRE(head.value() == get64(56), "wavelet file is corrupt (header checksum mismatch)");
  std::uint32_t version;
  std::memcpy(&version, header + 8, 4);
  STRIX_USER_REQUIRE(version == wavelet_file_version,
                     "wavelet file has format version " + std::to_string(version) + "; this strix reads version " +
                         std::to_string(wavelet_file_version));
  wavelet_file_info info;
  STRIX_USER_REQUIRE(header[12] <= 1 && (header[13] == 1 || header[13] == 2 || header[13] == 4) &&
                         header[14] == 0 && header[15] == 0,
                     "wavelet file is corrupt (bad shape or symbol size)");
  info.shape = static_cast<wavelet_shape>(header[12]);
  info.symbol_bytes = header[13];
  info.n = get64(16);
  info.sigma = get64(24);
  info.total_bits = get64(32);
  info.payload_bytes = get64(40);
  info.payload_checksum = get64(48);
  const bool sizes_ok = detail::wavelet_sizes_ok(info) &&
                        info.payload_bytes == detail::wavelet_payload_bytes(info.symbol_bytes, info.sigma, info.total_bits);
  STRIX_USER_REQUIRE(sizes_ok, "wavelet file is corrupt (inconsistent sizes in its header)");
  return info;
}

}  // namespace strix
