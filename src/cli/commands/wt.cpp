// SPDX-License-Identifier: BSD-3-Clause
// strix wt build TEXT -o FILE [--matrix] [--symbol-bytes 1|2|4] [--width 32|64] [--chunk N]
// strix wt query FILE --op access|rank|select QUERIES [-o OUT] [--format tsv|binary]
// Wavelet trees and matrices: build one from a text and save it; answer queries on a saved one.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"
#include "features/wavelet_job.hpp"
#include "session.hpp"

namespace strix::cli {
namespace {

struct wt_build_options {
  std::string input, output;
  bool matrix = false;
  int symbol_bytes = 1, width = 0;
  std::uint64_t chunk = 0;
  common_options common;
};

struct wt_query_options {
  std::string structure, queries, output = "-", op, format = "tsv";
  int width = 0;
  common_options common;
};

// A reader over bytes in memory.
byte_reader memory_reader(const std::vector<std::uint8_t>& bytes, std::size_t& at) {
  return [&bytes, &at](void* p, std::size_t n) {
    const std::size_t k = std::min(n, bytes.size() - at);
    if (k) std::memcpy(p, bytes.data() + at, k);
    at += k;
    return k;
  };
}

// Decimal u64 fields of a TSV line; false when the line is not `fields` numbers.
bool parse_fields(const std::string& line, std::size_t fields, std::uint64_t* out) {
  std::size_t at = 0;
  for (std::size_t f = 0; f < fields; ++f) {
    if (f > 0) {
      if (at >= line.size() || line[at] != '\t') return false;
      ++at;
    }
    const std::size_t start = at;
    std::uint64_t v = 0;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9') {
      const std::uint64_t d = std::uint64_t(line[at] - '0');
      if (v > (~std::uint64_t(0) - d) / 10) return false;
      v = v * 10 + d;
      ++at;
    }
    if (at == start) return false;
    out[f] = v;
  }
  return at == line.size();
}

// Queries as (symbol, argument) pairs: TSV lines or binary little-endian u64 records.
void read_queries(const std::vector<std::uint8_t>& in, bool binary, wavelet_query op, std::vector<std::uint64_t>& symbols,
                  std::vector<std::uint64_t>& args) {
  const std::size_t fields = op == wavelet_query::access ? 1 : 2;
  if (binary) {
    STRIX_USER_REQUIRE(in.size() % (8 * fields) == 0, "binary queries: " + std::to_string(in.size()) +
                                                          " bytes is not a whole number of " +
                                                          std::to_string(8 * fields) + "-byte records");
    const std::size_t m = in.size() / (8 * fields);
    for (std::size_t q = 0; q < m; ++q) {
      std::uint64_t v[2] = {0, 0};
      std::memcpy(v, in.data() + q * 8 * fields, 8 * fields);
      if (fields == 2) symbols.push_back(v[0]);
      args.push_back(v[fields - 1]);
    }
    return;
  }
  std::size_t line_no = 0, at = 0;
  while (at < in.size()) {
    std::size_t end = at;
    while (end < in.size() && in[end] != '\n') ++end;
    std::string line(in.begin() + at, in.begin() + end);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++line_no;
    std::uint64_t v[2];
    STRIX_USER_REQUIRE(parse_fields(line, fields, v),
                       "queries line " + std::to_string(line_no) + ": expected " +
                           (fields == 1 ? std::string("a position") : std::string("symbol<TAB>number")) +
                           " as decimal numbers");
    if (fields == 2) symbols.push_back(v[0]);
    args.push_back(v[fields - 1]);
    at = end + 1;
  }
}

// Range checks before the values are narrowed to the structure's types; a select past the
// last occurrence asks for more than any count (the answer is n).
void check_queries(const wavelet_file_info& h, wavelet_query op, const std::vector<std::uint64_t>& symbols,
                   std::vector<std::uint64_t>& args) {
  const std::uint64_t max_symbol = h.symbol_bytes == 4 ? 0xffffffffull : (1ull << (8 * h.symbol_bytes)) - 1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string where = "query " + std::to_string(i + 1) + ": ";
    if (op != wavelet_query::access)
      STRIX_USER_REQUIRE(symbols[i] <= max_symbol, where + "symbol " + std::to_string(symbols[i]) + " does not fit " +
                                                       std::to_string(h.symbol_bytes) + "-byte symbols");
    if (op == wavelet_query::access)
      STRIX_USER_REQUIRE(args[i] < h.n, where + "position " + std::to_string(args[i]) + " is not below n = " + std::to_string(h.n));
    else if (op == wavelet_query::rank)
      STRIX_USER_REQUIRE(args[i] <= h.n, where + "position " + std::to_string(args[i]) + " is beyond n = " + std::to_string(h.n));
    else {
      STRIX_USER_REQUIRE(args[i] >= 1, where + "select needs k >= 1");
      if (args[i] > h.n) args[i] = h.n + 1;
    }
  }
}

wavelet_query parse_op(const std::string& op) {
  return op == "access" ? wavelet_query::access : op == "rank" ? wavelet_query::rank : wavelet_query::select;
}

// Answers as TSV lines (binary answers are written as they are).
std::string tsv_answers(const std::vector<std::uint64_t>& answers) {
  std::string text;
  text.reserve(answers.size() * 8);
  for (std::uint64_t a : answers) {
    text += std::to_string(a);
    text += '\n';
  }
  return text;
}

