// SPDX-License-Identifier: BSD-3-Clause
// The Kokkos half of index_job: one typed_index_job per (execution space, index width),
// picked once per job through on_space_and_width, behind index_job::typed's few virtuals
// (so that the dispatch is instantiated once, not once per method).
#include "index_job.hpp"

#include <memory>
#include <vector>

#include <strix/bwt/bwt.hpp>
#include <strix/core/copy.hpp>
#include <strix/index/text_index.hpp>
#include <strix/repeats/repeats.hpp>
#include <strix/sa/generalized_suffix_array.hpp>

#include "../session_dispatch.hpp"

namespace strix::cli {

struct index_job::typed {
  virtual ~typed() = default;
  virtual void load_text(const host_buffer& text, std::uint64_t n) = 0;
  virtual void prepare_suffix_array() = 0;
  virtual void build_suffix_array() = 0;
  virtual void load_suffix_array(const host_buffer& sa) = 0;
  virtual std::string check_suffix_array(const host_buffer& sa) = 0;
  virtual host_buffer suffix_array() = 0;
  virtual host_buffer generalized_suffix_array() = 0;
  virtual std::string check_generalized_suffix_array(const host_buffer& sa) = 0;
  virtual host_buffer lcp() = 0;
  virtual host_buffer bwt(std::uint64_t& primary) = 0;
  virtual repeats_result repeats(bool all, bool raw_method) = 0;
};

namespace {

template <class Space, class I>
class typed_index_job final : public index_job::typed {
  using mem = typename Space::memory_space;
  using index = text_index<Space, I>;

 public:
  typed_index_job(space_session<Space>& s, const sa_options& algorithm) : s_(s), algorithm_(algorithm) {}

  void load_text(const host_buffer& text, std::uint64_t n) override {
    index_.reset();  // a new text: free the old index first
    auto t0 = session::clock::now();
    auto text_d = detail::allocate<std::uint8_t, mem>("strix::text", n);
    s_.add_allocate_time(t0);
    t0 = s_.begin_stage("copy to device");
    Kokkos::View<const std::uint8_t*, typename space_session<Space>::host_space, Kokkos::MemoryUnmanaged> src(text.data, n);
    strix::copy(s_.space(), text_d, src);
    s_.end_stage("copy_to_device", t0);
    index_ = std::make_unique<index>(s_.space(), text_d, algorithm_);
  }

  void prepare_suffix_array() override {
    const auto t0 = session::clock::now();
    index_->reserve_suffix_array();
    prepare_staging();
    s_.add_allocate_time(t0);
  }

  void build_suffix_array() override {
    prepare_suffix_array();
    const auto t0 = s_.begin_stage("suffix array");
    index_->suffix_array(&s_.report().library);
    s_.end_stage("suffix_array", t0);
    note_peak();
  }

  void load_suffix_array(const host_buffer& sa) override {
    const auto t0 = s_.begin_stage("check suffix array");
    index_->set_suffix_array(s_.template to_device<I>(sa, index_->size(), "strix::sa"), true);
    s_.end_stage("load_and_check_suffix_array", t0);
    note_peak();
  }

  std::string check_suffix_array(const host_buffer& sa) override {
    const auto t0 = s_.begin_stage("check");
    auto sa_d = s_.template to_device<I>(sa, index_->size(), "strix::sa");
    const auto verdict = strix::check_suffix_array(s_.space(), index_->text(), sa_d);
    s_.end_stage("check", t0);
    return verdict.ok ? std::string() : verdict.message;
  }

  host_buffer suffix_array() override {
    if (!index_->has(index_part::suffix_array)) build_suffix_array();
    return copy_out(index_->suffix_array());
  }

  host_buffer generalized_suffix_array() override {
    auto t0 = session::clock::now();
    prepare_staging();
    auto sa = detail::allocate<I, mem>("strix::gsa", index_->size());
    s_.add_allocate_time(t0);
    t0 = s_.begin_stage("generalized suffix array");
    run_stats stats = session::watched_stats();
    strix::generalized_suffix_array(s_.space(), index_->text(), sa, algorithm_, &stats);
    s_.end_stage("generalized_suffix_array", t0);
    s_.note_peak(stats.peak_bytes);  // the text and the result included
    s_.report().library.merge(stats);
    return copy_out(sa);
  }

