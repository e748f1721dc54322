// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Saving and loading built wavelet trees and matrices.
//
// File layout (all integers little-endian):
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
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <strix/error.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

// Writes `bytes` bytes or throws; returns how many bytes it read (fewer at the end).
using byte_writer = std::function<void(const void* data, std::size_t bytes)>;
using byte_reader = std::function<std::size_t(void* data, std::size_t bytes)>;

struct wavelet_file_info {
  wavelet_shape shape = wavelet_shape::tree;
  int symbol_bytes = 1;
  std::uint64_t n = 0, sigma = 0, total_bits = 0, payload_bytes = 0, payload_checksum = 0;
};

constexpr std::uint32_t wavelet_file_version = 1;
constexpr std::size_t wavelet_header_bytes = 64;

namespace detail {

constexpr char wavelet_magic[8] = {'S', 'T', 'R', 'I', 'X', 'W', 'V', 0x1a};

// 64-bit checksum over 8-byte words (a multiply-xor chain with a final mix): catches
// flipped bits and moved or lost blocks, cheap enough for gigabyte files.
class checksum64 {
 public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      pending_ |= std::uint64_t(p[i]) << (8 * fill_);
      if (++fill_ == 8) flush();
    }
  }
  void add_words(const std::uint64_t* w, std::size_t count) {
    if (fill_) { add(w, count * 8); return; }
    for (std::size_t i = 0; i < count; ++i) mix(w[i]);
  }
  std::uint64_t value() {
    if (fill_) flush();
    std::uint64_t h = h_ ^ length_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
  }

 private:
  void mix(std::uint64_t x) {
    h_ = (h_ ^ (x + 0x9e3779b97f4a7c15ull + (h_ << 6) + (h_ >> 2))) * 0x100000001b3ull;
    ++length_;
  }
  void flush() {
    mix(pending_);
    pending_ = 0;
    fill_ = 0;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull, pending_ = 0, length_ = 0;
  int fill_ = 0;
};

inline std::uint64_t padded8(std::uint64_t bytes) { return (bytes + 7) / 8 * 8; }

inline std::uint64_t wavelet_payload_bytes(int symbol_bytes, std::uint64_t sigma, std::uint64_t total_bits) {
  return padded8(sigma * symbol_bytes) + (sigma + 1) * 8 + padded_words(total_bits) * 8;
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

template <class T, class View>
std::vector<T> to_host_vector(const View& v) {
  std::vector<T> h(v.extent(0));
  Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(h.data(), h.size());
  Kokkos::deep_copy(dst, v);
  return h;
}

}  // namespace detail

// Writes a wavelet tree or matrix.
template <class W>
void save_wavelet(const W& w, const byte_writer& write) {
  using Symbol = typename W::symbol_type;
  const auto& d = w.data();
  auto alphabet = detail::to_host_vector<Symbol>(d.alphabet);
  auto counts = detail::to_host_vector<std::uint64_t>(d.counts);
  auto words = detail::to_host_vector<std::uint64_t>(d.bits.words);
  std::vector<unsigned char> alpha_bytes(detail::padded8(alphabet.size() * sizeof(Symbol)), 0);
  if (!alphabet.empty()) std::memcpy(alpha_bytes.data(), alphabet.data(), alphabet.size() * sizeof(Symbol));
  detail::checksum64 payload;
  payload.add(alpha_bytes.data(), alpha_bytes.size());
  payload.add_words(counts.data(), counts.size());
  payload.add_words(words.data(), words.size());

  unsigned char header[wavelet_header_bytes] = {};
  auto put64 = [&](std::size_t at, std::uint64_t v) { std::memcpy(header + at, &v, 8); };
  std::memcpy(header, detail::wavelet_magic, 8);
  const std::uint32_t version = wavelet_file_version;
  std::memcpy(header + 8, &version, 4);
  header[12] = static_cast<unsigned char>(W::shape);
  header[13] = static_cast<unsigned char>(sizeof(Symbol));
  put64(16, d.n);
  put64(24, d.sigma);
  put64(32, d.bits.n);
  put64(40, detail::wavelet_payload_bytes(sizeof(Symbol), d.sigma, d.bits.n));
  put64(48, payload.value());
  detail::checksum64 head;
  head.add(header, 56);
  put64(56, head.value());
  write(header, sizeof header);
  write(alpha_bytes.data(), alpha_bytes.size());
  write(counts.data(), counts.size() * 8);
  write(words.data(), words.size() * 8);
}

// Reads and checks a file's header (the first 64 bytes); the caller picks the wavelet type
// from it and then calls load_wavelet with the same reader.
inline wavelet_file_info read_wavelet_info(const byte_reader& read) {
  unsigned char header[wavelet_header_bytes];
  std::size_t got = 0;
  while (got < sizeof header) {
    const std::size_t r = read(header + got, sizeof header - got);
    if (r == 0) break;
    got += r;
  }
  STRIX_USER_REQUIRE(got >= 8 && std::memcmp(header, detail::wavelet_magic, 8) == 0,
                     "not a strix wavelet file (no STRIXWV signature)");
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
  const bool sizes_ok = info.sigma <= info.n && (info.n == 0) == (info.sigma == 0) &&
                        (info.symbol_bytes == 4 || info.sigma <= (std::uint64_t(1) << (8 * info.symbol_bytes))) &&
                        info.n < (std::uint64_t(1) << 48) && info.total_bits <= info.n * 32 + 512 * 33 &&
                        info.payload_bytes == detail::wavelet_payload_bytes(info.symbol_bytes, info.sigma, info.total_bits);
  STRIX_USER_REQUIRE(sizes_ok, "wavelet file is corrupt (inconsistent sizes in its header)");
  return info;
}

