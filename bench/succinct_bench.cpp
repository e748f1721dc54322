// SPDX-License-Identifier: BSD-3-Clause
// Benchmark of strix's bit vector, wavelet tree and wavelet matrix on the default execution
// space (the GPU in a CUDA build): the figures of issue 10, each the median of --runs timed
// runs after one warm-up. Prints one line per figure: "RESULT <name> <value> <unit>".
//   strix_bench_succinct [--bits N] [--big-bits N] [--queries Q] [--text-bytes B]
//                        [--runs R] [--what bv,bvbig,wt,wm,stream,files] [--file PATH ...]
//                        [--stream-chunk C]
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <strix/succinct/bit_vector.hpp>
#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>

namespace {

using space = Kokkos::DefaultExecutionSpace;
using memory = space::memory_space;
#ifdef KOKKOS_ENABLE_CUDA
using pinned = Kokkos::CudaHostPinnedSpace;
#else
using pinned = Kokkos::HostSpace;
#endif

KOKKOS_INLINE_FUNCTION std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <class F>
double median_seconds(int runs, F&& f) {
  f();  // warm-up
  space().fence();
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    space().fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void result(const std::string& name, double value, const char* unit) {
  std::printf("RESULT %s %.4g %s\n", name.c_str(), value, unit);
  std::fflush(stdout);
}

using policy = Kokkos::RangePolicy<space, Kokkos::IndexType<std::int64_t>>;

template <class I>
void bench_bit_vector(std::uint64_t n, std::uint64_t q, int runs, const std::string& tag) {
  Kokkos::View<std::uint64_t*, memory> words(Kokkos::view_alloc(Kokkos::WithoutInitializing, "words"), (n + 63) / 64);
  Kokkos::parallel_for("gen_bits", policy(0, words.extent(0)), KOKKOS_LAMBDA(const std::int64_t w) { words(w) = mix(w); });
  strix::bit_vector<space, I> bv(space(), words, n);
  words = {};
  result("bv_" + tag + "_overhead_percent", 100.0 * double(bv.directory_bytes() * 8) / double(n), "%");
  Kokkos::View<I*, memory> args(Kokkos::view_alloc(Kokkos::WithoutInitializing, "args"), q),
      out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "out"), q);
  auto run = [&](strix::bit_query op, std::uint64_t range, std::uint64_t first, const std::string& name) {
    Kokkos::parallel_for("gen_args", policy(0, q), KOKKOS_LAMBDA(const std::int64_t i) {
      args(i) = static_cast<I>(first + mix(i * 7 + 3) % range);
    });
    const double s = median_seconds(runs, [&] { bv.query(op, args, out); });
    result("bv_" + tag + "_" + name, double(q) / s / 1e9, "Gq/s");
  };
  run(strix::bit_query::rank1, n + 1, 0, "rank1");
  run(strix::bit_query::rank0, n + 1, 0, "rank0");
  run(strix::bit_query::select1, bv.ones(), 1, "select1");
  run(strix::bit_query::select0, bv.zeros(), 1, "select0");
}

