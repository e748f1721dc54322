// SPDX-License-Identifier: BSD-3-Clause
// FASTA/FASTQ through htslib's kseq reader over zlib (which reads plain files too), and
// pattern lines.
#include "sequence_input.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <htslib/kseq.h>

#include <strix/error.hpp>

#include "files.hpp"

KSEQ_INIT(gzFile, gzread)

namespace strix::cli {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::uint8_t upper(std::uint8_t c) { return c >= 'a' && c <= 'z' ? std::uint8_t(c - 'a' + 'A') : c; }

// Calls f(name, bytes, length, qualities) for each record of a FASTA/FASTQ file (qualities:
// nullptr for a FASTA record).
template <class F>
void for_each_record(const std::string& path, F&& f) {
  gzFile in = path == "-" ? gzdopen(0, "r") : gzopen(path.c_str(), "r");
  if (!in) throw error(error_code::io_error, "cannot open '" + path + "': " + std::strerror(errno ? errno : ENOMEM));
  kseq_t* seq = kseq_init(in);
  int status;
  std::uint64_t records = 0;
  while ((status = kseq_read(seq)) >= 0) {
    ++records;
    f(std::string(seq->name.s, seq->name.l), reinterpret_cast<const std::uint8_t*>(seq->seq.s), seq->seq.l,
      seq->qual.l ? reinterpret_cast<const std::uint8_t*>(seq->qual.s) : nullptr);
  }
  kseq_destroy(seq);
  gzclose(in);
  if (status == -2) throw error(error_code::invalid_input, "'" + path + "' is not valid FASTQ (a quality line of the wrong length)");
  if (status < -1) throw error(error_code::io_error, "cannot read '" + path + "'");
  // An empty file is an empty reference; anything else without a record is not FASTA/FASTQ.
  std::error_code ec;
  if (records == 0 && path != "-" && std::filesystem::file_size(path, ec) > 0 && !ec)
    throw error(error_code::invalid_input, "'" + path + "' holds no FASTA/FASTQ record (no line starts with > or @)");
}

// The size of a regular file that is not gzip-compressed; 0 for anything else.
std::uint64_t plain_file_size(const std::string& path) {
  if (path == "-") return 0;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return 0;
  unsigned char magic[2] = {0, 0};
  const bool gzip = std::fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
  std::fclose(f);
  return gzip ? 0 : std::uint64_t(size);
}

}  // namespace

bool is_sequence_file_name(const std::string& path) {
  std::string p = path;
  if (ends_with(p, ".gz")) p.resize(p.size() - 3);
  for (const char* ext : {".fa", ".fasta", ".fna", ".fq", ".fastq"})
    if (ends_with(p, ext)) return true;
  return false;
}

reference_text read_reference(const std::string& path, bool keep_case) {
  reference_text r;
  std::vector<std::uint8_t> folded;
  for_each_record(path, [&](std::string name, const std::uint8_t* s, std::size_t n, const std::uint8_t*) {
    const std::uint8_t* symbols = s;
    if (!keep_case) {
      folded.assign(s, s + n);
      for (auto& c : folded) c = upper(c);
      symbols = folded.data();
    }
    r.sequences.append(std::move(name), symbols, n, r.text);
  });
  return r;
}

pattern_batch read_patterns(const std::string& path, bool sequences, bool fold) {
  pattern_batch b;
  auto add = [&](const std::uint8_t* s, std::size_t n) {
    const std::size_t at = b.bytes.size();
    b.bytes.insert(b.bytes.end(), s, s + n);
    if (fold)
      for (std::size_t i = at; i < b.bytes.size(); ++i) b.bytes[i] = upper(b.bytes[i]);
    b.offsets.push_back(b.bytes.size());
  };
  if (sequences) {
    // Room reserved up front, so that the arrays are not copied as they grow (on the 2-core
    // machine that growth took 0.28 of 0.43 s for 10^6 reads of 100): for a plain file, its size
    // bounds the read and quality bytes (untouched capacity costs no memory); the records are
    // estimated from the first 4096. A gzip file's size says nothing of its contents.
    const std::uint64_t plain = plain_file_size(path);
    b.bytes.reserve(plain);
    std::uint64_t records = 0, consumed = 0;
    bool any_qualities = false;
    for_each_record(path, [&](std::string name, const std::uint8_t* s, std::size_t n, const std::uint8_t* q) {
      consumed += name.size() + n + (q ? n + 3 : 0) + 3;  // the record's lines, with their marks
      if (++records == 4096 && plain > consumed) {
        const auto expected = std::size_t(double(records) * double(plain) / double(consumed) * 1.05);
        b.names.reserve(expected);
        b.offsets.reserve(expected + 1);
      }
      b.names.push_back(std::move(name));
      // Qualities kept as the reads' bytes are (0: none, for a FASTA record among FASTQ ones).
      if (q && !any_qualities) {
        b.qualities.reserve(plain);
        b.qualities.assign(b.bytes.size(), 0);
        any_qualities = true;
      }
      if (any_qualities) {
        if (q) b.qualities.insert(b.qualities.end(), q, q + n);
        else b.qualities.insert(b.qualities.end(), n, 0);
      }
      add(s, n);
    });
    return b;
  }
  // Lines: the file read straight into the batch, the newlines squeezed out in place (memchr
  // finds them, each line moves down once), and the letters folded in one pass at the end.
  input_file in(path);
  b.bytes.resize(in.size());
  in.read_into(b.bytes.data());
  std::uint8_t* const data = b.bytes.data();
  const std::size_t size = b.bytes.size();
  std::size_t kept = 0;
  for (std::size_t from = 0; from < size;) {
    const auto* newline = static_cast<const std::uint8_t*>(std::memchr(data + from, '\n', size - from));
    const std::size_t end = newline ? std::size_t(newline - data) : size;
    if (kept != from) std::memmove(data + kept, data + from, end - from);
    kept += end - from;
    b.offsets.push_back(kept);
    from = end + 1;
  }
  b.bytes.resize(kept);
  if (fold)
    for (auto& c : b.bytes) c = upper(c);
  return b;
}

}  // namespace strix::cli
