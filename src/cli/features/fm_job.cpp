// SPDX-License-Identifier: BSD-3-Clause
// The Kokkos half of fm_job: one typed_fm_job per (execution space, index width), picked
// once through on_space_and_width.
#include "fm_job.hpp"

#include <algorithm>

#include <strix/approximate/approximate_search.hpp>
#include <strix/approximate/edit_alignment.hpp>
#include <strix/core/copy.hpp>
#include <strix/fm_index/fm_index_file.hpp>
#include <strix/index/text_index.hpp>
#include <strix/sa/algorithm.hpp>

#include "../session_dispatch.hpp"

namespace strix::cli {

fm_file_facts read_fm_file_facts(const std::string& path) {
  io::container_reader file(path, fm_index_file_kind, fm_index_file_version);
  fm_file_facts facts;
  facts.width = 8 * fm_index_file_width(file);
  facts.folded = file.vector<std::uint64_t>("meta")[detail::meta_flags] & 1;
  return facts;
}

struct fm_job::typed {
  virtual ~typed() = default;
  virtual void build(const host_buffer& text, std::uint64_t n, const fm_build_options& options) = 0;
  virtual void save(const fm_job::sink& out, const reference_sequences* sequences, bool folded) = 0;
  virtual void load(const std::string& path, reference_sequences& sequences, bool reverse) = 0;
  virtual std::uint64_t size() const = 0;
  virtual std::size_t bytes() const = 0;
  virtual std::string layout() const = 0;
  virtual fm_answers count(const pattern_batch& patterns) = 0;
  virtual fm_answers locate(const pattern_batch& patterns, std::uint64_t max_occ) = 0;
  virtual std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length) = 0;
  virtual fm_job::alignments align(const pattern_batch& reads, const std::vector<std::uint64_t>& starts,
                                   const std::vector<std::uint64_t>& lengths, int k) = 0;
  virtual fm_answers search(const pattern_batch& patterns, const approximate::search_scheme& scheme, bool edit) = 0;
};

namespace {

template <class Space, class I>
class typed_fm_job final : public fm_job::typed {
  using mem = typename Space::memory_space;

 public:
  explicit typed_fm_job(space_session<Space>& s) : s_(s) {}

  void build(const host_buffer& text, std::uint64_t n, const fm_build_options& options) override {
    fm_ = build_one(text.data, n, options, false);
    if (options.approximate) {
      std::vector<std::uint8_t> reversed(text.data, text.data + n);
      std::reverse(reversed.begin(), reversed.end());
      reverse_ = build_one(reversed.data(), n, options, true);
    }
  }

  void save(const fm_job::sink& out, const reference_sequences* sequences, bool folded) override {
    const auto t0 = s_.begin_stage("save");
    save_fm_index(*fm_, sequences, out, folded ? 1u : 0u, reverse_.get());
    s_.end_stage("save", t0);
  }

  void load(const std::string& path, reference_sequences& sequences, bool reverse) override {
    const auto t0 = s_.begin_stage("load");
    io::container_reader file(path, fm_index_file_kind, fm_index_file_version);
    fm_ = std::make_unique<fm_index<Space, I>>(load_fm_index<Space, I>(s_.space(), file, &sequences));
    if (reverse) reverse_ = std::make_unique<fm_index<Space, I>>(load_fm_index_reverse<Space, I>(s_.space(), file));
    s_.end_stage("load", t0);
    s_.note_peak(fm_->bytes() + (reverse_ ? reverse_->bytes() : 0));
  }

  std::uint64_t size() const override { return fm_->size(); }
  std::size_t bytes() const override { return fm_->bytes() + (reverse_ ? reverse_->bytes() : 0); }
  std::string layout() const override {
    return fm_layout_name(fm_->layout());
  }

  fm_answers count(const pattern_batch& patterns) override {
    const auto t0 = s_.begin_stage("count");
    const auto counts = fm_->count(patterns.bytes.data(), patterns.offsets.data(), patterns.size());
    s_.end_stage("count", t0);
    fm_answers a;
    a.counts.assign(counts.begin(), counts.end());
    return a;
  }

