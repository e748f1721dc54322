// SPDX-License-Identifier: BSD-3-Clause
// The Kokkos half of wavelet_job: one typed_wavelet_job per (execution space, symbol type,
// index width, shape), picked once per job behind wavelet_job::typed's few virtuals (so that
// the dispatch is instantiated once, not once per method).
#include "wavelet_job.hpp"

#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet.hpp>

#include "../session_dispatch.hpp"

namespace strix::cli {

struct wavelet_job::typed {
  virtual ~typed() = default;
  virtual void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) = 0;
  virtual void save(const byte_writer& write) = 0;
  virtual void load(const wavelet_file_info& info, const byte_reader& read) = 0;
  virtual std::vector<std::uint64_t> query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                           const std::vector<std::uint64_t>& args) = 0;
  virtual std::uint64_t size() const = 0;
  virtual std::uint64_t alphabet_size() const = 0;
  virtual int levels() const = 0;
  virtual std::size_t bytes() const = 0;
};

namespace {

template <class Space, class S, class I, wavelet_shape Shape>
class typed_wavelet_job final : public wavelet_job::typed {
  using W = wavelet<Space, S, I, Shape>;

 public:
  explicit typed_wavelet_job(space_session<Space>& s) : s_(s) {}

  void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) override {
    if (chunk > 0 && chunk < n) {
      const auto t0 = s_.begin_stage(stage_name());
      wavelet_options options;
      options.build_chunk = chunk;
      w_ = W::from_host(s_.space(), reinterpret_cast<const S*>(text.data), n, options, &s_.report().library);
      s_.end_stage("build", t0);
      s_.note_peak(w_.bytes());
      return;
    }
    auto t0 = s_.begin_stage("copy to device");
    auto d = s_.template to_device<S>(text, n, "strix::wavelet::text");
    s_.end_stage("copy_to_device", t0);
    t0 = s_.begin_stage(stage_name());
    w_ = W(s_.space(), d, {}, &s_.report().library);
    s_.end_stage("build", t0);
    s_.note_peak(w_.bytes() + n * sizeof(S));
  }

  void save(const byte_writer& write) override {
    const auto t0 = s_.begin_stage("write output");
    save_wavelet(w_, write);
    s_.end_stage("save", t0);
  }

  void load(const wavelet_file_info& info, const byte_reader& read) override {
    const auto t0 = s_.begin_stage("load");
    w_ = load_wavelet<W>(s_.space(), info, read);
    s_.end_stage("load", t0);
    s_.note_peak(w_.bytes());
  }

  std::vector<std::uint64_t> query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                   const std::vector<std::uint64_t>& args) override {
    const std::size_t m = args.size();
    // Staging memory (pinned for GPUs); one spare byte each, so that no query is no problem.
    const host_buffer positions_h = s_.allocate_host(m * sizeof(I) + 1), out_h = s_.allocate_host(m * sizeof(I) + 1);
    const host_buffer symbols_h = s_.allocate_host(m * sizeof(S) + 1), found_h = s_.allocate_host(m * sizeof(S) + 1);
    I* positions = reinterpret_cast<I*>(positions_h.data);
    I* out = reinterpret_cast<I*>(out_h.data);
    S* c = reinterpret_cast<S*>(symbols_h.data);
    S* found = reinterpret_cast<S*>(found_h.data);
    for (std::size_t q = 0; q < m; ++q) positions[q] = static_cast<I>(args[q]);
    if (op != wavelet_query::access)
      for (std::size_t q = 0; q < m; ++q) c[q] = static_cast<S>(symbols[q]);
    const auto t0 = s_.begin_stage(op == wavelet_query::access ? "access" : op == wavelet_query::rank ? "rank" : "select");
    switch (op) {
      case wavelet_query::access: w_.access(positions, m, found); break;
      case wavelet_query::rank: w_.rank(c, positions, m, out); break;
      case wavelet_query::select: w_.select(c, positions, m, out); break;
    }
    s_.end_stage("queries", t0);
    s_.report().library.set_counter("queries", m);
    std::vector<std::uint64_t> answers(m);
    for (std::size_t q = 0; q < m; ++q) answers[q] = op == wavelet_query::access ? std::uint64_t(found[q]) : std::uint64_t(out[q]);
    return answers;
  }

  std::uint64_t size() const override { return w_.size(); }
  std::uint64_t alphabet_size() const override { return w_.alphabet_size(); }
  int levels() const override { return w_.levels(); }
  std::size_t bytes() const override { return w_.bytes(); }

 private:
  static const char* stage_name() { return Shape == wavelet_shape::matrix ? "wavelet matrix" : "wavelet tree"; }

  space_session<Space>& s_;
  W w_;
};

// The job for the session's space and width, and this symbol type and shape.
template <class Space, class I>
std::unique_ptr<wavelet_job::typed> make_typed(space_session<Space>& s, int symbol_bytes, wavelet_shape shape) {
  auto of = [&](auto symbol) -> std::unique_ptr<wavelet_job::typed> {
    using S = decltype(symbol);
    if (shape == wavelet_shape::matrix) return std::make_unique<typed_wavelet_job<Space, S, I, wavelet_shape::matrix>>(s);
    return std::make_unique<typed_wavelet_job<Space, S, I, wavelet_shape::tree>>(s);
  };
  if (symbol_bytes == 1) return of(std::uint8_t{});
  if (symbol_bytes == 2) return of(std::uint16_t{});
  return of(std::uint32_t{});
}

}  // namespace

wavelet_job::wavelet_job(session& s, int symbol_bytes, wavelet_shape shape) {
  STRIX_REQUIRE(symbol_bytes == 1 || symbol_bytes == 2 || symbol_bytes == 4);
  typed_ = on_space_and_width(s, [&](auto& typed_session, auto width) {
    using Space = typename std::decay_t<decltype(typed_session)>::execution_space;
    return make_typed<Space, decltype(width)>(typed_session, symbol_bytes, shape);
  });
}
wavelet_job::~wavelet_job() = default;

void wavelet_job::build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) { typed_->build(text, n, chunk); }
void wavelet_job::save(const byte_writer& write) { typed_->save(write); }
void wavelet_job::load(const wavelet_file_info& info, const byte_reader& read) { typed_->load(info, read); }
std::vector<std::uint64_t> wavelet_job::query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                              const std::vector<std::uint64_t>& args) {
  return typed_->query(op, symbols, args);
}
std::uint64_t wavelet_job::size() const { return typed_->size(); }
std::uint64_t wavelet_job::alphabet_size() const { return typed_->alphabet_size(); }
int wavelet_job::levels() const { return typed_->levels(); }
std::size_t wavelet_job::bytes() const { return typed_->bytes(); }

}  // namespace strix::cli
