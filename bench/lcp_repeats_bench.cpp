// SPDX-License-Identifier: BSD-3-Clause
// LCP and longest-repeat benchmark: the sequential CPU reference (one thread) against
// strix on each Kokkos backend of this build, on one input, with the walk statistics of
// Tian and Xu's Table 2. Every backend's output is compared with the reference.
//   strix_bench_lcp_repeats INPUT [--runs R] [--seq-runs S] [--backends cuda,openmp]
//                           [--raw-budget STEPS] [--seq-raw-budget STEPS]
// Prints one JSON object on stdout, progress on stderr. Times: LCP given the suffix array;
// longest repeats given rank and LCP (LLR, compaction and walks, allocations included);
// device times are fenced; median of R runs after one warm-up (the sequential: median of
// S runs, default 1: it runs for seconds).
// The raw method walks alpha LLRs per position: it is skipped when alpha * n exceeds the
// budget (periodic texts and long runs make alpha ~ n).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <strix/strix.hpp>

namespace {

using clock_type = std::chrono::steady_clock;

double median_time(int runs, const std::function<void()>& f) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = clock_type::now();
    f();
    t.push_back(std::chrono::duration<double>(clock_type::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct options {
  std::string input;
  int runs = 3, seq_runs = 1;
  std::vector<std::string> backends;
  double raw_budget = 2e10, seq_raw_budget = 4e9;
};

const strix::repeat_method methods[] = {strix::repeat_method::compact, strix::repeat_method::raw};
std::string method_name(strix::repeat_method m) {
  return m == strix::repeat_method::raw ? "raw" : "compact";
}

// The sequential reference's answers for one mode (identical for both methods).
template <class I>
struct reference {
  std::vector<strix::repeat<I>> leftmost;
  strix::sequential::all_repeats<I> all;
};

template <class I>
struct host_data {
  std::vector<std::uint8_t> text;
  std::vector<I> sa, rank, lcp;
  reference<I> ref;
};

template <class Space, class I>
void run_backend(const std::string& name, const options& opt, const host_data<I>& h,
                 std::uint64_t raw_steps, nlohmann::json& out) {
  using mem = typename Space::memory_space;
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  Space space;
  const std::uint64_t n = h.text.size();
  Kokkos::View<std::uint8_t*, mem> text("text", n);
  Kokkos::View<I*, mem> sa("sa", n), lcp("lcp", n), rank("rank", n);
  Kokkos::deep_copy(text, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, unmanaged>(h.text.data(), n));
  Kokkos::deep_copy(sa, Kokkos::View<const I*, Kokkos::HostSpace, unmanaged>(h.sa.data(), n));
  auto lcp_run = [&] { strix::lcp_array(space, text, sa, lcp); space.fence(); };
  lcp_run();
  out["lcp"][name] = median_time(opt.runs, lcp_run);
  auto lcp_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lcp);
  out["check"]["lcp " + name] = std::equal(h.lcp.begin(), h.lcp.end(), lcp_h.data()) ? "ok" : "MISMATCH";
  std::fprintf(stderr, "  %s lcp %.4f s (%s)\n", name.c_str(), out["lcp"][name].get<double>(),
               out["check"]["lcp " + name].get<std::string>().c_str());
  strix::inverse_suffix_array(space, sa, rank);
  sa = {};
  text = {};
  for (auto method : methods) {
    if (method == strix::repeat_method::raw && double(raw_steps) > opt.raw_budget) continue;
    strix::repeat_options ro;
    ro.method = method;
    const std::string m = method_name(method);
    {  // leftmost
      Kokkos::View<strix::repeat<I>*, mem> lr("lr", n);
      auto run = [&] { strix::leftmost_longest_repeats(space, rank, lcp, lr, ro); space.fence(); };
      run();
      out["lr"][m + " leftmost"][name] = median_time(opt.runs, run);
      auto lr_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lr);
      const bool same = std::equal(h.ref.leftmost.begin(), h.ref.leftmost.end(), lr_h.data());
      out["check"][m + " leftmost " + name] = same ? "ok" : "MISMATCH";
    }
    {  // all
      strix::all_repeats_result<I, mem> res;
      auto run = [&] { res = strix::all_longest_repeats(space, rank, lcp, ro); space.fence(); };
      run();
      out["lr"][m + " all"][name] = median_time(opt.runs, run);
      auto off = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.offsets);
      auto rec = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.records);
      const bool same = off.extent(0) == h.ref.all.offsets.size() &&
                        rec.extent(0) == h.ref.all.records.size() &&
                        std::equal(h.ref.all.offsets.begin(), h.ref.all.offsets.end(), off.data()) &&
                        std::equal(h.ref.all.records.begin(), h.ref.all.records.end(), rec.data());
      out["check"][m + " all " + name] = same ? "ok" : "MISMATCH";
    }
    std::fprintf(stderr, "  %s %s: leftmost %.4f s, all %.4f s\n", name.c_str(), m.c_str(),
                 out["lr"][m + " leftmost"][name].get<double>(), out["lr"][m + " all"][name].get<double>());
  }
}

