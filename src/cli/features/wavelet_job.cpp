// SPDX-License-Identifier: BSD-3-Clause
// The Kokkos half of wavelet_job: one typed_wavelet_job per (execution space, symbol type,
// index width, shape), reached through on_space_and_width and the job's own symbol and shape.
#include "wavelet_job.hpp"

#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet.hpp>

#include "../session_dispatch.hpp"

namespace strix::cli {
namespace {

template <class Space, class S, class I, wavelet_shape Shape>
class typed_wavelet_job {
  using W = wavelet<Space, S, I, Shape>;
  using host_space = typename space_session<Space>::host_space;

 public:
  typed_wavelet_job(space_session<Space>& s, W& w) : s_(s), w_(w) {}

  void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) {
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

  void save(const byte_writer& write) {
    const auto t0 = s_.begin_stage("write output");
    save_wavelet(w_, write);
    s_.end_stage("save", t0);
  }

  void load(const wavelet_file_info& info, const byte_reader& read) {
    const auto t0 = s_.begin_stage("load");
    w_ = load_wavelet<W>(s_.space(), info, read);
    s_.end_stage("load", t0);
    s_.note_peak(w_.bytes());
  }

  std::vector<std::uint64_t> query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                   const std::vector<std::uint64_t>& args) {
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

 private:
  static const char* stage_name() { return Shape == wavelet_shape::matrix ? "wavelet matrix" : "wavelet tree"; }

  space_session<Space>& s_;
  W& w_;
};

}  // namespace

wavelet_job::wavelet_job(session& s, int symbol_bytes, wavelet_shape shape)
    : session_(s), symbol_bytes_(symbol_bytes), shape_(shape) {
  STRIX_REQUIRE(symbol_bytes == 1 || symbol_bytes == 2 || symbol_bytes == 4);
}

template <class F>
decltype(auto) wavelet_job::with_wavelet(F&& f) {
  return on_space_and_width(session_, [&](auto& s, auto width) -> decltype(auto) {
    using Space = typename std::decay_t<decltype(s)>::execution_space;
    using I = decltype(width);
    auto with_type = [&](auto symbol, auto shape) -> decltype(auto) {
      using S = decltype(symbol);
      using W = wavelet<Space, S, I, decltype(shape)::value>;
      if (!wavelet_) wavelet_ = std::make_shared<W>();
      W& w = *std::static_pointer_cast<W>(wavelet_);
      typed_wavelet_job<Space, S, I, decltype(shape)::value> job(s, w);
      auto done = [&] {
        size_ = w.size();
        sigma_ = w.alphabet_size();
        levels_ = w.levels();
        bytes_ = w.bytes();
      };
      if constexpr (std::is_void_v<decltype(f(job))>) {
        f(job);
        done();
      } else {
        auto result = f(job);
        done();
        return result;
      }
    };
    using tree = std::integral_constant<wavelet_shape, wavelet_shape::tree>;
    using matrix = std::integral_constant<wavelet_shape, wavelet_shape::matrix>;
    auto with_shape = [&](auto symbol) -> decltype(auto) {
      if (shape_ == wavelet_shape::matrix) return with_type(symbol, matrix{});
      return with_type(symbol, tree{});
    };
    if (symbol_bytes_ == 1) return with_shape(std::uint8_t{});
    if (symbol_bytes_ == 2) return with_shape(std::uint16_t{});
    return with_shape(std::uint32_t{});
  });
}

void wavelet_job::build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) {
  with_wavelet([&](auto& job) { job.build(text, n, chunk); });
}
void wavelet_job::save(const byte_writer& write) {
  with_wavelet([&](auto& job) { job.save(write); });
}
void wavelet_job::load(const wavelet_file_info& info, const byte_reader& read) {
  with_wavelet([&](auto& job) { job.load(info, read); });
}
std::vector<std::uint64_t> wavelet_job::query(wavelet_query op, const std::vector<std::uint64_t>& symbols,
                                              const std::vector<std::uint64_t>& args) {
  return with_wavelet([&](auto& job) { return job.query(op, symbols, args); });
}

}  // namespace strix::cli