template <class W>
void bench_wavelet(const Kokkos::View<std::uint8_t*, pinned>& text, std::uint64_t q, int runs, const std::string& tag) {
  using I = typename W::index_type;
  const std::uint64_t n = text.extent(0);
  // Each build from an empty slot (freeing the previous structure is not timed).
  W w;
  std::vector<double> times;
  for (int r = 0; r <= runs; ++r) {
    w = W();
    space().fence();
    const auto t0 = std::chrono::steady_clock::now();
    w = W::from_host(space(), text.data(), n);
    space().fence();
    if (r > 0) times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  const double build = times[times.size() / 2];
  result(tag + "_build_ms", build * 1e3, "ms");
  result(tag + "_build_GBps", double(n) / build / 1e9, "GB/s");
  result(tag + "_bytes_per_symbol", double(w.bytes()) / double(n ? n : 1), "B");
  // Where a build's time goes: the copy alone, then the library's phases (device fenced).
  {
    Kokkos::View<std::uint8_t*, memory> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy"), n);
    const double copy = median_seconds(runs, [&] { Kokkos::deep_copy(space(), d, text); });
    result(tag + "_copy_in_ms", copy * 1e3, "ms");
    w = W();
    strix::run_stats st;
    w = W::from_host(space(), text.data(), n, {}, &st);
    for (const auto& p : st.phases) result(tag + "_phase_" + p.first + "_ms", p.second * 1e3, "ms");
  }
  // Queries: positions uniform in the text; symbols those of random positions (so each
  // occurs), select's k uniform in [1, its count].
  const std::uint64_t sigma = w.alphabet_size();
  Kokkos::View<std::uint8_t*, memory> text_d("text_d", n);
  Kokkos::deep_copy(text_d, text);
  std::vector<std::uint64_t> counts_h(sigma + 1);
  Kokkos::deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(counts_h.data(), sigma + 1), w.data().counts);
  auto counts = w.data().counts;
  auto dense = w.data().dense_map;
  Kokkos::View<I*, memory> pos("pos", q), ks("ks", q), out("out", q);
  Kokkos::View<std::uint8_t*, memory> sym("sym", q), found("found", q);
  Kokkos::parallel_for("gen_queries", policy(0, q), KOKKOS_LAMBDA(const std::int64_t i) {
    pos(i) = static_cast<I>(mix(2 * i) % n);
    const std::uint8_t c = text_d(mix(2 * i + 1) % n);
    sym(i) = c;
    const std::uint64_t m = dense(c) - 1;
    ks(i) = static_cast<I>(1 + mix(3 * i + 2) % (counts(m + 1) - counts(m)));
  });
  text_d = {};
  space().fence();
  double s = median_seconds(runs, [&] { w.access(pos, found); });
  result(tag + "_device_access", double(q) / s / 1e9, "Gq/s");
  s = median_seconds(runs, [&] { w.rank(sym, pos, out); });
  result(tag + "_device_rank", double(q) / s / 1e9, "Gq/s");
  s = median_seconds(runs, [&] { w.select(sym, ks, out); });
  result(tag + "_device_select", double(q) / s / 1e9, "Gq/s");
  // The same from pinned host arrays, copies included.
  auto pos_h = Kokkos::create_mirror_view_and_copy(pinned(), pos);
  auto ks_h = Kokkos::create_mirror_view_and_copy(pinned(), ks);
  auto sym_h = Kokkos::create_mirror_view_and_copy(pinned(), sym);
  Kokkos::View<I*, pinned> out_h("out_h", q);
  Kokkos::View<std::uint8_t*, pinned> found_h("found_h", q);
  s = median_seconds(runs, [&] { w.access(pos_h.data(), q, found_h.data()); });
  result(tag + "_host_access", double(q) / s / 1e9, "Gq/s");
  s = median_seconds(runs, [&] { w.rank(sym_h.data(), pos_h.data(), q, out_h.data()); });
  result(tag + "_host_rank", double(q) / s / 1e9, "Gq/s");
  s = median_seconds(runs, [&] { w.select(sym_h.data(), ks_h.data(), q, out_h.data()); });
  result(tag + "_host_select", double(q) / s / 1e9, "Gq/s");
  // Rank and select batches sorted by symbol first (a structure built with that option).
  {
    strix::wavelet_options opt;
    opt.sort_by_symbol = true;
    w = W();
    w = W::from_host(space(), text.data(), n, opt);
    s = median_seconds(runs, [&] { w.rank(sym, pos, out); });
    result(tag + "_device_rank_sorted", double(q) / s / 1e9, "Gq/s");
    s = median_seconds(runs, [&] { w.select(sym, ks, out); });
    result(tag + "_device_select_sorted", double(q) / s / 1e9, "Gq/s");
  }
}