  std::string check_generalized_suffix_array(const host_buffer& sa) override {
    const auto t0 = s_.begin_stage("check");
    auto sa_d = s_.template to_device<I>(sa, index_->size(), "strix::sa");
    const auto verdict = strix::check_generalized_suffix_array(s_.space(), index_->text(), sa_d);
    s_.end_stage("check", t0);
    return verdict.ok ? std::string() : verdict.message;
  }

  // The LCP replaces the suffix array (not needed after): n entries fewer at the peak.
  host_buffer lcp() override {
    ensure_suffix_array();
    const auto t0 = s_.begin_stage("lcp");
    auto lcp = index_->lcp_replacing_suffix_array(&s_.report().library);
    s_.end_stage("lcp", t0);
    note_peak();
    return copy_out(lcp);
  }

  host_buffer bwt(std::uint64_t& primary) override {
    // sais, divsufsort, prefix doubling and Larsson–Sadakane make the BWT as they sort, without
    // a suffix array (unless one was given); the others build one first. Their memory and the
    // staging for the copy out are allocated before the clock, as for the suffix array.
    auto t0 = session::clock::now();
    index_->reserve_bwt();
    prepare_staging();
    s_.add_allocate_time(t0);
    t0 = s_.begin_stage("bwt");
    if (!index_->bwt_without_suffix_array(&s_.report().library)) {
      ensure_suffix_array();
      t0 = s_.begin_stage("bwt");
    }
    auto bwt = index_->bwt(&s_.report().library);
    primary = index_->bwt_primary();
    s_.end_stage("bwt", t0);
    note_peak();
    return copy_out(bwt);
  }

  repeats_result repeats(bool all, bool raw_method) override {
    auto lcp = build_lcp();
    auto t0 = s_.begin_stage("inverse suffix array");
    auto rank = index_->inverse_suffix_array();
    index_->release(index_part::suffix_array);  // the queries need rank and LCP only
    s_.end_stage("rank", t0);
    note_peak();
    repeat_options options;
    options.method = raw_method ? repeat_method::raw : repeat_method::compact;
    repeats_result result;
    run_stats stats = session::watched_stats();
    t0 = s_.begin_stage("longest repeats");
    if (!all) {
      auto lr = detail::allocate<repeat<I>, mem>("strix::lr", index_->size());
      leftmost_longest_repeats(s_.space(), rank, lcp, lr, options, &stats);
      s_.end_stage("longest_repeats", t0);
      add_query_peak(stats);
      result.records = copy_out(lr);
      result.count = lr.extent(0);
    } else {
      auto found = all_longest_repeats(s_.space(), rank, lcp, options, &stats);
      s_.end_stage("longest_repeats", t0);
      add_query_peak(stats);
      t0 = s_.begin_stage("copy to host");
      result.offsets = s_.to_host(found.offsets);
      result.records = s_.to_host(found.records);
      s_.end_stage("copy_to_host", t0);
      result.count = found.records.extent(0);
    }
    s_.report().library.merge(stats);
    note_peak();
    return result;
  }

 private:
  Kokkos::View<const I*, mem> build_lcp() {
    ensure_suffix_array();
    const auto t0 = s_.begin_stage("lcp");
    auto lcp = index_->lcp(&s_.report().library);
    s_.end_stage("lcp", t0);
    note_peak();
    return lcp;
  }

  // The staging memory the arrays go out through (host backends hand them out directly).
  void prepare_staging() {
    if (!space_session<Space>::arrays_on_host && !out_.data) out_ = s_.allocate_host(index_->size() * sizeof(I));
  }
  // An index array out through the staging buffer prepared for it.
  template <class View>
  host_buffer copy_out(const View& v) {
    const auto t0 = s_.begin_stage("copy to host");
    host_buffer h = s_.to_host(v, out_);
    s_.end_stage("copy_to_host", t0);
    return h;
  }
  // The suffix array the LCP, BWT and queries start from; its working memory is then freed.
  void ensure_suffix_array() {
    if (!index_->has(index_part::suffix_array)) build_suffix_array();
    index_->release(index_part::sa_workspace);
  }
  void note_peak() { s_.note_peak(index_->peak_bytes()); }
  // A query's peak counts its inputs (rank, LCP), its output and temporaries: add what
  // else the index holds meanwhile.
  void add_query_peak(run_stats& stats) {
    const std::size_t inputs = index_->bytes(index_part::inverse_suffix_array) + index_->bytes(index_part::lcp);
    stats.peak_bytes += index_->bytes() - inputs;
  }

