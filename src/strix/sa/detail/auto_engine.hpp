// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::automatic: picks a construction per backend, thread count, text length and
// (on GPUs) how repetitive the text is, when the text is known (choose_algorithm), makes it on first use and keeps it, with its
// working memory, for later texts that pick the same. The pick is noted in run_stats
// ("algorithm"), which the tool's --stats shows.
#include <cstdint>
#include <memory>
#include <string>

#include <strix/core/device_memory.hpp>
#include <strix/core/device_view.hpp>
#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/detail/memory_rule.hpp>
#include <strix/sa/detail/repetition_probe.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

// The rule, from the measurements in bench/RESULTS.md §9 (issue 11; H200 and its 16-core
// host, and a 2-core machine) and §16 (issue 24):
// - GPUs: prefix doubling, fastest on natural text, DNA and source archives; skew (DC3) on
//   highly repetitive texts of 4 MiB and more, where it ran 2.3-3x faster (it does not
//   slow down as the common prefixes grow). The text is probed (repeated_sample_fraction)
//   only when `text` is given and the text is long enough for it to matter.
// - host backends, from 1 MiB: sais at every thread count (issue 51's tables: the H200 host,
//   2026-11-26, and the H100 host, RESULTS §38: 1.05-1.34x faster than libdivsufsort on one
//   thread, 1.1-1.7x faster than prefix doubling on 4 and 8; at 16 threads within 3 % of it on
//   English, 12 % behind on DNA and 1.62x ahead on a source tar — in about 5n bytes where
//   prefix doubling takes 39n). Below 1 MiB, libdivsufsort (sais in builds without it).
constexpr std::uint64_t auto_probe_min_length = std::uint64_t(1) << 22;
constexpr std::uint64_t auto_host_parallel_min_length = std::uint64_t(1) << 20;
constexpr double auto_repetitive_fraction = 0.5;

template <class ExecSpace, class I>
sa_options choose_algorithm(const ExecSpace& space, const sa_options& base, std::uint64_t n,
                            const text_view<ExecSpace>* text) {
  sa_options o = base;
  if constexpr (is_host_space_v<ExecSpace>) {
    (void)space;
    if (n >= auto_host_parallel_min_length) o.algorithm = sa_algorithm::sais;
    else if (sa_algorithm_available<ExecSpace>(sa_algorithm::divsufsort)) o.algorithm = sa_algorithm::divsufsort;
    else o.algorithm = sa_algorithm::sais;
  } else {
    o.algorithm = sa_algorithm::prefix_doubling;
    if (text && n >= auto_probe_min_length && repeated_sample_fraction(space, *text) >= auto_repetitive_fraction)
      o.algorithm = sa_algorithm::skew;
  }
  return o;
}

template <class ExecSpace, class I>
class auto_engine final : public sa_engine<ExecSpace, I> {
 public:
  auto_engine(const ExecSpace& space, const sa_options& options) : space_(space), options_(options) {}

  std::uint64_t capacity() const override { return engine_ ? engine_->capacity() : 0; }
  std::size_t bytes() const override { return engine_ ? engine_->bytes() : 0; }
  // Without the text, reserves for the pick by length; a GPU build that probes the text and
  // picks another algorithm allocates that one's memory then.
  void reserve(std::uint64_t n) override { pick(n, nullptr).reserve(n); }
  void release() override {
    if (engine_) engine_->release();
  }
  void build(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& sa, run_stats* stats) override {
    auto& engine = pick(text.extent(0), &text);
    engine.build(text, sa, stats);
    if (stats) stats->set_note("algorithm", algorithm_name(chosen_));
  }
  bool build_bwt(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& workspace,
                 const device_view<std::uint8_t, ExecSpace>& out, std::uint64_t& primary, run_stats* stats) override {
    auto& engine = pick(text.extent(0), &text);
    if (!engine.build_bwt(text, workspace, out, primary, stats)) return false;
    if (stats) stats->set_note("algorithm", algorithm_name(chosen_));
    return true;
  }
  // A question only: the engine held (and its memory) stays whatever the length would pick.
  bool makes_bwt(std::uint64_t n) override {
    const sa_options want = wanted(n, nullptr);
    if (engine_ && algorithm_name(want) == algorithm_name(chosen_)) return engine_->makes_bwt(n);
    return make_sa_engine<ExecSpace, I>(space_, want)->makes_bwt(n);  // (an engine allocates nothing until reserved)
  }

 private:
  // The pick for speed, fitted to the free device memory (before a build, the suffix array is
  // counted too: the caller may not have allocated it yet). A difference cover the memory rule
  // took in place of this same pick, held for this length already, stays: the suffix array
  // counted then may have been the caller's, and switching back would allocate inside the build.
  // (Returns the pick for speed too.)
  sa_options wanted(std::uint64_t n, const text_view<ExecSpace>* text, sa_options* fastest_out = nullptr) const {
    const sa_options fastest = choose_algorithm<ExecSpace, I>(space_, options_, n, text);
    if (fastest_out) *fastest_out = fastest;
    const std::uint64_t free = device_memory_in_use<ExecSpace>::free_bytes();
    if (free == 0) return fastest;
    if (engine_ && engine_->capacity() >= n && replaced_ == algorithm_name(fastest)) return chosen_;
    return fit_to_memory(fastest, n, sizeof(I), free + (engine_ ? engine_->bytes() : 0), text == nullptr);
  }

  sa_engine<ExecSpace, I>& pick(std::uint64_t n, const text_view<ExecSpace>* text) {
    sa_options fastest;
    const sa_options want = wanted(n, text, &fastest);
    if (!engine_ || algorithm_name(want) != algorithm_name(chosen_)) {
      engine_.reset();  // free the old working memory first
      engine_ = make_sa_engine<ExecSpace, I>(space_, want);
      chosen_ = want;
      replaced_ = algorithm_name(fastest) != algorithm_name(want) ? algorithm_name(fastest) : std::string();
    }
    return *engine_;
  }

  ExecSpace space_;
  sa_options options_, chosen_;
  std::string replaced_;  // the pick for speed that chosen_ replaced for memory, if it did
  std::unique_ptr<sa_engine<ExecSpace, I>> engine_;
};

}  // namespace strix::detail
