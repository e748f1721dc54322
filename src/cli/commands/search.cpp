// SPDX-License-Identifier: BSD-3-Clause
// strix search INDEX READS [-o OUT] [--max-errors K] [--distance hamming|edit] [--scheme NAME]
// [--max-occ N] [--both-strands]: every start position where a read matches within K
// substitutions (or edits: where some text starting there is within edit distance K), as lines
// read_no<TAB>position<TAB>distance (a text) or read_no<TAB>sequence<TAB>position<TAB>distance
// (a reference), each position once with its smallest distance, ascending per read. With
// --both-strands (DNA indexes) the read's reverse complement is searched too and each line ends
// in <TAB>+ or <TAB>- (ascending by position, + first). --format sam|bam writes SAM or BAM
// instead (an index of a FASTA reference; sam_output.hpp). Needs an index built with
// `strix index --approximate` (its reversed text's FM-index).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include <strix/io/container.hpp>

#include "answer_format.hpp"
#include "command.hpp"
#include "fm_query.hpp"
#include "parallel_chunks.hpp"
#include "report.hpp"
#include "sam_output.hpp"

namespace strix::cli {
namespace {

// The DNA complement of a read's byte (either case; N stays N), or 0 for a byte without one.
std::uint8_t complement(std::uint8_t b) {
  switch (b) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    case 'N': return 'N';
    case 'a': return 't';
    case 'c': return 'g';
    case 'g': return 'c';
    case 't': return 'a';
    case 'n': return 'n';
    default: return 0;
  }
}

// Refuses an index whose text holds bytes other than DNA letters (and line breaks, which join a
// reference's sequences): the reverse strand means nothing there.
void require_dna_index(fm_job& fm) {
  pattern_batch bytes;
  for (int b = 0; b < 256; ++b) {
    bytes.bytes.push_back(std::uint8_t(b));
    bytes.offsets.push_back(bytes.bytes.size());
  }
  const auto counts = fm.count(bytes).counts;
  for (int b = 0; b < 256; ++b) {
    if (counts[b] == 0 || complement(std::uint8_t(b)) || b == reference_separator || b == '\r') continue;
    char shown[32];
    std::snprintf(shown, sizeof shown, b >= 0x21 && b < 0x7F ? "'%c'" : "0x%02X", b);
    throw error(error_code::invalid_input, std::string("search --both-strands: the index's text holds ") + shown +
                                               ", not only DNA letters (A, C, G, T, N): it has no reverse strand");
  }
}

// Appends the reverse complement of each of the batch's reads (read q's at q + size).
void append_reverse_complements(pattern_batch& reads) {
  const std::size_t count = reads.size();
  for (std::size_t q = 0; q < count; ++q) {
    for (std::uint64_t i = reads.offsets[q + 1]; i > reads.offsets[q]; --i) {
      const std::uint8_t c = complement(reads.bytes[i - 1]);
      if (!c) {
        throw error(error_code::invalid_input, "search --both-strands: read " + std::to_string(q) +
                                                   " holds a byte other than A, C, G, T, N (no complement)");
      }
      reads.bytes.push_back(c);
    }
    reads.offsets.push_back(reads.bytes.size());
  }
}

// What the SAM records of a search need besides the answers.
struct sam_request {
  const pattern_batch& reads;  // with the reverse complements after the reads when `both`
  std::size_t count = 0;       // reads
  bool both = false, edit = false;
  int max_errors = 0;
  std::uint64_t max_occ = 0;
};

// Read q's hits (indexes into found.positions, with their strand) as reported: the best one
// (smallest distance; then position, + first) first, the rest in position order; at most
// max_occ of them. `total` gets how many there were, `best_count` how many at the best distance.
struct read_hit {
  std::uint64_t k;
  bool forward;
};
std::vector<read_hit> hits_of(const fm_answers& found, const sam_request& r, std::size_t q, std::uint64_t& total,
                              std::uint64_t& best_count) {
  std::vector<read_hit> merged;
  std::uint64_t f = found.starts[q], f_end = found.starts[q + 1];
  std::uint64_t b = r.both ? found.starts[r.count + q] : 0, b_end = r.both ? found.starts[r.count + q + 1] : 0;
  while (f < f_end || b < b_end) {
    const bool forward = b == b_end || (f < f_end && found.positions[f] <= found.positions[b]);
    merged.push_back({forward ? f++ : b++, forward});
  }
  total = merged.size();
  best_count = 0;
  if (merged.empty()) return merged;
  std::size_t best = 0;
  for (std::size_t i = 1; i < merged.size(); ++i)
    if (found.distances[merged[i].k] < found.distances[merged[best].k]) best = i;
  for (const auto& h : merged) best_count += found.distances[h.k] == found.distances[merged[best].k];
  std::rotate(merged.begin(), merged.begin() + std::ptrdiff_t(best), merged.begin() + std::ptrdiff_t(best) + 1);
  if (r.max_occ && merged.size() > r.max_occ) merged.resize(r.max_occ);
  return merged;
}

// The SAM records of every read: one line a hit (the first primary, the rest secondary, flag
// 256; flag 16 on the reverse strand, whose SEQ is the reverse complement and QUAL reversed),
// or one unmapped line (flag 4; also a read of at most k symbols under edit distance, which
// occurs everywhere). MAPQ 60 for a primary hit alone at its distance, else 0; a
// CIGAR of M for Hamming, the banded alignment against the reference for edit distance (on the
// device: strix/approximate/edit_alignment.hpp); NM
// the distance, NH the hits reported. Returns the hit lines written.
// (The stage write_output begins once the alignments are made: `output_started`.)
std::uint64_t write_sam(fm_job& fm, const reference_sequences& sequences, const fm_answers& found,
                        const sam_request& r, sam_output& sam, std::uint64_t& capped, session& s,
                        session::clock::time_point& output_started) {
  const pattern_batch& reads = r.reads;
  const auto read_bytes = [&](std::size_t q) { return reads.bytes.data() + reads.offsets[q]; };
  const auto read_length = [&](std::size_t q) { return reads.offsets[q + 1] - reads.offsets[q]; };
  std::vector<std::vector<read_hit>> kept(r.count);
  std::vector<std::uint64_t> best_counts(r.count);
  std::vector<std::uint64_t> window_starts, window_lengths;
  pattern_batch hit_reads;  // edit distance: each hit's read on its strand, for its alignment
  for (std::size_t q = 0; q < r.count; ++q) {
    std::uint64_t total = 0;
    kept[q] = hits_of(found, r, q, total, best_counts[q]);
    if (r.max_occ && total > r.max_occ) ++capped;
    // A read of at most k symbols (edit) or none occurs everywhere: unmapped, nothing to align.
    if (read_length(q) == 0 || (r.edit && read_length(q) <= std::uint64_t(r.max_errors))) kept[q].clear();
    if (!r.edit) continue;
    for (const auto& h : kept[q]) {
      // The text from the hit to at most m + k symbols on, within its sequence.
      const std::uint64_t p = found.positions[h.k];
      const auto [s, offset] = sequences.locate(p);
      window_starts.push_back(p);
      window_lengths.push_back(std::min<std::uint64_t>(read_length(q) + r.max_errors, sequences.lengths[s] - offset));
      const std::uint8_t* read = read_bytes(h.forward ? q : r.count + q);
      hit_reads.bytes.insert(hit_reads.bytes.end(), read, read + read_length(q));
      hit_reads.offsets.push_back(hit_reads.bytes.size());
    }
  }
  // The alignments of every edit hit in one batch on the device (windows extracted there too).
  const auto aligned = r.edit ? fm.align(hit_reads, window_starts, window_lengths, r.max_errors) : fm_job::alignments{};
  output_started = s.begin_stage("write output");
  // Each read's first edit hit among the aligned ones (they were queued read by read).
  std::vector<std::uint64_t> first_hit(r.count + 1, 0);
  if (r.edit)
    for (std::size_t q = 0; q < r.count; ++q) first_hit[q + 1] = first_hit[q] + kept[q].size();
  // Read q's SAM lines, appended to `text` field by field (no string a field); returns the
  // hit lines.
  const auto format_read = [&](std::size_t q, std::string& text) {
    const std::uint64_t m = read_length(q);
    const bool has_quality = !reads.qualities.empty() && m > 0 && reads.qualities[reads.offsets[q]] != 0;
    const auto append_name = [&] {
      if (reads.names.empty()) append_decimal(text, q);
      else text += reads.names[q];
    };
    // SEQ and QUAL of the read on a strand (the reverse strand's read is its reverse
    // complement, already in the batch; its qualities reversed).
    const auto append_sequence = [&](bool forward) {
      const std::size_t from = forward ? q : r.count + q;
      if (m == 0) text += '*';
      else text.append(reinterpret_cast<const char*>(read_bytes(from)), m);
      text += '\t';
      if (!has_quality) {
        text += '*';
        return;
      }
      const char* qual = reinterpret_cast<const char*>(reads.qualities.data() + reads.offsets[q]);
      if (forward) text.append(qual, m);
      else text.append(std::make_reverse_iterator(qual + m), std::make_reverse_iterator(qual));
    };
    // The read's records: (hit, CIGAR, distance). An edit alignment that starts by skipping text
    // is left out: the hit where that text ends is reported too, at fewer edits.
    struct record {
      const read_hit* h;
      std::string cigar;
      int distance;
    };
    std::vector<record> records;
    const std::string hamming_cigar = r.edit ? std::string() : std::to_string(m) + "M";
    std::uint64_t hit = first_hit[q];
    for (const read_hit& h : kept[q]) {
      if (!r.edit) {
        records.push_back({&h, hamming_cigar, int(found.distances[h.k])});
        continue;
      }
      const std::uint32_t ops = aligned.op_counts[hit];
      const std::uint8_t* op = aligned.ops.data() + hit_reads.offsets[hit] + hit * std::uint64_t(r.max_errors);
      const int distance = aligned.distances[hit];
      ++hit;
      if (ops == 0) throw error(error_code::internal, "search: no alignment at a hit of read " + std::to_string(q));
      if (op[0] == 'D') continue;
      std::string cigar;
      for (std::uint32_t a = 0; a < ops;) {  // run lengths
        std::uint32_t b = a;
        while (b < ops && op[b] == op[a]) ++b;
        cigar += std::to_string(b - a) + char(op[a]);
        a = b;
      }
      records.push_back({&h, std::move(cigar), distance});
    }
    if (records.empty()) {
      append_name();
      text += "\t4\t*\t0\t0\t*\t*\t0\t0\t";
      append_sequence(true);
      text += '\n';
      return std::uint64_t(0);
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
      const read_hit& h = *records[i].h;
      const auto [seq_no, offset] = sequences.locate(found.positions[h.k]);
      append_name();
      text += '\t';
      append_decimal(text, std::uint64_t((h.forward ? 0 : 16) | (i > 0 ? 256 : 0)));
      text += '\t';
      text += sequences.names[seq_no];
      text += '\t';
      append_decimal(text, offset + 1);
      text += i == 0 && best_counts[q] == 1 ? "\t60\t" : "\t0\t";
      text += records[i].cigar;
      text += "\t*\t0\t0\t";
      append_sequence(h.forward);
      text += "\tNM:i:";
      append_decimal(text, std::uint64_t(records[i].distance));
      text += "\tNH:i:";
      append_decimal(text, records.size());
      text += '\n';
    }
    return std::uint64_t(records.size());
  };
  // Chunks of reads formatted by the host threads side by side, a window of them at a time
  // (bounded text in memory), written in read order.
  const std::size_t chunk = 2048;
  const int threads = io::threads();
  const std::size_t window = chunk * std::size_t(std::max(threads, 1)) * 4;
  std::uint64_t lines = 0;
  std::vector<std::string> texts;
  std::vector<std::uint64_t> chunk_lines;
  for (std::size_t begin = 0; begin < r.count; begin += window) {
    const std::size_t end = std::min(r.count, begin + window), chunks = (end - begin + chunk - 1) / chunk;
    texts.assign(chunks, std::string());
    chunk_lines.assign(chunks, 0);
    for_each_chunk(chunks, threads, [&](std::size_t c) {
      for (std::size_t q = begin + c * chunk; q < std::min(end, begin + (c + 1) * chunk); ++q)
        chunk_lines[c] += format_read(q, texts[c]);
    });
    for (std::size_t c = 0; c < chunks; ++c) {
      sam.add_lines(texts[c]);
      lines += chunk_lines[c];
    }
  }
  return lines;
}

}  // namespace