// Streamed construction (the text through the device in chunks of `chunk` symbols): the
// median of `runs` builds (no warm-up: each build is long), and the last build's phases.
template <class W>
void bench_streamed(const Kokkos::View<std::uint8_t*, pinned>& text, std::uint64_t chunk, int runs, const std::string& tag) {
  strix::wavelet_options opt;
  opt.build_chunk = chunk;
  std::vector<double> t;
  strix::run_stats st;
  for (int r = 0; r < std::max(runs, 1); ++r) {
    space().fence();
    st = strix::run_stats();
    const auto t0 = std::chrono::steady_clock::now();
    W w = W::from_host(space(), text.data(), text.extent(0), opt, &st);
    space().fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  result(tag + "_streamed_build_ms", t[t.size() / 2] * 1e3, "ms");
  for (const auto& p : st.phases) result(tag + "_streamed_phase_" + p.first + "_ms", p.second * 1e3, "ms");
}

Kokkos::View<std::uint8_t*, pinned> random_text(std::uint64_t n, unsigned sigma) {
  Kokkos::View<std::uint8_t*, memory> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text"), n);
  Kokkos::parallel_for("gen_text", policy(0, n), KOKKOS_LAMBDA(const std::int64_t i) { d(i) = static_cast<std::uint8_t>(mix(i) % sigma); });
  Kokkos::View<std::uint8_t*, pinned> h(Kokkos::view_alloc(Kokkos::WithoutInitializing, "text_h"), n);
  Kokkos::deep_copy(h, d);
  return h;
}

Kokkos::View<std::uint8_t*, pinned> file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Kokkos::View<std::uint8_t*, pinned> h(Kokkos::view_alloc(Kokkos::WithoutInitializing, "file"), bytes.size());
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(h.data()));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::uint64_t bits = 1000000000ull, big_bits = 32000000000ull, queries = 100000000ull, text_bytes = 2000000000ull;
  std::uint64_t stream_chunk = 1ull << 28;  // symbols per chunk of the streamed build (--what stream)
  int runs = 5;
  std::string what = "bv,bvbig,wt,wm,files";
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--bits") bits = std::stoull(next());
    else if (a == "--big-bits") big_bits = std::stoull(next());
    else if (a == "--queries") queries = std::stoull(next());
    else if (a == "--text-bytes") text_bytes = std::stoull(next());
    else if (a == "--runs") runs = std::stoi(next());
    else if (a == "--stream-chunk") stream_chunk = std::stoull(next());
    else if (a == "--what") what = next();
    else if (a == "--file") files.push_back(next());
  }
  auto want = [&](const char* w) { return ("," + what + ",").find("," + std::string(w) + ",") != std::string::npos; };
  std::printf("# device: %s, runs %d (median after a warm-up)\n", space::name(), runs);
  try {
    if (want("bv")) bench_bit_vector<std::uint32_t>(bits, queries, runs, "1e9");
    if (want("bvbig")) bench_bit_vector<std::uint64_t>(big_bits, queries, runs, "big");
    for (unsigned sigma : {4u, 256u}) {
      if (!want("wt") && !want("wm") && !want("stream")) break;
      auto text = random_text(text_bytes, sigma);
      if (want("wt")) bench_wavelet<strix::wavelet_tree<space, std::uint8_t, std::uint32_t>>(text, queries, runs, "wt_s" + std::to_string(sigma));
      if (want("stream")) bench_streamed<strix::wavelet_tree<space, std::uint8_t, std::uint32_t>>(text, stream_chunk, std::min(runs, 3), "wt_s" + std::to_string(sigma));
      if (want("wm")) bench_wavelet<strix::wavelet_matrix<space, std::uint8_t, std::uint32_t>>(text, queries, runs, "wm_s" + std::to_string(sigma));
    }
    if (want("files"))
      for (const auto& f : files) {
        auto text = file_text(f);
        std::string name = f.substr(f.find_last_of('/') + 1);
        for (auto& c : name) if (c == '.' || c == '-') c = '_';
        bench_wavelet<strix::wavelet_tree<space, std::uint8_t, std::uint32_t>>(text, queries / 10, runs, "wt_" + name);
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strix_bench_succinct: %s\n", e.what());
    return 1;
  }
  return 0;
}