int run_wt_build(const wt_build_options& b) {
  input_file text(b.input);
  STRIX_USER_REQUIRE(text.size() % b.symbol_bytes == 0, "text of " + std::to_string(text.size()) +
                                                            " bytes is not a whole number of " +
                                                            std::to_string(b.symbol_bytes) + "-byte symbols");
  const std::uint64_t n = text.size() / b.symbol_bytes;
  const int width = choose_width(n, b.width, "a text of " + std::to_string(n) + " symbols");
  atomic_output out(b.output, {&text});
  auto s = open_session(b.common, width, text.size());
  wavelet_job wavelet(*s, b.symbol_bytes, b.matrix ? wavelet_shape::matrix : wavelet_shape::tree);
  host_buffer buf = s->allocate_host(text.size() + 1);
  progress().stage("read input");
  text.read_into(buf.data);
  wavelet.build(buf, n, b.chunk);
  wavelet.save([&out](const void* p, std::size_t k) { out.write(p, k); });
  if (b.common.stats) {
    auto j = stats_json("wt build", n, *s);
    j["alphabet_size"] = wavelet.alphabet_size();
    j["levels"] = wavelet.levels();
    j["structure_bytes"] = wavelet.bytes();
    print_json(j);
  }
  out.commit();
  return 0;
}

int run_wt_query(const wt_query_options& q) {
  input_file file(q.structure), queries(q.queries);
  const std::vector<std::uint8_t> bytes = read_bytes(file);
  std::size_t at = 0;
  const byte_reader read = memory_reader(bytes, at);
  const wavelet_file_info h = read_wavelet_info(read);
  const int width = choose_width(h.n, q.width, "a structure of " + std::to_string(h.n) + " symbols");
  const wavelet_query op = parse_op(q.op);
  std::vector<std::uint64_t> symbols, args;
  read_queries(read_bytes(queries), q.format == "binary", op, symbols, args);
  STRIX_USER_REQUIRE(!q.common.stats || q.output != "-", "--stats prints on standard output: give the answers -o FILE");
  check_queries(h, op, symbols, args);
  std::unique_ptr<atomic_output> out;
  if (q.output != "-") out = std::make_unique<atomic_output>(q.output, std::initializer_list<const input_file*>{&file, &queries});
  auto s = open_session(q.common, width, bytes.size());
  wavelet_job wavelet(*s, h.symbol_bytes, h.shape);
  wavelet.load(h, read);
  const std::vector<std::uint64_t> answers = wavelet.query(op, symbols, args);
  progress().stage("write output");
  auto emit = [&out](const void* p, std::size_t k) {
    if (out) out->write(p, k);
    else STRIX_USER_REQUIRE(std::fwrite(p, 1, k, stdout) == k, "cannot write the answers to standard output");
  };
  if (q.format == "binary") {
    emit(answers.data(), answers.size() * 8);
  } else {
    const std::string text = tsv_answers(answers);
    emit(text.data(), text.size());
  }
  if (q.common.stats) {
    auto j = stats_json("wt query", h.n, *s);
    j["op"] = q.op;
    j["queries"] = answers.size();
    print_json(j);
  }
  if (out) out->commit();
  else STRIX_USER_REQUIRE(std::fflush(stdout) == 0, "cannot write the answers to standard output");
  return 0;
}

}  // namespace

runner add_wt_command(CLI::App& app) {
  auto* wt = app.add_subcommand("wt", "wavelet trees and matrices: build, save and query");
  wt->require_subcommand(1);
  auto b = std::make_shared<wt_build_options>();
  auto* build = wt->add_subcommand("build", "build the wavelet tree (or matrix) of TEXT and save it");
  build->add_option("TEXT", b->input, "input text: symbols of --symbol-bytes bytes, little-endian")->required();
  build->add_option("-o,--output", b->output, "output: the saved structure (see the README)")->required();
  build->add_flag("--matrix", b->matrix, "build a wavelet matrix instead of a tree");
  build->add_option("--symbol-bytes", b->symbol_bytes, "bytes per symbol: 1, 2 or 4 (default 1)")
      ->check(CLI::IsMember({1, 2, 4}));
  build->add_option("--width", b->width, "bits per position, 32 or 64 (default: the narrowest that holds n)")
      ->check(CLI::IsMember({32, 64}));
  build->add_option("--chunk", b->chunk,
                    "stream the text through the device in chunks of this many symbols (for texts "
                    "larger than device memory; default: copy it whole)");
  add_common_options(build, b->common);

  auto q = std::make_shared<wt_query_options>();
  auto* query = wt->add_subcommand("query", "answer access, rank or select queries on a saved structure");
  query->add_option("FILE", q->structure, "a structure saved by strix wt build")->required();
  query->add_option("--op", q->op, "access, rank or select")->required()->check(CLI::IsMember({"access", "rank", "select"}));
  query->add_option("QUERIES", q->queries, "queries: TSV lines (i | c<TAB>i | c<TAB>k) or binary u64 records")->required();
  query->add_option("-o,--output", q->output, "answers, one per query in order (default: standard output)");
  query->add_option("--format", q->format, "tsv (default) or binary (u64 little-endian, queries and answers)")
      ->check(CLI::IsMember({"tsv", "binary"}));
  query->add_option("--width", q->width, "bits per position, 32 or 64 (default: the narrowest that holds n)")
      ->check(CLI::IsMember({32, 64}));
  add_common_options(query, q->common);

  return [b, q, build] { return build->parsed() ? run_wt_build(*b) : run_wt_query(*q); };
}

}  // namespace strix::cli
