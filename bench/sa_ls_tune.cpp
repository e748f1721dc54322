// SPDX-License-Identifier: BSD-3-Clause
// Tuning of larsson-sadakane's group bounds: for every input, prefix doubling and GPU-LS
// over a grid of R1 (small groups: team sort) and R2 (medium: segmented sort; larger:
// device-wide radix sort), side by side on Kokkos' default execution space.
//   strix_bench_ls_tune INPUT... [--runs R] [--r1 64,128,...] [--r2 4096,...] [--width 32|64]
// INPUT is a file, or random:BYTES (random bytes), dna:BYTES (random ACGT) or
// periodic:PERIOD:BYTES (a random period over 26 letters, repeated).
// Each configuration: one warm-up build, then R timed builds (fenced, text and SA on the
// device, working memory reserved beforehand), median; one more build with statistics gives
// the rounds and the groups sorted per class. Every GPU-LS suffix array is compared with
// prefix doubling's. Prints one row per configuration, then a summary table last.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <strix/strix.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

std::vector<std::uint32_t> parse_list(const std::string& s) {
  std::vector<std::uint32_t> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) v.push_back(static_cast<std::uint32_t>(std::stoul(item)));
  return v;
}

std::vector<std::uint8_t> load_input(const std::string& spec) {
  auto field = [&](int i) {
    std::stringstream in(spec);
    std::string f;
    for (int k = 0; k <= i; ++k) std::getline(in, f, ':');
    return f;
  };
  std::mt19937_64 rng(42);
  if (spec.rfind("random:", 0) == 0 || spec.rfind("dna:", 0) == 0) {
    const bool dna = spec[0] == 'd';
    std::vector<std::uint8_t> t(std::stoull(field(1)));
    for (auto& c : t) c = dna ? "ACGT"[rng() % 4] : static_cast<std::uint8_t>(rng());
    return t;
  }
  if (spec.rfind("periodic:", 0) == 0) {
    std::vector<std::uint8_t> unit(std::stoull(field(1))), t(std::stoull(field(2)));
    for (auto& c : unit) c = static_cast<std::uint8_t>('a' + rng() % 26);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = unit[i % unit.size()];
    return t;
  }
  std::ifstream f(spec, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + spec);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

struct row {
  std::string input, algorithm;
  std::uint32_t r1 = 0, r2 = 0;
  double seconds = 0, mbps = 0;
  std::uint64_t rounds = 0, small = 0, medium = 0, large = 0;
  bool same = true;
};

template <class I>
void bench_input(const std::string& name, const std::vector<std::uint8_t>& host_text, int runs,
                 const std::vector<std::uint32_t>& r1s, const std::vector<std::uint32_t>& r2s, std::vector<row>& rows) {
  using space = Kokkos::DefaultExecutionSpace;
  using mem = space::memory_space;
  const std::size_t n = host_text.size();
  Kokkos::View<std::uint8_t*, mem> text("text", n);
  {
    Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(host_text.data(), n);
    Kokkos::deep_copy(text, h);
  }
  Kokkos::View<I*, mem> reference("reference", n), sa("sa", n);
  space exec;
  auto run = [&](const strix::sa_options& o, const Kokkos::View<I*, mem>& out) {
    row r;
    r.input = name;
    r.algorithm = strix::algorithm_name(o);
    r.r1 = o.algorithm == strix::sa_algorithm::larsson_sadakane ? o.ls_small_group : 0;
    r.r2 = o.algorithm == strix::sa_algorithm::larsson_sadakane ? o.ls_medium_group : 0;
    strix::suffix_array_handle<space, I> handle(exec, o, n);
    strix::suffix_array(exec, text, out, handle);  // warm-up
    exec.fence();
    std::vector<double> t;
    for (int k = 0; k < runs; ++k) {
      const auto t0 = clock_type::now();
      strix::suffix_array(exec, text, out, handle);
      exec.fence();
      t.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
    }
    std::sort(t.begin(), t.end());
    r.seconds = t[t.size() / 2];
    r.mbps = double(n) / 1e6 / r.seconds;
    strix::run_stats stats;
    strix::suffix_array(exec, text, out, handle, &stats);
    r.rounds = stats.counter("rounds");
    r.small = stats.counter("small_groups");
    r.medium = stats.counter("medium_groups");
    r.large = stats.counter("large_groups");
    std::string phases;
    for (const auto& p : stats.phases) phases += " " + p.first + "=" + std::to_string(p.second * 1e3).substr(0, 6);
    std::fprintf(stderr, "%s %s R1=%u R2=%u phases (ms, fenced):%s\n", name.c_str(), r.algorithm.c_str(), r.r1, r.r2,
                 phases.c_str());
    return r;
  };
  strix::sa_options pd;
  pd.algorithm = strix::sa_algorithm::prefix_doubling;
  rows.push_back(run(pd, reference));
  std::fprintf(stderr, "%s: prefix-doubling %.1f MB/s\n", name.c_str(), rows.back().mbps);
  for (const auto r2 : r2s)
    for (const auto r1 : r1s) {
      strix::sa_options o;
      o.algorithm = strix::sa_algorithm::larsson_sadakane;
      o.ls_small_group = r1;
      o.ls_medium_group = r2;
      row r = run(o, sa);
      std::size_t differ = 0;
      Kokkos::parallel_reduce(
          "strix_bench::compare", Kokkos::RangePolicy<space>(0, n),
          KOKKOS_LAMBDA(const std::size_t i, std::size_t& d) { d += sa(i) != reference(i); }, differ);
      r.same = differ == 0;
      rows.push_back(r);
      std::fprintf(stderr, "%s: ls R1=%u R2=%u %.1f MB/s rounds=%llu S=%llu M=%llu L=%llu %s\n", name.c_str(), r1,
                   r2, r.mbps, (unsigned long long)r.rounds, (unsigned long long)r.small,
                   (unsigned long long)r.medium, (unsigned long long)r.large, r.same ? "ok" : "DIFFERS");
    }
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::vector<std::string> inputs;
  int runs = 3, width = 32;
  std::vector<std::uint32_t> r1s{64, 128, 256, 512, 1024}, r2s{4096, 65536, 1048576};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--r1" && i + 1 < argc) r1s = parse_list(argv[++i]);
    else if (a == "--r2" && i + 1 < argc) r2s = parse_list(argv[++i]);
    else if (a == "--width" && i + 1 < argc) width = std::atoi(argv[++i]);
    else inputs.push_back(a);
  }
  if (inputs.empty() || runs < 1) {
    std::fprintf(stderr, "usage: %s INPUT... [--runs R] [--r1 LIST] [--r2 LIST] [--width 32|64]\n", argv[0]);
    return 2;
  }
  std::vector<row> rows;
  bool all_same = true;
  try {
    for (const auto& spec : inputs) {
      const auto text = load_input(spec);
      const auto slash = spec.find_last_of('/');
      const std::string name = slash == std::string::npos ? spec : spec.substr(slash + 1);
      if (width == 64) bench_input<std::uint64_t>(name, text, runs, r1s, r2s, rows);
      else bench_input<std::uint32_t>(name, text, runs, r1s, r2s, rows);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  std::printf("device: %s, %d-bit, median of %d after a warm-up\n", Kokkos::DefaultExecutionSpace::name(), width,
              runs);
  std::printf("%-22s %-16s %6s %8s %9s %8s %6s %9s %8s %6s %s\n", "input", "algorithm", "R1", "R2", "ms", "MB/s",
              "rounds", "S groups", "M", "L", "same");
  for (const auto& r : rows) {
    all_same = all_same && r.same;
    std::printf("%-22s %-16s %6u %8u %9.2f %8.1f %6llu %9llu %8llu %6llu %s\n", r.input.c_str(), r.algorithm.c_str(),
                r.r1, r.r2, r.seconds * 1e3, r.mbps, (unsigned long long)r.rounds, (unsigned long long)r.small,
                (unsigned long long)r.medium, (unsigned long long)r.large, r.same ? "yes" : "NO");
  }
  return all_same ? 0 : 1;
}
