// SPDX-License-Identifier: BSD-3-Clause
#include "formats.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <strix/core/length.hpp>
#include <strix/error.hpp>

#include "progress.hpp"

namespace strix::cli {

int choose_width(std::uint64_t n, int requested, const std::string& what) {
  if (requested == 0) return index_width_for(n);
  STRIX_USER_REQUIRE(requested == 32 || requested == 64, "--width must be 32 or 64");
  STRIX_USER_REQUIRE(requested == 64 || index_width_for(n) == 32,
                     what + " needs --width 64 (32-bit indexes hold at most " +
                         std::to_string(max_length<std::uint32_t>()) + ")");
  return requested;
}

int choose_width(std::uint64_t n, int requested) {
  return choose_width(n, requested, "an input of " + std::to_string(n) + " bytes");
}

int suffix_array_file_width(std::uint64_t n, const input_file& sa) {
  const std::string& path = sa.path();
  const std::uint64_t bytes = sa.size();
  if (n == 0 && bytes == 0) return 0;
  STRIX_USER_REQUIRE(n != 0 && (bytes == 4 * n || bytes == 8 * n),
                     "suffix array file '" + path + "' has " + std::to_string(bytes) +
                         " bytes; a text of " + std::to_string(n) + " bytes needs " +
                         std::to_string(4 * n) + " (32-bit) or " + std::to_string(8 * n) +
                         " (64-bit)");
  return bytes == 4 * n ? 32 : 64;
}

int resolve_width(std::uint64_t n, int requested, const input_file* sa) {
  STRIX_USER_REQUIRE(requested == 0 || requested == 32 || requested == 64, "--width must be 32 or 64");
  int width = requested;
  if (sa) {
    const int from_file = suffix_array_file_width(n, *sa);
    STRIX_USER_REQUIRE(width == 0 || from_file == 0 || width == from_file,
                       "--width " + std::to_string(width) + " disagrees with the " +
                           std::to_string(from_file) + "-bit suffix array file");
    if (width == 0) width = from_file;
  }
  return choose_width(n, width);
}

host_buffer read_text(session& s, input_file& text) {
  progress().stage("read input");
  host_buffer b = s.allocate_host(text.size());
  text.read_into(b.data);
  return b;
}

host_buffer read_index_array(session& s, input_file& sa, std::uint64_t n) {
  const std::uint64_t bytes = n * (s.width() / 8);
  STRIX_USER_REQUIRE(sa.size() == bytes,
                     "suffix array file '" + sa.path() + "' does not have " + std::to_string(bytes) + " bytes");
  host_buffer b = s.allocate_host(bytes);
  progress().stage("read suffix array");
  sa.read_into(b.data);
  return b;
}

std::vector<std::uint8_t> read_bytes(input_file& in) {
  std::vector<std::uint8_t> data;
  try {
    data.resize(in.size());
  } catch (const std::bad_alloc&) {
    throw error(error_code::host_out_of_memory,
                "cannot allocate " + std::to_string(in.size()) + " bytes to read '" + in.path() + "'");
  }
  progress().stage("read input");
  in.read_into(data.data());
  return data;
}

void write_index_array(atomic_output& out, const host_buffer& array) { write_bytes(out, array.data, array.bytes); }

void write_bytes(atomic_output& out, const std::uint8_t* data, std::size_t n) {
  progress().stage("write output");
  constexpr std::size_t chunk = 64u << 20;  // the progress display moves between pieces
  for (std::size_t done = 0; done < n; done += chunk) {
    progress().advance(double(done) / double(n));
    out.write(data + done, std::min(chunk, n - done));
  }
}

namespace {

// Tab-separated text, buffered: "position start length", "-" and 0 for none.
class tsv_writer {
 public:
  explicit tsv_writer(atomic_output& out) : out_(out) {
    buf_.reserve(1 << 20);
    buf_ += "position\tstart\tlength\n";
  }
  ~tsv_writer() = default;
  void row(std::uint64_t k, std::uint64_t start, std::uint64_t length) {
    number(k);
    buf_ += '\t';
    if (length == 0) buf_ += '-';
    else number(start);
    buf_ += '\t';
    number(length);
    buf_ += '\n';
    if (buf_.size() > (1u << 20) - 64) flush();
  }
  void flush() {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

 private:
  void number(std::uint64_t x) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), x);
    buf_.append(tmp, r.ptr);
  }
  atomic_output& out_;
  std::string buf_;
};

// Record r's (start, length), whatever the width.
struct record_reader {
  const std::uint8_t* data;
  int width;
  std::uint64_t field(std::uint64_t i) const {
    if (width == 32) {
      std::uint32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
    std::uint64_t v;
    std::memcpy(&v, data + 8 * i, 8);
    return v;
  }
  std::uint64_t start(std::uint64_t r) const { return field(2 * r); }
  std::uint64_t length(std::uint64_t r) const { return field(2 * r + 1); }
};

}  // namespace

void write_repeats(atomic_output& out, const repeats_result& r, std::uint64_t n, int width, bool all,
                   bool tsv) {
  progress().stage("write output");
  if (!tsv) {
    if (all) out.write(r.offsets.data, r.offsets.bytes);
    out.write(r.records.data, r.records.bytes);
    return;
  }
  const record_reader rec{r.records.data, width};
  tsv_writer w(out);
  if (!all) {
    for (std::uint64_t k = 0; k < n; ++k) w.row(k, rec.start(k), rec.length(k));
  } else {
    const auto* off = reinterpret_cast<const std::uint64_t*>(r.offsets.data);
    for (std::uint64_t k = 0; k < n; ++k) {
      if (off[k] == off[k + 1]) w.row(k, 0, 0);
      for (std::uint64_t j = off[k]; j < off[k + 1]; ++j) w.row(k, rec.start(j), rec.length(j));
    }
  }
  w.flush();
}

}  // namespace strix::cli