  space_session<Space>& s_;
  sa_options algorithm_;
  std::unique_ptr<index> index_;
  host_buffer out_;  // staging for the arrays copied out
};

}  // namespace

index_job::index_job(session& s, const sa_options& algorithm) {
  typed_ = on_space_and_width(s, [&](auto& typed_session, auto width) -> std::unique_ptr<typed> {
    using Space = typename std::decay_t<decltype(typed_session)>::execution_space;
    return std::make_unique<typed_index_job<Space, decltype(width)>>(typed_session, algorithm);
  });
}
index_job::~index_job() = default;

void index_job::load_text(const host_buffer& text, std::uint64_t n) { typed_->load_text(text, n); }
void index_job::prepare_suffix_array() { typed_->prepare_suffix_array(); }
void index_job::build_suffix_array() { typed_->build_suffix_array(); }
void index_job::load_suffix_array(const host_buffer& sa) { typed_->load_suffix_array(sa); }
std::string index_job::check_suffix_array(const host_buffer& sa) { return typed_->check_suffix_array(sa); }
host_buffer index_job::suffix_array() { return typed_->suffix_array(); }
host_buffer index_job::generalized_suffix_array() { return typed_->generalized_suffix_array(); }
std::string index_job::check_generalized_suffix_array(const host_buffer& sa) {
  return typed_->check_generalized_suffix_array(sa);
}
host_buffer index_job::lcp() { return typed_->lcp(); }
host_buffer index_job::bwt(std::uint64_t& primary) { return typed_->bwt(primary); }
repeats_result index_job::repeats(bool all, bool raw_method) { return typed_->repeats(all, raw_method); }

host_buffer invert_bwt(session& s, const host_buffer& bwt, std::uint64_t n, std::uint64_t primary) {
  return on_space(s, [&](auto& typed) {
    using space_type = typename std::decay_t<decltype(typed)>::execution_space;
    using mem = typename space_type::memory_space;
    if constexpr (std::decay_t<decltype(typed)>::arrays_on_host) {
      // The host inverse walks pieces in lockstep with prefetches: faster than the portable
      // walks on a CPU. It takes the session's threads.
      const auto t0 = s.begin_stage("inverse bwt");
      auto text = std::make_shared<std::vector<std::uint8_t>>(inverse_bwt(bwt.data, n, primary, typed.space().concurrency()));
      s.end_stage("inverse_bwt", t0);
      // The host inverse's bound (strix/bwt/inverse_bwt.hpp): the BWT, an entry a row, the pieces.
      const std::uint64_t entry = n + 1 < (std::uint64_t(1) << 31) ? 4 : 8;
      if (n > 0) s.note_peak(n + (n + 1) * entry + n);
      host_buffer out;
      out.data = text->data();
      out.bytes = n;
      out.owner = std::shared_ptr<std::uint8_t>(text, text->data());
      return out;
    } else {
      // Everything the inverse takes is allocated before the clock, as for the suffix array.
      STRIX_REQUIRE(bwt.bytes >= n);
      auto t0 = session::clock::now();
      auto bwt_d = detail::allocate<std::uint8_t, mem>("strix::bwt", n);
      auto text_d = detail::allocate<std::uint8_t, mem>("strix::text", n);
      inverse_bwt_workspace<space_type> workspace;
      workspace.reserve(typed.space(), n);
      host_buffer staging = s.allocate_host(n);
      s.add_allocate_time(t0);
      t0 = s.begin_stage("copy to device");
      strix::copy(typed.space(), bwt_d,
                  Kokkos::View<const std::uint8_t*, typename std::decay_t<decltype(typed)>::host_space, Kokkos::MemoryUnmanaged>(
                      bwt.data, n));
      s.end_stage("copy_to_device", t0);
      run_stats stats = session::watched_stats();
      t0 = s.begin_stage("inverse bwt");
      inverse_bwt(typed.space(), bwt_d, primary, text_d, workspace, &stats);
      s.end_stage("inverse_bwt", t0);
      s.note_peak(stats.peak_bytes);
      s.report().library.merge(stats);
      bwt_d = {};
      t0 = s.begin_stage("copy to host");
      host_buffer out = typed.to_host(text_d, staging);
      s.end_stage("copy_to_host", t0);
      return out;
    }
  });
}

}  // namespace strix::cli