  fm_answers locate(const pattern_batch& patterns, std::uint64_t max_occ) override {
    const auto t0 = s_.begin_stage("locate");
    const auto found = fm_->locate(patterns.bytes.data(), patterns.offsets.data(), patterns.size(), max_occ);
    s_.end_stage("locate", t0);
    fm_answers a;
    a.counts.assign(found.counts.begin(), found.counts.end());
    a.starts = found.starts;
    a.positions.assign(found.positions.begin(), found.positions.end());
    return a;
  }

  std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length) override {
    const auto t0 = s_.begin_stage("extract");
    auto text = fm_->extract(start, length);
    s_.end_stage("extract", t0);
    return text;
  }

  fm_job::alignments align(const pattern_batch& reads, const std::vector<std::uint64_t>& starts,
                           const std::vector<std::uint64_t>& lengths, int k) override {
    const auto t0 = s_.begin_stage("alignments");
    const std::size_t count = starts.size();
    fm_job::alignments out;
    out.ops.resize(reads.bytes.size() + count * std::size_t(k));
    out.op_counts.resize(count);
    out.distances.resize(count);
    // In chunks of about 2^24 read symbols: the alignments' scratch is (m + 1)(2k + 1) bytes a hit.
    for (std::size_t first = 0; first < count;) {
      std::size_t last = first + 1;
      while (last < count && reads.offsets[last + 1] - reads.offsets[first] < (std::uint64_t(1) << 24)) ++last;
      const std::size_t c = last - first;
      const std::uint64_t r0 = reads.offsets[first];
      std::vector<std::uint64_t> read_at(c + 1), window_at(c + 1, 0);
      for (std::size_t a = 0; a <= c; ++a) read_at[a] = reads.offsets[first + a] - r0;
      for (std::size_t a = 0; a < c; ++a) window_at[a + 1] = window_at[a] + lengths[first + a];
      const auto& sp = s_.space();
      const auto starts_d = strix::to_device(sp, starts.data() + first, c, "strix::align_starts");
      const auto lengths_d = strix::to_device(sp, lengths.data() + first, c, "strix::align_lengths");
      const auto window_at_d = strix::to_device(sp, window_at.data(), c + 1, "strix::align_window_at");
      const auto read_at_d = strix::to_device(sp, read_at.data(), c + 1, "strix::align_read_at");
      const auto reads_d = strix::to_device(sp, reads.bytes.data() + r0, read_at[c], "strix::align_reads");
      auto windows_d = detail::allocate<std::uint8_t, mem>("strix::align_windows", window_at[c]);
      fm_->extract(starts_d, lengths_d, Kokkos::View<const std::uint64_t*, mem>(window_at_d.data(), c), windows_d);
      auto ops_d = detail::allocate<std::uint8_t, mem>("strix::align_ops", read_at[c] + c * std::size_t(k));
      auto counts_d = detail::allocate<std::uint32_t, mem>("strix::align_counts", c);
      auto distances_d = detail::allocate<std::uint8_t, mem>("strix::align_distances", c);
      approximate::edit_alignments(s_.space(), reads_d, read_at_d, windows_d, window_at_d, k, ops_d, counts_d, distances_d);
      // Chunk-relative operation offsets (read_at[a] + a k) line up with the whole batch's
      // (reads.offsets[first + a] + (first + a) k) shifted by r0 + first k.
      strix::copy(s_.space(),
                  Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                      out.ops.data() + r0 + first * std::size_t(k), ops_d.extent(0)),
                  ops_d);
      strix::copy(s_.space(),
                  Kokkos::View<std::uint32_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.op_counts.data() + first, c),
                  counts_d);
      strix::copy(s_.space(),
                  Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.distances.data() + first, c),
                  distances_d);
      s_.space().fence();
      first = last;
    }
    s_.end_stage("alignments", t0);
    return out;
  }

  fm_answers search(const pattern_batch& patterns, const approximate::search_scheme& scheme, bool edit) override {
    STRIX_USER_REQUIRE(reverse_ != nullptr, "search: the index was loaded without its reverse part");
    const auto t0 = s_.begin_stage("search");
    const auto found =
        strix::search_approximate(*fm_, *reverse_, patterns.bytes.data(), patterns.offsets.data(), patterns.size(), scheme,
                                  edit ? approximate::metric::edit : approximate::metric::hamming);
    s_.end_stage("search", t0);
    fm_answers a;
    a.starts = found.starts;
    a.positions.assign(found.positions.begin(), found.positions.end());
    a.distances = found.distances;
    return a;
  }

 private:
  // The index of text[0, n) (host memory); the reversed text's stages are named "reverse ..."
  // on the progress line and "reverse_..." in --stats.
  std::unique_ptr<fm_index<Space, I>> build_one(const std::uint8_t* text, std::uint64_t n,
                                                const fm_build_options& options, bool reversed) {
    const std::string shown = reversed ? "reverse " : "", key = reversed ? "reverse_" : "";
    const auto begin = [&](const char* name) { return s_.begin_stage((shown + name).c_str()); };
    const auto end = [&](const char* name, session::clock::time_point t0) { s_.end_stage(key + name, t0); };
    auto t0 = session::clock::now();
    auto text_d = detail::allocate<std::uint8_t, mem>("strix::text", n);
    s_.add_allocate_time(t0);
    t0 = begin("copy to device");
    strix::copy(s_.space(), text_d, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(text, n));
    end("copy_to_device", t0);
    text_index<Space, I> index(s_.space(), text_d, parse_sa_options(options.algorithm));
    auto& library = s_.report().library;
    t0 = begin("suffix array");
    index.suffix_array(&library);
    end("suffix_array", t0);
    index.release(index_part::sa_workspace);
    t0 = begin("bwt");
    index.bwt(&library);
    end("bwt", t0);
    fm_options fm;
    fm.sample_rate = options.sample_rate;
    fm.extract = options.extract;
    fm.separator = options.separator;
    t0 = begin("fm index");
    // The index keeps what it built: copy it out of the text_index, which then frees the rest.
    auto built = std::make_unique<fm_index<Space, I>>(index.fm_index(fm, &library));
    end("fm_index", t0);
    s_.note_peak(index.peak_bytes() + (fm_ ? fm_->bytes() : 0));
    return built;
  }

  space_session<Space>& s_;
  std::unique_ptr<fm_index<Space, I>> fm_, reverse_;
};

}  // namespace

