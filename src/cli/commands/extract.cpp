// SPDX-License-Identifier: BSD-3-Clause
// strix extract INDEX --range [SEQ:]START-END [-o OUT]: the text between two positions,
// 0-based and END excluded, like locate's positions (of sequence SEQ in a reference).
#include <CLI/CLI.hpp>

#include <string>

#include "command.hpp"
#include "fm_query.hpp"
#include "report.hpp"

namespace strix::cli {

namespace {

std::uint64_t parse_position(const std::string& s, const std::string& range) {
  STRIX_USER_REQUIRE(!s.empty() && s.find_first_not_of("0123456789") == std::string::npos && s.size() <= 19,
                     "--range '" + range + "': positions are decimal numbers");
  return std::stoull(s);
}

}  // namespace

runner add_extract_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto range = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("extract", "print part of an FM-index's text");
  add_fm_query_options(sub, *o, false);
  sub->add_option("--range", *range,
                  "START-END (0-based, END excluded, like locate's positions), or SEQ:START-END within sequence "
                  "SEQ of a reference (its last ':' ends the name)")
      ->required();
  return [o, range] {
    answer_output out(*o);
    auto run = open_fm_query(*o);
    const auto colon = range->rfind(':');
    const std::string span = colon == std::string::npos ? *range : range->substr(colon + 1);
    const auto dash = span.find('-');
    STRIX_USER_REQUIRE(dash != std::string::npos, "--range '" + *range + "' is not START-END");
    const std::uint64_t start = parse_position(span.substr(0, dash), *range);
    const std::uint64_t end = parse_position(span.substr(dash + 1), *range);
    STRIX_USER_REQUIRE(start <= end, "--range '" + *range + "' ends before it starts");
    std::uint64_t base = 0, limit = run.fm->size();
    if (colon != std::string::npos) {
      STRIX_USER_REQUIRE(!run.sequences.empty(), "--range names a sequence, but the index is of a plain text");
      const std::size_t s = run.sequences.find(range->substr(0, colon));
      base = run.sequences.starts[s];
      limit = run.sequences.lengths[s];
    }
    STRIX_USER_REQUIRE(end <= limit, "--range '" + *range + "' ends after " + std::to_string(limit));
    const auto text = run.fm->extract(base + start, end - start);
    const auto t0 = run.s->begin_stage("write output");
    out.write(std::string(text.begin(), text.end()));
    run.s->end_stage("write_output", t0);
    if (o->common.stats) print_json(stats_json("extract", run.fm->size(), *run.s));
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
