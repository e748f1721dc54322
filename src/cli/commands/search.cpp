// SPDX-License-Identifier: BSD-3-Clause
// strix search INDEX READS [-o OUT] [--max-errors K] [--distance hamming|edit] [--scheme NAME]
// [--max-occ N]: every start position where a read matches within K substitutions (or edits:
// where some text starting there is within edit distance K), as lines
// read_no<TAB>position<TAB>distance (a text) or read_no<TAB>sequence<TAB>position<TAB>distance
// (a reference), each position once with its smallest distance, ascending per read. Needs an
// index built with `strix index --approximate` (its reversed text's FM-index).
#include <CLI/CLI.hpp>

#include <string>

#include "command.hpp"
#include "fm_query.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_search_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto max_errors = std::make_shared<int>(1);
  auto max_occ = std::make_shared<std::uint64_t>(0);
  auto distance = std::make_shared<std::string>("hamming");
  auto scheme = std::make_shared<std::string>("default");
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
  return [o, max_errors, max_occ, distance, scheme] {
    approximate::search_scheme plan;
    try {
      plan = approximate::scheme_named(*scheme, *max_errors);
    } catch (const std::invalid_argument& e) {
      throw error(error_code::invalid_input, std::string("search: ") + e.what());
    }
    answer_output out(*o);
    auto run = open_fm_query(*o, true);
    const auto reads = read_query_patterns(*o, run);
    const auto found = run.fm->search(reads, plan, *distance == "edit");
    std::string text;
    std::uint64_t capped = 0, lines = 0;
    const bool reference = !run.sequences.empty();
    for (std::size_t q = 0; q < reads.size(); ++q) {
      const std::string number = std::to_string(q) + '\t';
      std::uint64_t last = found.starts[q + 1];
      if (*max_occ && last - found.starts[q] > *max_occ) {
        last = found.starts[q] + *max_occ;
        ++capped;
      }
      for (std::uint64_t k = found.starts[q]; k < last; ++k, ++lines) {
        text += number;
        if (reference) {
          const auto [sequence, offset] = run.sequences.locate(found.positions[k]);
          text += run.sequences.names[sequence] + '\t' + std::to_string(offset);
        } else {
          text += std::to_string(found.positions[k]);
        }
        text += '\t' + std::to_string(int(found.distances[k])) + '\n';
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
      j["reads"] = reads.size();
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
