// SPDX-License-Identifier: BSD-3-Clause
// FM-index benchmark (issue 16): build time, peak memory and size; count throughput for
// patterns of lengths 16, 32 and 100 (one in ten mutated) from device views and from host
// arrays (copies included); locate throughput (occurrences/s) at sample rates 16, 32 and 64,
// over the patterns of at most --max-occ occurrences, from host arrays and from device views;
// the whole text extracted, into device memory and into a host array. The default execution space; prints
// "RESULT <name> <value> <unit>".
//   strix_bench_fm FILE [--patterns M] [--runs R] [--max-occ K] [--kmer-length K]
//                  [--layout automatic|occurrence_table|wavelet_matrix|huffman_tree]
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>

#include <strix/core/copy.hpp>
#include <strix/core/staging.hpp>
#include <strix/index/text_index.hpp>

#include "fm_gpu_strategies.hpp"
#include "fm_patterns.hpp"

namespace {

using space = Kokkos::DefaultExecutionSpace;
using mem = space::memory_space;

// The host-array count's parts, each timed alone over the whole batch: the host threads' copy
// of the patterns and offsets into pinned memory, the copy to the device, the searches (the
// device-view figure) and the answer's way back; against them the whole call.
void host_array_phases(const std::string& tag, const strix_bench::pattern_set& p, int runs, double search,
                       double whole) {
  using pinned = strix::staging_space_t<space>;
  using host = Kokkos::DefaultHostExecutionSpace;
  const std::size_t nb = p.bytes.size(), no = p.offsets.size(), m = p.size();
  Kokkos::View<std::uint8_t*, pinned> h_bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pinned"), nb);
  Kokkos::View<std::uint64_t*, pinned> h_offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "pinned"), no);
  Kokkos::View<std::uint8_t*, mem> d_bytes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), nb);
  Kokkos::View<std::uint64_t*, mem> d_offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), no);
  Kokkos::View<std::uint32_t*, mem> d_counts("c", m);
  const std::uint8_t* src = p.bytes.data();
  const std::uint64_t* offs = p.offsets.data();
  std::uint8_t* dst = h_bytes.data();
  std::uint64_t* dst_o = h_offsets.data();
  constexpr std::size_t block = 1 << 16;
  const std::size_t blocks = (nb + block - 1) / block, oblocks = (no + block - 1) / block;
  const double fill = strix_bench::median_seconds(runs, [&] {
    Kokkos::parallel_for("fill", Kokkos::RangePolicy<host>(0, blocks + oblocks), [=](const std::size_t b) {
      if (b < blocks) {
        std::memcpy(dst + b * block, src + b * block, std::min(block, nb - b * block));
      } else {
        const std::size_t lo = (b - blocks) * block, hi = std::min(no, lo + block);
        for (std::size_t q = lo; q < hi; ++q) dst_o[q] = offs[q] - offs[0];
      }
    });
    host().fence();
  });
  const double h2d = strix_bench::median_seconds(runs, [&] {
    Kokkos::deep_copy(d_bytes, h_bytes);
    Kokkos::deep_copy(d_offsets, h_offsets);
  });
  const double back = strix_bench::median_seconds(runs, [&] {
    std::vector<std::uint32_t> answer(m);
    strix::copy(space(), Kokkos::View<std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(answer.data(), m), d_counts);
    space().fence();
  });
  std::printf("RESULT %s_count32_phase_fill_ms %.4g ms\n", tag.c_str(), fill * 1e3);
  std::printf("RESULT %s_count32_phase_h2d_ms %.4g ms\n", tag.c_str(), h2d * 1e3);
  std::printf("RESULT %s_count32_phase_search_ms %.4g ms\n", tag.c_str(), search * 1e3);
  std::printf("RESULT %s_count32_phase_answer_ms %.4g ms\n", tag.c_str(), back * 1e3);
  std::printf("RESULT %s_count32_host_arrays_ms %.4g ms\n", tag.c_str(), whole * 1e3);
}