fm_job::fm_job(session& s) {
  typed_ = on_space_and_width(s, [&](auto& typed_session, auto width) -> std::unique_ptr<typed> {
    using Space = typename std::decay_t<decltype(typed_session)>::execution_space;
    return std::make_unique<typed_fm_job<Space, decltype(width)>>(typed_session);
  });
}
fm_job::~fm_job() = default;

void fm_job::build(const host_buffer& text, std::uint64_t n, const fm_build_options& options) {
  typed_->build(text, n, options);
}
void fm_job::save(const sink& out, const reference_sequences* sequences, bool folded) {
  typed_->save(out, sequences, folded);
}
void fm_job::load(const std::string& path, reference_sequences& sequences, bool reverse) {
  typed_->load(path, sequences, reverse);
}
std::uint64_t fm_job::size() const { return typed_->size(); }
std::size_t fm_job::bytes() const { return typed_->bytes(); }
std::string fm_job::layout() const { return typed_->layout(); }
fm_answers fm_job::count(const pattern_batch& patterns) { return typed_->count(patterns); }
fm_answers fm_job::locate(const pattern_batch& patterns, std::uint64_t max_occ) {
  return typed_->locate(patterns, max_occ);
}
std::vector<std::uint8_t> fm_job::extract(std::uint64_t start, std::uint64_t length) {
  return typed_->extract(start, length);
}
fm_job::alignments fm_job::align(const pattern_batch& reads, const std::vector<std::uint64_t>& starts,
                                 const std::vector<std::uint64_t>& lengths, int k) {
  return typed_->align(reads, starts, lengths, k);
}
fm_answers fm_job::search(const pattern_batch& patterns, const approximate::search_scheme& scheme, bool edit) {
  return typed_->search(patterns, scheme, edit);
}

}  // namespace strix::cli
