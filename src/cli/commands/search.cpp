// SPDX-License-Identifier: BSD-3-Clause
// strix search INDEX READS [-o OUT] [--max-errors K] [--distance hamming|edit] [--scheme NAME]
// [--max-occ N] [--both-strands]: every start position where a read matches within K
// substitutions (or edits: where some text starting there is within edit distance K), as lines
// read_no<TAB>position<TAB>distance (a text) or read_no<TAB>sequence<TAB>position<TAB>distance
// (a reference), each position once with its smallest distance, ascending per read. With
// --both-strands (DNA indexes) the read's reverse complement is searched too and each line ends
// in <TAB>+ or <TAB>- (ascending by position, + first). Needs an index built with
// `strix index --approximate` (its reversed text's FM-index).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "command.hpp"
#include "fm_query.hpp"
#include "report.hpp"

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

}  // namespace

runner add_search_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto max_errors = std::make_shared<int>(1);
  auto max_occ = std::make_shared<std::uint64_t>(0);
  auto distance = std::make_shared<std::string>("hamming");
  auto scheme = std::make_shared<std::string>("default");
  auto both = std::make_shared<bool>(false);
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
  return [o, max_errors, max_occ, distance, scheme, both] {
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
    const auto found = run.fm->search(reads, plan, *distance == "edit");
    std::string text;
    std::uint64_t capped = 0, lines = 0;
    const bool reference = !run.sequences.empty();
    for (std::size_t q = 0; q < count; ++q) {
      const std::string number = std::to_string(q) + '\t';
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
          text += run.sequences.names[sequence] + '\t' + std::to_string(offset);
        } else {
          text += std::to_string(found.positions[k]);
        }
        text += '\t' + std::to_string(int(found.distances[k]));
        if (*both) text += forward ? "\t+" : "\t-";
        text += '\n';
      }
      if (text.size() > (1u << 22)) {
        out.write(text);
        text.clear();
      }
    }
    out.write(text);
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