template <class I>
void run(const std::string& path, const std::string& text, std::size_t m, int runs, std::uint64_t max_occ,
         int kmer_length, strix::fm_rank_layout layout, const std::vector<std::uint64_t>& rates,
         const std::vector<std::size_t>& lengths) {
  const auto name = strix_bench::input_name(path);
  const std::uint64_t n = text.size();
  for (std::uint64_t rate : rates) {
    strix::fm_options options;
    options.sample_rate = rate;
    options.kmer_length = kmer_length;
    options.layout = layout;
    strix::text_index<space, I> index(space(), reinterpret_cast<const std::uint8_t*>(text.data()), n);
    strix::run_stats stats;
    space().fence();
    const auto t0 = std::chrono::steady_clock::now();
    const auto& fm = index.fm_index(options, &stats);
    space().fence();
    const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string tag = "strix_" + name + "_s" + std::to_string(rate);
    std::printf("RESULT %s_build_ms %.4g ms\n", tag.c_str(), build * 1e3);
    std::printf("RESULT %s_peak_bytes %zu B\n", tag.c_str(), stats.peak_bytes);
    std::printf("RESULT %s_bits_per_char %.4g bits\n", tag.c_str(), 8.0 * double(fm.bytes()) / double(n));
    std::printf("RESULT %s_rank_bits_per_char %.4g bits\n", tag.c_str(), 8.0 * double(fm.data().rank_bytes()) / double(n));
    std::printf("RESULT %s_kmer_length %d -\n", tag.c_str(), fm.kmer_length());
    std::printf("RESULT %s_layout %s -\n", tag.c_str(), strix::fm_layout_name(fm.layout()));
    if (rate == 32) {
      for (std::size_t length : lengths) {
        const auto p = strix_bench::make_patterns(text, m, length, length);
        auto d_bytes = Kokkos::create_mirror_view_and_copy(
            mem(), Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(p.bytes.data(), p.bytes.size()));
        auto d_offsets = Kokkos::create_mirror_view_and_copy(
            mem(), Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(p.offsets.data(), p.offsets.size()));
        Kokkos::View<I*, mem> d_counts("counts", p.size());
        const double device = strix_bench::median_seconds(runs, [&] {
          fm.count(d_bytes, d_offsets, d_counts);
          space().fence();
        });
        const double host = strix_bench::median_seconds(runs, [&] { fm.count(p.bytes.data(), p.offsets.data(), p.size()); });
        // Into an answer array the caller keeps between batches (touched by the warm-up run).
        std::vector<I> answer(p.size());
        const double into = strix_bench::median_seconds(runs, [&] { fm.count(p.bytes.data(), p.offsets.data(), p.size(), answer.data()); });
        if (answer != fm.count(p.bytes.data(), p.offsets.data(), p.size())) {
          std::fprintf(stderr, "fm_bench: the counts into the caller's array differ from the returned ones\n");
          std::exit(1);
        }
        std::printf("RESULT %s_count%zu_device %.4g Mpatterns/s\n", tag.c_str(), length, p.size() / device / 1e6);
        if (length == 32 && !std::is_same<space, Kokkos::DefaultHostExecutionSpace>::value) {
          // Other lane counts a pattern (fm_gpu_strategies.hpp), checked against the library's.
          const auto expected = strix::to_host(space(), d_counts);
          const auto strategy = [&](const char* name, const auto& count) {
            const double t = strix_bench::median_seconds(runs, [&] {
              count(space(), fm.ref(), d_bytes, d_offsets, d_counts);
              space().fence();
            });
            const auto got = strix::to_host(space(), d_counts);
            for (std::size_t q = 0; q < p.size(); ++q)
              if (got(q) != expected(q)) {
                std::fprintf(stderr, "fm_bench: %s counts differ at pattern %zu\n", name, q);
                std::exit(1);
              }
            std::printf("RESULT %s_count32_device_%s %.4g Mpatterns/s\n", tag.c_str(), name, p.size() / t / 1e6);
          };
          strategy("two_lanes", [](const auto&... a) { strix_bench::count_two_lanes(a...); });
          strategy("warp_per_pattern", [](const auto&... a) { strix_bench::count_warp_per_pattern(a...); });
        }
        std::printf("RESULT %s_count%zu_host_arrays %.4g Mpatterns/s\n", tag.c_str(), length, p.size() / host / 1e6);
        std::printf("RESULT %s_count%zu_host_arrays_into %.4g Mpatterns/s\n", tag.c_str(), length, p.size() / into / 1e6);
        if (length == 32) host_array_phases(tag, p, runs, device, host);
      }
    }
    // Locate: the patterns of at most max_occ occurrences (a handful of frequent ones, such
    // as N runs, would dominate otherwise).
    const auto all = strix_bench::make_patterns(text, m / 10, 20, 7);
    const auto all_counts = fm.count(all.bytes.data(), all.offsets.data(), all.size());
    strix_bench::pattern_set p;
    for (std::size_t q = 0; q < all.size(); ++q)
      if (all_counts[q] <= max_occ) {
        p.bytes.insert(p.bytes.end(), all.bytes.begin() + all.offsets[q], all.bytes.begin() + all.offsets[q + 1]);
        p.offsets.push_back(p.bytes.size());
      }
    std::uint64_t occurrences = 0;
    const double locate = strix_bench::median_seconds(runs, [&] {
      occurrences = fm.locate(p.bytes.data(), p.offsets.data(), p.size()).positions.size();
    });
    std::printf("RESULT %s_locate20 %.4g Moccurrences/s\n", tag.c_str(), occurrences / locate / 1e6);
    std::printf("RESULT %s_locate20_occurrences %llu occ\n", tag.c_str(), static_cast<unsigned long long>(occurrences));
    // The same from device views (answers left on the device).
    {
      auto d_bytes = Kokkos::create_mirror_view_and_copy(
          mem(), Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(p.bytes.data(), p.bytes.size()));
      auto d_offsets = Kokkos::create_mirror_view_and_copy(
          mem(), Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(p.offsets.data(), p.offsets.size()));
      const double device = strix_bench::median_seconds(runs, [&] {
        fm.locate(d_bytes, d_offsets);
        space().fence();
      });
      std::printf("RESULT %s_locate20_device %.4g Moccurrences/s\n", tag.c_str(), occurrences / device / 1e6);
    }
    // The whole text extracted into device memory.
    {
      Kokkos::View<std::uint8_t*, mem> d_text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
      const double extract = strix_bench::median_seconds(runs, [&] {
        fm.extract(0, n, d_text);
        space().fence();
      });
      std::printf("RESULT %s_extract_device %.4g GB/s\n", tag.c_str(), double(n) / extract / 1e9);
      const double host = strix_bench::median_seconds(runs, [&] { fm.extract(0, n); });
      std::printf("RESULT %s_extract_host_array %.4g GB/s\n", tag.c_str(), double(n) / host / 1e9);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: strix_bench_fm FILE [--patterns M] [--runs R] [--max-occ K] [--kmer-length K] [--layout L]"
                 " [--rates 16,32,64] [--lengths 16,32,100]\n");
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string path = argv[1];
  std::size_t m = 1000000;
  int runs = 5;
  std::uint64_t max_occ = 1000;
  int kmer_length = -1;
  auto layout = strix::fm_rank_layout::automatic;
  // Fewer rates or count lengths: a profiler's run of the kernels of one of them.
  std::vector<std::uint64_t> rates{16, 32, 64};
  std::vector<std::size_t> lengths{16, 32, 100};
  const auto numbers = [](const std::string& list) {
    std::vector<std::uint64_t> v;
    std::size_t at = 0;
    while (at < list.size()) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      v.push_back(std::stoull(list.substr(at, comma - at)));
      at = comma + 1;
    }
    return v;
  };
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--patterns") m = std::stoull(argv[i + 1]);
    else if (a == "--runs") runs = std::stoi(argv[i + 1]);
    else if (a == "--max-occ") max_occ = std::stoull(argv[i + 1]);
    else if (a == "--kmer-length") kmer_length = std::stoi(argv[i + 1]);
    else if (a == "--rates") rates = numbers(argv[i + 1]);
    else if (a == "--lengths") {
      const auto v = numbers(argv[i + 1]);
      lengths.assign(v.begin(), v.end());
    }
    else if (a == "--layout") {
      for (auto l : {strix::fm_rank_layout::automatic, strix::fm_rank_layout::occurrence_table,
                     strix::fm_rank_layout::wavelet_matrix, strix::fm_rank_layout::huffman_tree})
        if (argv[i + 1] == std::string(strix::fm_layout_name(l))) layout = l;
    }
  }
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("RESULT backend %s -\n", space::name());
  if (text.size() <= strix::max_length<std::uint32_t>()) run<std::uint32_t>(path, text, m, runs, max_occ, kmer_length, layout, rates, lengths);
  else run<std::uint64_t>(path, text, m, runs, max_occ, kmer_length, layout, rates, lengths);
  return 0;
}
