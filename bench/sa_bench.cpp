// SPDX-License-Identifier: BSD-3-Clause
// strix's suffix array and BWT timed in one process the way bench/cubwt_time.cu times
// libcubwt (issue 49): host buffers pinned, the handle's working memory and the device
// arrays allocated before the clock starts, the copy in and the copy out inside it, one
// warm-up run (it also loads every kernel), then the median of R runs. The tool's own
// total_seconds (bench/run-device.sh) is a fresh process's first run instead.
//   strix_bench_sa sa|bwt INPUT OUT [RUNS] [ALGORITHM]
//   strix_bench_sa unbwt BWT OUT RUNS PRIMARY      (the inverse BWT on the device, alike)
//     -> "seconds=<median> device_bytes=<handle + arrays, or the inverse's peak> primary=<index or -1>
//         peak_bytes=<the last run's peak, --stats' measure> algorithm=<what ran>"
// OUT "-" writes nothing (texts whose suffix array the disk cannot hold). STRIX_BENCH_CHECK=1
// (sa): the handle's memory released, then strix::check_suffix_array on the device, "check=ok"
// or "check=WRONG:<why>" (exit 4). STRIX_BENCH_PROGRESS=1: every step and construction phase on
// stderr as it ends, with the seconds since the start (a run cut off still says where it was).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <strix/bwt/bwt.hpp>
#include <strix/core/length.hpp>
#include <strix/core/staging.hpp>
#include <strix/sa/algorithm.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/suffix_array.hpp>