runner add_search_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto max_errors = std::make_shared<int>(1);
  auto max_occ = std::make_shared<std::uint64_t>(0);
  auto distance = std::make_shared<std::string>("hamming");
  auto scheme = std::make_shared<std::string>("default");
  auto both = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>("tsv");
  auto* sub = app.add_subcommand("search", "list where each read occurs within k errors (an index of --approximate)");
  add_fm_query_options(sub, *o, true);
  sub->add_option("-k,--max-errors", *max_errors, "at most this many errors (0 to 6; default 1)")
      ->check(CLI::Range(0, 6));
  sub->add_option("--distance", *distance,
                  "hamming: substitutions only (default); edit: substitutions, insertions and deletions, "
                  "the position where the matched text starts")
      ->check(CLI::IsMember({"hamming", "edit"}));
  sub->add_option("--scheme", *scheme,
                  "search scheme: default, kucherov (k 1-2), kianfar (k 1-4), 01*0 or pigeonhole (any k)")
      ->check(CLI::IsMember({"default", "kucherov", "kianfar", "01*0", "pigeonhole"}));
  sub->add_option("--max-occ", *max_occ,
                  "at most N positions per read, the first ones (0: all); stderr says how many reads were capped");
  sub->add_flag("--both-strands", *both,
                "also search each read's reverse complement (DNA indexes; reads of A, C, G, T, N); each line "
                "ends in + or -, the strand");
  sub->add_option("--format", *format,
                  "tsv: the lines above (default); sam or bam: SAM/BAM records (an index of a FASTA reference; "
                  "read names and qualities from FASTA/FASTQ reads)")
      ->check(CLI::IsMember({"tsv", "sam", "bam"}));
  return [o, max_errors, max_occ, distance, scheme, both, format] {
    approximate::search_scheme plan;
    try {
      plan = approximate::scheme_named(*scheme, *max_errors);
    } catch (const std::invalid_argument& e) {
      throw error(error_code::invalid_input, std::string("search: ") + e.what());
    }
    answer_output out(*o);
    auto run = open_fm_query(*o, true);
    auto reads = read_query_patterns(*o, run);
    const std::size_t count = reads.size();
    if (*both) {
      require_dna_index(*run.fm);
      append_reverse_complements(reads);
    }
    if (*format != "tsv")
      STRIX_USER_REQUIRE(!run.sequences.empty(), "search --format " + *format +
                                                     ": SAM needs reference sequences; index a FASTA file (strix index --fasta)");
    const auto found = run.fm->search(reads, plan, *distance == "edit");
    std::string text;
    std::uint64_t capped = 0, lines = 0;
    if (*format != "tsv") {
      const std::string command_line = "strix search " + o->index + " " + o->patterns + " -k " + std::to_string(*max_errors) +
                                       " --distance " + *distance + (*both ? " --both-strands" : "") + " --format " + *format;
      sam_output sam(*format, out, run.sequences, command_line);
      session::clock::time_point t0;
      lines = write_sam(*run.fm, run.sequences, found, sam_request{reads, count, *both, *distance == "edit", *max_errors, *max_occ},
                        sam, capped, *run.s, t0);
      sam.finish();
      run.s->end_stage("write_output", t0);
    }
    const bool reference = !run.sequences.empty();
    const auto t_tsv = *format == "tsv" ? run.s->begin_stage("write output") : session::clock::time_point{};
    std::string number;
    for (std::size_t q = 0; *format == "tsv" && q < count; ++q) {
      number.clear();
      append_decimal(number, q);
      number += '\t';
      // Read q's hits, and with --both-strands its reverse complement's, merged by position.
      std::uint64_t f = found.starts[q], f_end = found.starts[q + 1];
      std::uint64_t r = *both ? found.starts[count + q] : 0, r_end = *both ? found.starts[count + q + 1] : 0;
      std::uint64_t left = *max_occ ? *max_occ : ~std::uint64_t(0);
      if (*max_occ && (f_end - f) + (r_end - r) > *max_occ) ++capped;
      for (; (f < f_end || r < r_end) && left > 0; --left, ++lines) {
        const bool forward = r == r_end || (f < f_end && found.positions[f] <= found.positions[r]);
        const std::uint64_t k = forward ? f++ : r++;
        text += number;
        if (reference) {
          const auto [sequence, offset] = run.sequences.locate(found.positions[k]);
          text += run.sequences.names[sequence];
          text += '\t';
          append_decimal(text, offset);
        } else {
          append_decimal(text, found.positions[k]);
        }
        text += '\t';
        append_decimal(text, found.distances[k]);
        if (*both) text += forward ? "\t+" : "\t-";
        text += '\n';
      }
      if (text.size() > (1u << 22)) {
        out.write(text);
        text.clear();
      }
    }
    out.write(text);
    if (*format == "tsv") run.s->end_stage("write_output", t_tsv);
    if (capped) std::fprintf(stderr, "strix: %llu reads had more than %llu positions (capped)\n",
                             static_cast<unsigned long long>(capped), static_cast<unsigned long long>(*max_occ));
    if (o->common.stats) {
      auto j = stats_json("search", run.fm->size(), *run.s);
      j["reads"] = count;
      j["both_strands"] = *both;
      j["max_errors"] = *max_errors;
      j["distance"] = *distance;
      j["scheme"] = plan.name;
      j["positions"] = lines;
      j["capped_reads"] = capped;
      print_json(j);
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