// Reads the payload after read_wavelet_info and rebuilds the structure on `space`. W's shape
// and symbol size must be the file's.
template <class W>
W load_wavelet(const typename W::execution_space& space, const wavelet_file_info& info, const byte_reader& read,
               const wavelet_options& options = {}) {
  using Symbol = typename W::symbol_type;
  using Space = typename W::execution_space;
  using memory_space = typename Space::memory_space;
  STRIX_USER_REQUIRE(info.shape == W::shape && info.symbol_bytes == int(sizeof(Symbol)),
                     "wavelet file holds a different structure than the one asked for");
  STRIX_USER_REQUIRE(info.n < std::numeric_limits<typename W::index_type>::max(),
                     "wavelet file of " + std::to_string(info.n) + " symbols is too long for " +
                         std::to_string(8 * sizeof(typename W::index_type)) + "-bit positions");
  std::vector<unsigned char> alpha_bytes(detail::padded8(info.sigma * sizeof(Symbol)));
  std::vector<std::uint64_t> counts(info.sigma + 1), words(detail::padded_words(info.total_bits));
  detail::read_exact(read, alpha_bytes.data(), alpha_bytes.size(), "alphabet");
  detail::read_exact(read, counts.data(), counts.size() * 8, "counts");
  detail::read_exact(read, words.data(), words.size() * 8, "level bits");
  unsigned char extra;
  STRIX_USER_REQUIRE(read(&extra, 1) == 0, "wavelet file is corrupt (bytes after its end)");
  detail::checksum64 payload;
  payload.add(alpha_bytes.data(), alpha_bytes.size());
  payload.add_words(counts.data(), counts.size());
  payload.add_words(words.data(), words.size());
  STRIX_USER_REQUIRE(payload.value() == info.payload_checksum, "wavelet file is corrupt (payload checksum mismatch)");

  std::vector<Symbol> alphabet(info.sigma);
  if (info.sigma) std::memcpy(alphabet.data(), alpha_bytes.data(), info.sigma * sizeof(Symbol));
  bool ok = counts[0] == 0 && counts[info.sigma] == info.n;
  for (std::uint64_t m = 0; ok && m < info.sigma; ++m)
    ok = counts[m] < counts[m + 1] && (m == 0 || alphabet[m - 1] < alphabet[m]);
  STRIX_USER_REQUIRE(ok, "wavelet file is corrupt (alphabet or counts out of order)");
  detail::wavelet_data<Space, Symbol> d;
  std::uint64_t size[wavelet_max_levels + 1];
  d.n = info.n;
  d.sigma = info.sigma;
  const std::uint64_t total = detail::wavelet_layout<W::shape>(counts.data(), info.sigma, size, d.offset, d.levels);
  STRIX_USER_REQUIRE(total == info.total_bits, "wavelet file is corrupt (level sizes disagree with the counts)");
  for (int l = 0; l < d.levels; ++l)  // the padding after each level (to a 512-bit block) is zero
    for (std::uint64_t i = d.offset[l] + size[l]; i < d.offset[l + 1]; i = (i / 64 + 1) * 64)
      STRIX_USER_REQUIRE((words[i / 64] >> (i % 64)) == 0, "wavelet file is corrupt (bits between levels)");
  using U = Kokkos::MemoryUnmanaged;
  d.alphabet = detail::allocate<Symbol, memory_space>("strix::wavelet::alphabet", info.sigma);
  Kokkos::deep_copy(space, d.alphabet, Kokkos::View<const Symbol*, Kokkos::HostSpace, U>(alphabet.data(), alphabet.size()));
  d.counts = detail::allocate<std::uint64_t, memory_space>("strix::wavelet::counts", counts.size());
  Kokkos::deep_copy(space, d.counts, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, U>(counts.data(), counts.size()));
  d.bits.n = info.total_bits;
  d.bits.words = detail::allocate<std::uint64_t, memory_space>("strix::wavelet::bits", words.size());
  Kokkos::deep_copy(space, d.bits.words, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, U>(words.data(), words.size()));
  if (sizeof(Symbol) < 4) {
    std::vector<std::uint32_t> map(std::size_t(1) << (8 * sizeof(Symbol)), 0);
    for (std::uint64_t m = 0; m < info.sigma; ++m) map[alphabet[m]] = static_cast<std::uint32_t>(m + 1);
    d.dense_map = detail::allocate<std::uint32_t, memory_space>("strix::wavelet::dense_map", map.size());
    Kokkos::deep_copy(space, d.dense_map, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace, U>(map.data(), map.size()));
  }
  space.fence();
  return W(space, std::move(d), options);
}

}  // namespace strix
