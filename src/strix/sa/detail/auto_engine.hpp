#pragma once
// sa_algorithm::automatic: picks a construction per backend, index width and text length
// when the text is known (choose_algorithm), makes it on first use and keeps it, with its
// working memory, for later texts that pick the same. The pick is noted in run_stats
// ("algorithm"), which the tool's --stats shows.
#include <cstdint>
#include <memory>
#include <string>

#include <strix/primitives/views.hpp>
#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

// The rule, from the measurements in bench/RESULTS.md (issue 11):
// - host backends: libdivsufsort (when built in) — single-threaded induced sorting beat every
//   parallel strix construction on the 2-core machine and on the 16-core device host, in
//   time and in memory (5n bytes against 20-40n);
// - GPUs: prefix doubling.
template <class ExecSpace, class I>
sa_options choose_algorithm(const sa_options& base, std::uint64_t n) {
  (void)n;
  sa_options o = base;
  o.algorithm = sa_algorithm_available<ExecSpace>(sa_algorithm::divsufsort) ? sa_algorithm::divsufsort
                                                                           : sa_algorithm::prefix_doubling;
  return o;
}

template <class ExecSpace, class I>
class auto_engine final : public sa_engine<ExecSpace, I> {
 public:
  auto_engine(const ExecSpace& space, const sa_options& options) : space_(space), options_(options) {}

  std::uint64_t capacity() const override { return engine_ ? engine_->capacity() : 0; }
  std::size_t bytes() const override { return engine_ ? engine_->bytes() : 0; }
  void reserve(std::uint64_t n) override { pick(n).reserve(n); }
  void release() override {
    if (engine_) engine_->release();
  }
  void build(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& sa, run_stats* stats) override {
    auto& engine = pick(text.extent(0));
    engine.build(text, sa, stats);
    if (stats) stats->set_note("algorithm", algorithm_name(chosen_));
  }

 private:
  sa_engine<ExecSpace, I>& pick(std::uint64_t n) {
    const sa_options want = choose_algorithm<ExecSpace, I>(options_, n);
    if (!engine_ || algorithm_name(want) != algorithm_name(chosen_)) {
      engine_.reset();  // free the old working memory first
      engine_ = make_sa_engine<ExecSpace, I>(space_, want);
      chosen_ = want;
    }
    return *engine_;
  }

  ExecSpace space_;
  sa_options options_, chosen_;
  std::unique_ptr<sa_engine<ExecSpace, I>> engine_;
};

}  // namespace strix::detail