template <class I>
int bench(const options& opt, std::vector<std::uint8_t> text) {
  host_data<I> h;
  h.text = std::move(text);
  const std::uint64_t n = h.text.size();
  nlohmann::json out;
  out["input"] = opt.input.substr(opt.input.find_last_of('/') + 1);
  out["n"] = n;
  out["width"] = 8 * sizeof(I);
  out["runs"] = opt.runs;
  out["seq_runs"] = opt.seq_runs;

  {  // The suffix array, by strix on the default space (checked, not timed).
    using mem = Kokkos::DefaultExecutionSpace::memory_space;
    Kokkos::View<std::uint8_t*, mem> t("text", n);
    Kokkos::deep_copy(t, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace>(h.text.data(), n));
    Kokkos::View<I*, mem> sa("sa", n);
    strix::suffix_array(Kokkos::DefaultExecutionSpace(), t, sa);
    out["check"]["suffix array"] =
        strix::check_suffix_array(Kokkos::DefaultExecutionSpace(), t, sa).ok ? "ok" : "MISMATCH";
    auto sa_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sa);
    h.sa.assign(sa_h.data(), sa_h.data() + n);
  }
  std::fprintf(stderr, "%s: n = %llu, suffix array built\n", out["input"].get<std::string>().c_str(),
               static_cast<unsigned long long>(n));

  // Sequential reference: LCP given SA; rank; walk statistics; LR per method and mode.
  h.lcp.resize(n);
  out["lcp"]["sequential"] = median_time(opt.seq_runs, [&] {
    strix::sequential::lcp_array(h.text.data(), h.sa.data(), n, h.lcp.data());
  });
  std::fprintf(stderr, "  sequential lcp %.3f s\n", out["lcp"]["sequential"].get<double>());
  h.rank.resize(n);
  for (std::uint64_t r = 0; r < n; ++r) h.rank[h.sa[r]] = static_cast<I>(r);
  const auto stats = strix::sequential::llr_walk_stats(
      strix::sequential::llr_lengths(h.rank.data(), h.lcp.data(), n));
  out["walk"] = {{"raw_average", stats.raw_average},       {"raw_max", stats.raw_max},
                 {"compact_average", stats.compact_average}, {"compact_max", stats.compact_max},
                 {"useful_llrs", stats.useful}};
  const std::uint64_t raw_steps = static_cast<std::uint64_t>(stats.raw_average * double(n));
  out["raw_steps"] = raw_steps;
  std::fprintf(stderr, "  walks: raw avg %.1f max %llu; compact avg %.2f max %llu\n", stats.raw_average,
               static_cast<unsigned long long>(stats.raw_max), stats.compact_average,
               static_cast<unsigned long long>(stats.compact_max));
  for (auto method : methods) {
    const std::string m = method_name(method);
    if (method == strix::repeat_method::raw && double(raw_steps) > opt.seq_raw_budget) {
      out["lr"][m + " leftmost"]["sequential"] = nullptr;
      out["lr"][m + " all"]["sequential"] = nullptr;
      continue;
    }
    std::vector<strix::repeat<I>> left(n);
    out["lr"][m + " leftmost"]["sequential"] = median_time(opt.seq_runs, [&] {
      strix::sequential::leftmost_longest_repeats(h.rank.data(), h.lcp.data(), n, method, left.data());
    });
    strix::sequential::all_repeats<I> all;
    out["lr"][m + " all"]["sequential"] = median_time(opt.seq_runs, [&] {
      all = strix::sequential::all_longest_repeats(h.rank.data(), h.lcp.data(), n, method);
    });
    std::fprintf(stderr, "  sequential %s: leftmost %.3f s, all %.3f s\n", m.c_str(),
                 out["lr"][m + " leftmost"]["sequential"].get<double>(),
                 out["lr"][m + " all"]["sequential"].get<double>());
    if (method == strix::repeat_method::compact) {
      h.ref.leftmost = std::move(left);
      h.ref.all = std::move(all);
      out["records_all"] = h.ref.all.records.size();
    } else {
      out["check"]["raw sequential"] = left == h.ref.leftmost && all.offsets == h.ref.all.offsets &&
                                               all.records == h.ref.all.records
                                           ? "ok" : "MISMATCH";
    }
  }

  for (const auto& b : opt.backends) {
    bool known = false;
#if STRIX_ETI_HAS_CUDA
    if (b == "cuda") { run_backend<Kokkos::Cuda, I>(b, opt, h, raw_steps, out); known = true; }
#endif
#if STRIX_ETI_HAS_OPENMP
    if (b == "openmp") {
      out["openmp_threads"] = Kokkos::OpenMP().concurrency();
      run_backend<Kokkos::OpenMP, I>(b, opt, h, raw_steps, out);
      known = true;
    }
#endif
#if STRIX_ETI_HAS_SERIAL
    if (b == "serial") { run_backend<Kokkos::Serial, I>(b, opt, h, raw_steps, out); known = true; }
#endif
    if (!known) out["check"]["backend " + b] = "not compiled (STRIX_ETI_SPACES)";
  }
  bool all_ok = true;
  for (auto& c : out["check"].items()) all_ok = all_ok && c.value() != "MISMATCH";
  std::printf("%s\n", out.dump().c_str());
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard guard(argc, argv);  // takes Kokkos' own arguments out of argv
  options opt;
  std::string backends =
