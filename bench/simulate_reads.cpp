// SPDX-License-Identifier: BSD-3-Clause
// Reads for the approximate-search bench (issue 53): windows of a DNA text (no N inside), each
// read drawn from the forward strand or its reverse complement, with substitutions,
// insertions and deletions at the given rates per base (Illumina-like errors are mostly
// substitutions: the rates are separate).
//
//   strix_bench_simulate TEXT COUNT LENGTH SUBST_RATE INDEL_RATE SEED OUT_PREFIX
//
// writes OUT_PREFIX.fa (the reads, `>r<q>`; what a mapper that tries both strands is given)
// and OUT_PREFIX.both.fa (each read, then all their reverse complements as `>r<q>-`: what
// strix, which searches one strand, is given for the same work).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

char complement(char c) {
  switch (c) {
    case 'A': return 'T';
    case 'C': return 'G';
    case 'G': return 'C';
    case 'T': return 'A';
    default: return 'N';
  }
}

std::string reverse_complement(const std::string& s) {
  std::string r(s.rbegin(), s.rend());
  for (auto& c : r) c = complement(c);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 8) {
    std::cerr << "usage: strix_bench_simulate TEXT COUNT LENGTH SUBST_RATE INDEL_RATE SEED OUT_PREFIX\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::uint64_t count = std::stoull(argv[2]), length = std::stoull(argv[3]);
  const double subst = std::stod(argv[4]), indel = std::stod(argv[5]);
  std::mt19937_64 rng(std::stoull(argv[6]));
  const std::string prefix = argv[7];
  if (text.size() < 2 * length) {
    std::cerr << "strix_bench_simulate: the text is shorter than two reads\n";
    return 1;
  }
  const char bases[] = "ACGT";
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::string> reads;
  reads.reserve(count);
  while (reads.size() < count) {
    const std::uint64_t at = rng() % (text.size() - 2 * length);
    // A window long enough for the deletions; skipped when it holds anything but ACGT.
    const std::string window = text.substr(at, 2 * length);
    if (window.find_first_not_of("ACGT") != std::string::npos) continue;
    std::string read;
    for (std::size_t i = 0; read.size() < length && i < window.size(); ++i) {
      const double r = u(rng);
      if (r < indel / 2) continue;  // a deletion: the base is left out
      if (r < indel) read.push_back(bases[rng() % 4]);  // an insertion before the base
      if (read.size() == length) break;
      char c = window[i];
      if (u(rng) < subst) c = bases[(std::string("ACGT").find(c) + 1 + rng() % 3) % 4];
      read.push_back(c);
    }
    reads.push_back(rng() % 2 ? reverse_complement(read) : read);
  }
  std::ofstream one(prefix + ".fa"), both(prefix + ".both.fa");
  for (std::size_t q = 0; q < reads.size(); ++q) {
    one << ">r" << q << '\n' << reads[q] << '\n';
    both << ">r" << q << '\n' << reads[q] << '\n';
  }
  for (std::size_t q = 0; q < reads.size(); ++q) both << ">r" << q << "-\n" << reverse_complement(reads[q]) << '\n';
  if (!one || !both) {
    std::cerr << "strix_bench_simulate: cannot write " << prefix << ".fa\n";
    return 1;
  }
  std::cout << reads.size() << " reads of " << length << " bases\n";
  return 0;
}
