// SPDX-License-Identifier: BSD-3-Clause
// SeqAn3 baseline of the FM-index benchmark on DNA (issue 16): seqan3::fm_index over dna5
// (A, C, G, T, N: a DNA text's N runs kept) in its default configuration (its own SDSL's
// csa_wt<wt_blcd>, suffix-array samples every 16 rows, no inverse samples), the same
// patterns as strix_bench_fm, count and locate spread over OpenMP threads (cursors are
// const); locate covers the patterns of at most --max-occ occurrences. Texts with other
// bytes are refused. Prints "RESULT <name> <value> <unit>".
//   strix_bench_seqan3_fm FILE [--patterns M] [--runs R] [--max-occ K]
#include <omp.h>

#include <cereal/archives/binary.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <seqan3/alphabet/nucleotide/dna5.hpp>
#include <seqan3/search/fm_index/fm_index.hpp>
#include <string>
#include <vector>

#include "fm_patterns.hpp"

namespace {

std::vector<seqan3::dna5> to_dna5(const std::uint8_t* first, std::size_t length) {
  std::vector<seqan3::dna5> s(length);
  for (std::size_t i = 0; i < length; ++i) s[i].assign_char(char(first[i]));
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: strix_bench_seqan3_fm FILE [--patterns M] [--runs R] [--max-occ K]\n");
    return 2;
  }
  const std::string path = argv[1];
  std::size_t m = 1000000;
  int runs = 5;
  std::uint64_t max_occ = 1000;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--patterns") m = std::stoull(argv[i + 1]);
    else if (a == "--runs") runs = std::stoi(argv[i + 1]);
    else if (a == "--max-occ") max_occ = std::stoull(argv[i + 1]);
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty() || text.find_first_not_of("ACGTN") != std::string::npos) {
    std::fprintf(stderr, "strix_bench_seqan3_fm: the text must be non-empty DNA over A, C, G, T, N\n");
    return 2;
  }
  const auto name = "seqan3_" + strix_bench::input_name(path);
  const auto t0 = std::chrono::steady_clock::now();
  const seqan3::fm_index<seqan3::dna5, seqan3::text_layout::single> index{
      to_dna5(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())};
  const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("RESULT %s_build_ms %.4g ms\n", name.c_str(), build * 1e3);
  {
    std::ostringstream saved;  // its size as saved: SeqAn3 gives no other count of its bytes
    cereal::BinaryOutputArchive archive(saved);
    archive(index);
    std::printf("RESULT %s_bits_per_char %.4g bits\n", name.c_str(), 8.0 * double(saved.str().size()) / double(text.size()));
  }
  std::printf("RESULT %s_threads %d -\n", name.c_str(), omp_get_max_threads());
  for (std::size_t length : {16u, 32u, 100u}) {
    const auto p = strix_bench::make_patterns(text, m, length, length);
    std::vector<std::vector<seqan3::dna5>> queries(p.size());
    for (std::size_t q = 0; q < p.size(); ++q)
      queries[q] = to_dna5(p.bytes.data() + p.offsets[q], p.offsets[q + 1] - p.offsets[q]);
    std::vector<std::uint64_t> counts(p.size());
    const double t = strix_bench::median_seconds(runs, [&] {
#pragma omp parallel for schedule(dynamic, 4096)
      for (std::int64_t q = 0; q < std::int64_t(p.size()); ++q) {
        auto cursor = index.cursor();
        counts[q] = cursor.extend_right(queries[q]) ? cursor.count() : 0;
      }
    });
    std::printf("RESULT %s_count%zu %.4g Mpatterns/s\n", name.c_str(), length, p.size() / t / 1e6);
  }
  const auto p = strix_bench::make_patterns(text, m / 10, 20, 7);
  std::vector<std::vector<seqan3::dna5>> queries(p.size());
  for (std::size_t q = 0; q < p.size(); ++q) queries[q] = to_dna5(p.bytes.data() + p.offsets[q], p.offsets[q + 1] - p.offsets[q]);
  std::uint64_t occurrences = 0, position_sum = 0;
  const double t = strix_bench::median_seconds(runs, [&] {
    std::uint64_t total = 0, sum = 0;
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : total, sum)
    for (std::int64_t q = 0; q < std::int64_t(p.size()); ++q) {
      auto cursor = index.cursor();
      if (!cursor.extend_right(queries[q]) || cursor.count() > max_occ) continue;  // as in strix_bench_fm
      for (const auto& [text_id, position] : cursor.locate()) {
        (void)text_id;
        sum += position;
        ++total;
      }
    }
    occurrences = total;
    position_sum = sum;
  });
  std::printf("RESULT %s_locate20 %.4g Moccurrences/s\n", name.c_str(), occurrences / t / 1e6);
  std::printf("RESULT %s_locate20_occurrences %llu occ (position sum %llu)\n", name.c_str(),
              static_cast<unsigned long long>(occurrences), static_cast<unsigned long long>(position_sum));
  return 0;
}