#if STRIX_ETI_HAS_CUDA && STRIX_ETI_HAS_OPENMP
      "cuda,openmp";
#elif STRIX_ETI_HAS_CUDA
      "cuda";
#else
      "openmp";
#endif
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    auto value = [&]() -> std::string {
      if (a + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", arg.c_str()); std::exit(2); }
      return argv[++a];
    };
    if (arg == "--runs") opt.runs = std::max(1, std::atoi(value().c_str()));
    else if (arg == "--seq-runs") opt.seq_runs = std::max(1, std::atoi(value().c_str()));
    else if (arg == "--backends") backends = value();
    else if (arg == "--raw-budget") opt.raw_budget = std::atof(value().c_str());
    else if (arg == "--seq-raw-budget") opt.seq_raw_budget = std::atof(value().c_str());
    else if (opt.input.empty() && arg[0] != '-') opt.input = arg;
    else { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
  }
  if (opt.input.empty()) {
    std::fprintf(stderr, "usage: %s INPUT [--runs R] [--seq-runs S] [--backends cuda,openmp,serial] "
                         "[--raw-budget STEPS] [--seq-raw-budget STEPS]\n", argv[0]);
    return 2;
  }
  std::stringstream list(backends);
  for (std::string b; std::getline(list, b, ',');) if (!b.empty()) opt.backends.push_back(b);
  std::ifstream in(opt.input, std::ios::binary);
  if (!in) { std::fprintf(stderr, "cannot open %s\n", opt.input.c_str()); return 3; }
  std::vector<std::uint8_t> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return text.size() < (1ull << 32) ? bench<std::uint32_t>(opt, std::move(text))
                                    : bench<std::uint64_t>(opt, std::move(text));
}