namespace {

using space = Kokkos::DefaultExecutionSpace;
using mem = space::memory_space;
using pinned = strix::staging_space_t<space>;

// The median seconds of `runs` calls of `once` (fenced on both sides), after one warm-up call
// that also loads every kernel.
template <class F>
double median_seconds(int runs, F&& once) {
  std::vector<double> times;
  for (int r = 0; r <= runs; ++r) {
    space().fence();
    const auto t0 = std::chrono::steady_clock::now();
    once();
    space().fence();
    if (r > 0) times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Seconds since the process started, and whether steps are reported (STRIX_BENCH_PROGRESS=1).
const auto started = std::chrono::steady_clock::now();
bool reporting() {
  static const bool on = [] {
    const char* v = std::getenv("STRIX_BENCH_PROGRESS");
    return v && std::string(v) == "1";
  }();
  return on;
}
void report(const std::string& what, double seconds = -1) {
  if (!reporting()) return;
  const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (seconds >= 0) std::fprintf(stderr, "[%8.2f s] %s %.3f s\n", at, what.c_str(), seconds);
  else std::fprintf(stderr, "[%8.2f s] %s\n", at, what.c_str());
  std::fflush(stderr);
}

template <class I>
int run(const std::string& mode, const std::vector<char>& file, const char* out_path, int runs,
        const strix::sa_options& options) {
  const std::size_t n = file.size();
  Kokkos::View<std::uint8_t*, pinned> h_text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
  std::copy(file.begin(), file.end(), reinterpret_cast<char*>(h_text.data()));
  const bool sa_mode = mode == "sa";
  Kokkos::View<I*, pinned> h_sa(Kokkos::view_alloc(Kokkos::WithoutInitializing, "sa"), sa_mode ? n : 0);
  Kokkos::View<std::uint8_t*, pinned> h_bwt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bwt"), sa_mode ? 0 : n);
  Kokkos::View<std::uint8_t*, mem> d_text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
  Kokkos::View<I*, mem> d_sa(Kokkos::view_alloc(Kokkos::WithoutInitializing, "sa"), n);
  Kokkos::View<std::uint8_t*, mem> d_bwt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bwt"), sa_mode ? 0 : n);
  report("host and device arrays allocated");
  strix::suffix_array_handle<space, I> handle(space(), options, n);
  report("working memory reserved");
  std::uint64_t primary = 0;
  strix::run_stats stats;
  const double seconds = median_seconds(runs, [&] {
    Kokkos::deep_copy(space(), d_text, h_text);
    stats = strix::run_stats{};
    if (reporting()) stats.on_phase = [](const std::string& phase, double seconds) { report("phase " + phase, seconds); };
    if (sa_mode) {
      strix::suffix_array(space(), d_text, d_sa, handle, &stats);
      Kokkos::deep_copy(space(), h_sa, d_sa);
    } else {
      primary = strix::bwt_from_text(space(), d_text, d_sa, d_bwt, handle, &stats);
      Kokkos::deep_copy(space(), h_bwt, d_bwt);
    }
    if (reporting()) {
      space().fence();
      report("run done (copies included)");
    }
  });
  const std::size_t bytes = handle.bytes() + n + n * sizeof(I) + (sa_mode ? 0 : n);
  std::printf("seconds=%.6f device_bytes=%zu primary=%lld peak_bytes=%zu algorithm=%s\n", seconds, bytes,
              sa_mode ? -1LL : static_cast<long long>(primary), std::size_t(stats.peak_bytes),
              stats.note("algorithm").c_str());
  std::fflush(stdout);
  const char* check = std::getenv("STRIX_BENCH_CHECK");
  if (sa_mode && check && std::string(check) == "1") {
    handle.release();
    report("checking");
    const auto verdict = strix::check_suffix_array(space(), d_text, d_sa);
    std::printf("check=%s%s\n", verdict.ok ? "ok" : "WRONG:", verdict.ok ? "" : verdict.message.c_str());
    if (!verdict.ok) return 4;
  }
  if (std::string(out_path) == "-") return 0;
  std::ofstream o(out_path, std::ios::binary);
  if (sa_mode) o.write(reinterpret_cast<const char*>(h_sa.data()), std::streamsize(n * sizeof(I)));
  else o.write(reinterpret_cast<const char*>(h_bwt.data()), std::streamsize(n));
  return o ? 0 : 3;
}

// The inverse BWT, timed alike: the BWT copied in, the text copied out.
int run_unbwt(const std::vector<char>& file, const char* out_path, int runs, std::uint64_t primary) {
  const std::size_t n = file.size();
  Kokkos::View<std::uint8_t*, pinned> h_bwt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bwt"), n);
  Kokkos::View<std::uint8_t*, pinned> h_text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
  std::copy(file.begin(), file.end(), reinterpret_cast<char*>(h_bwt.data()));
  Kokkos::View<std::uint8_t*, mem> d_bwt(Kokkos::view_alloc(Kokkos::WithoutInitializing, "bwt"), n);
  Kokkos::View<std::uint8_t*, mem> d_text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
  // Its device memory reserved before the clock, as libcubwt's harness allocates its storage.
  strix::inverse_bwt_workspace<space> workspace;
  workspace.reserve(space(), n);
  strix::run_stats stats;
  const double seconds = median_seconds(runs, [&] {
    Kokkos::deep_copy(space(), d_bwt, h_bwt);
    strix::inverse_bwt(space(), d_bwt, primary, d_text, workspace, &stats);
    Kokkos::deep_copy(space(), h_text, d_text);
  });
  std::ofstream o(out_path, std::ios::binary);
  o.write(reinterpret_cast<const char*>(h_text.data()), std::streamsize(n));
  std::printf("seconds=%.6f device_bytes=%zu primary=%llu\n", seconds, std::size_t(stats.peak_bytes),
              static_cast<unsigned long long>(primary));
  return o ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s sa|bwt INPUT OUT [RUNS] [ALGORITHM] | unbwt BWT OUT RUNS PRIMARY\n", argv[0]);
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string mode = argv[1];
  if (mode != "sa" && mode != "bwt" && mode != "unbwt") {
    std::fprintf(stderr, "strix_bench_sa: sa, bwt or unbwt, not '%s'\n", mode.c_str());
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "strix_bench_sa: cannot open %s\n", argv[2]);
    return 3;
  }
  std::vector<char> file;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size >= 0) {  // (gigabytes: not a character at a time)
    file.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    in.read(file.data(), std::streamsize(file.size()));
  } else {  // (a pipe)
    in.clear();
    file.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  report("input read");
  const int runs = argc > 4 ? std::atoi(argv[4]) : 5;
  if (mode == "unbwt") {
    if (argc < 6) {
      std::fprintf(stderr, "strix_bench_sa: unbwt BWT OUT RUNS PRIMARY\n");
      return 2;
    }
    return run_unbwt(file, argv[3], runs, std::strtoull(argv[5], nullptr, 10));
  }
  const strix::sa_options options = strix::parse_sa_options(argc > 5 ? argv[5] : "auto");
  if (file.size() <= strix::max_length<std::uint32_t>()) return run<std::uint32_t>(mode, file, argv[3], runs, options);
  return run<std::uint64_t>(mode, file, argv[3], runs, options);
}
