// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::wavelet: a wavelet tree or wavelet matrix over 8-, 16- or 32-bit symbols, built
// in parallel on the device and held there (use the aliases in wavelet_tree.hpp and
// wavelet_matrix.hpp). I (std::uint32_t or std::uint64_t) is the type of positions and
// counts in queries and answers.
//
// Semantics, for a sequence T of n symbols: access(i) = T[i] for 0 <= i < n; rank(c, i) =
// occurrences of c in T[0, i) for 0 <= i <= n; select(c, k) = position of the k-th c
// (k >= 1), or n when c occurs fewer than k times (also when c does not occur). A batch
// with a position out of range or k = 0 throws invalid_input.
//
// Batches come from views in the execution space's memory (answers stay there) or from
// host arrays, which are cut into chunks copied in, answered and copied out on several
// streams at once (pinned host memory lets the copies overlap on GPUs). One object answers
// one batch at a time (copies share its status word, streams and chunk buffers).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/core/device_length.hpp>
#include <strix/error.hpp>
#include <strix/primitives/streams.hpp>
#include <strix/succinct/bit_vector.hpp>
#include <strix/succinct/detail/wavelet_layout.hpp>
#include <strix/succinct/wavelet_ref.hpp>

namespace strix {

struct wavelet_options {
  bit_vector_options bits;             // the levels' rank/select directory
  std::size_t host_chunk = 1u << 22;   // queries per chunk of a host-array batch
  int host_streams = 4;                // chunks in flight at once
  // from_host: 0 copies the whole text to the device; else the text is streamed through it
  // in chunks of this many symbols (once for the alphabet, once per level), for texts
  // larger than device memory. The structure is the same.
  std::uint64_t build_chunk = 0;
  // Rank and select batches from device views: sort the queries by symbol first (neighbouring
  // threads then walk the same nodes; costs a sort and 30 bytes per query of scratch).
  bool sort_by_symbol = false;
};

namespace detail {

template <class Symbol>
constexpr bool is_symbol_type_v = std::is_same<Symbol, std::uint8_t>::value ||
                                  std::is_same<Symbol, std::uint16_t>::value ||
                                  std::is_same<Symbol, std::uint32_t>::value;

// Everything a built wavelet tree or matrix holds, in the execution space's memory.
template <class ExecSpace, class Symbol>
struct wavelet_data {
  using memory_space = typename ExecSpace::memory_space;
  bit_vector_data<ExecSpace, std::uint64_t> bits;
  Kokkos::View<Symbol*, memory_space> alphabet;
  Kokkos::View<std::uint32_t*, memory_space> dense_map;
  Kokkos::View<std::uint64_t*, memory_space> counts, nodes;
  std::uint64_t offset[wavelet_max_levels + 1] = {};
  std::uint64_t ones_before[wavelet_max_levels] = {};
  std::uint64_t level_zeros[wavelet_max_levels] = {};
  std::uint64_t n = 0, sigma = 0;
  int levels = 0;

  template <class I, wavelet_shape Shape>
  wavelet_ref<Symbol, I, Shape> ref() const {
    wavelet_ref<Symbol, I, Shape> r;
    r.bits = bits.ref();
    r.alphabet = alphabet.data();
    r.dense_map = dense_map.data();
    r.counts = counts.data();
    r.nodes = nodes.data();
    for (int l = 0; l <= wavelet_max_levels; ++l) r.offset[l] = offset[l];
    for (int l = 0; l < wavelet_max_levels; ++l) {
      r.ones_before[l] = ones_before[l];
      r.level_zeros[l] = level_zeros[l];
    }
    r.n = n;
    r.sigma = sigma;
    r.levels = levels;
    return r;
  }
  std::size_t bytes() const {
    return bits.bytes() + alphabet.span() * sizeof(Symbol) + dense_map.span() * 4 + counts.span() * 8 +
           nodes.span() * 8;
  }
};

// The alphabet (sorted symbols) and their cumulative counts (sigma + 1), known on the host,
// onto the device, with the dense symbol map of 8- and 16-bit symbols: what a build found or a
// file held.
template <class ExecSpace, class Symbol>
void upload_alphabet(const ExecSpace& space, const std::vector<Symbol>& alphabet,
                     const std::vector<std::uint64_t>& counts, wavelet_data<ExecSpace, Symbol>& d) {
  using memory_space = typename ExecSpace::memory_space;
  using U = Kokkos::MemoryUnmanaged;
  d.sigma = alphabet.size();
  d.alphabet = allocate<Symbol, memory_space>("strix::wavelet::alphabet", alphabet.size());
  d.counts = allocate<std::uint64_t, memory_space>("strix::wavelet::counts", counts.size());
  strix::copy(space, d.alphabet, Kokkos::View<const Symbol*, Kokkos::HostSpace, U>(alphabet.data(), alphabet.size()));
  strix::copy(space, d.counts, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, U>(counts.data(), counts.size()));
  if constexpr (sizeof(Symbol) < 4) {
    std::vector<std::uint32_t> map(std::size_t(1) << (8 * sizeof(Symbol)), 0);
    for (std::size_t m = 0; m < alphabet.size(); ++m) map[alphabet[m]] = static_cast<std::uint32_t>(m + 1);
    d.dense_map = allocate<std::uint32_t, memory_space>("strix::wavelet::dense_map", map.size());
    strix::copy(space, d.dense_map, Kokkos::View<const std::uint32_t*, Kokkos::HostSpace, U>(map.data(), map.size()));
  }
  space.fence();
}

// Levels of a wavelet tree or matrix over sigma symbols: ceil(log2 sigma).
inline int wavelet_levels(std::uint64_t sigma) {
  int l = 0;
  while (l < 64 && (std::uint64_t(1) << l) < sigma) ++l;
  return l;
}

// Builds `d` as a tree or a matrix from n symbols (the alphabet, counts, levels and the tables
// the queries read). The builds take the shape at run time, so that each is compiled once
// per symbol type for both shapes (a shape's kernels differ in a uniform branch or two); the
// queries keep it in their type.
template <class ExecSpace, class Symbol>
void build_wavelet(const ExecSpace& space, const device_view<const Symbol, ExecSpace>& text,
                   wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape, const wavelet_options& options,
                   run_stats* stats);

// The same from a host text streamed through the device in options.build_chunk symbols.
template <class ExecSpace, class Symbol>
void build_wavelet_streamed(const ExecSpace& space, const Symbol* host_text, std::uint64_t n,
                            wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape, const wavelet_options& options,
                            run_stats* stats);

// Rank or select with the batch sorted by symbol (wavelet_options::sort_by_symbol).
template <class ExecSpace, class Symbol, class I, wavelet_shape Shape>
void wavelet_sorted_queries(const ExecSpace& space, const wavelet_ref<Symbol, I, Shape>& w, wavelet_query op,
                            const device_view<const Symbol, ExecSpace>& symbols,
                            const device_view<const I, ExecSpace>& args, const device_view<I, ExecSpace>& positions,
                            const device_view<std::uint64_t, ExecSpace>& status);

// Completes `d` given its alphabet, counts and level bits (d.bits.words, d.n, d.sigma, the
// offsets): the directory and the query tables. `check`: verify that the bits agree with
// the counts (a loaded file), else throw invalid_input.
template <class ExecSpace, class Symbol>
void finish_wavelet(const ExecSpace& space, wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape,
                    const wavelet_options& options, bool check);

// Answers a batch. access: positions -> symbols; rank: (symbol, position) -> count;
// select: (symbol, k) -> position. Arguments out of range add to status(0).
template <class ExecSpace, class Symbol, class I, wavelet_shape Shape>
void wavelet_queries(const ExecSpace& space, const wavelet_ref<Symbol, I, Shape>& w, wavelet_query op,
                     const device_view<const Symbol, ExecSpace>& symbols, const device_view<const I, ExecSpace>& args,
                     const device_view<I, ExecSpace>& positions, const device_view<Symbol, ExecSpace>& found,
                     const device_view<std::uint64_t, ExecSpace>& status);

}  // namespace detail

template <class ExecutionSpace, class Symbol, class I, wavelet_shape Shape>
class wavelet {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");
  static_assert(detail::is_symbol_type_v<Symbol>, "strix: symbols are std::uint8_t, std::uint16_t or std::uint32_t");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using symbol_type = Symbol;
  using index_type = I;
  static constexpr wavelet_shape shape = Shape;

  wavelet() = default;

  // Builds from a view of n symbols the execution space can access.
  template <class TextView>
  wavelet(const ExecutionSpace& space, const TextView& text, const wavelet_options& options = {},
          run_stats* stats = nullptr)
      : space_(space), options_(options) {
    detail::check_view<ExecutionSpace, TextView>();
    static_assert(std::is_same<typename TextView::non_const_value_type, Symbol>::value,
                  "strix: the text's element type must be the wavelet's symbol type");
    check_length(text.extent(0));
    detail::build_wavelet<ExecutionSpace, Symbol>(
        space_, detail::as_device_view<const Symbol, ExecutionSpace>(text, "text"), data_, Shape, options_, stats);
    status_ = detail::allocate<std::uint64_t, memory_space>("strix::wavelet::status", 1);
  }

  // Builds from n symbols in host memory: copied to the execution space first, or streamed
  // through it in chunks when options.build_chunk is set (and below n).
  static wavelet from_host(const ExecutionSpace& space, const Symbol* text, std::uint64_t n,
                           const wavelet_options& options = {}, run_stats* stats = nullptr) {
    check_length(n);
    if (options.build_chunk > 0 && options.build_chunk < n) {
      wavelet w;
      w.space_ = space;
      w.options_ = options;
      detail::build_wavelet_streamed<ExecutionSpace, Symbol>(space, text, n, w.data_, Shape, options, stats);
      w.status_ = detail::allocate<std::uint64_t, memory_space>("strix::wavelet::status", 1);
      return w;
    }
    auto d = detail::allocate<Symbol, memory_space>("strix::wavelet::text", n);
    Kokkos::View<const Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> h(text, n);
    if (stats) space.fence();
    const auto t0 = std::chrono::steady_clock::now();
    strix::copy(space, d, h);
    if (stats) {
      space.fence();
      stats->add_phase("copy_to_device", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return wavelet(space, d, options, stats);
  }

  // Adopts arrays read from a file (see strix/succinct/serialize.hpp); checked.
  wavelet(const ExecutionSpace& space, detail::wavelet_data<ExecutionSpace, Symbol>&& data,
          const wavelet_options& options)
      : space_(space), options_(options), data_(std::move(data)) {
    detail::finish_wavelet<ExecutionSpace, Symbol>(space_, data_, Shape, options_, true);
    status_ = detail::allocate<std::uint64_t, memory_space>("strix::wavelet::status", 1);
  }

  std::uint64_t size() const { return data_.n; }
  std::uint64_t alphabet_size() const { return data_.sigma; }
  int levels() const { return data_.levels; }
  std::size_t bytes() const { return data_.bytes(); }
  const detail::wavelet_data<ExecutionSpace, Symbol>& data() const { return data_; }
  const wavelet_options& options() const { return options_; }
  // For device code: access/rank/select of one query (minimal symbols, see wavelet_ref).
  wavelet_ref<Symbol, I, Shape> ref() const { return data_.template ref<I, Shape>(); }

  // Queries are const: they never change the structure. A batch does reuse the object's
  // scratch (a status word, and for host arrays the streams and chunk buffers, kept because
  // creating them synchronises a GPU), which copies of the object share: batches on one
  // object or its copies from several host threads at once must be serialised by the caller.

  // --- batches from views in the execution space's memory ---------------------------
  template <class Positions, class Out>
  void access(const Positions& i, const Out& out) const {
    run(wavelet_query::access, empty_symbols(), i, empty_positions(), out);
  }
  template <class Symbols, class Positions, class Out>
  void rank(const Symbols& c, const Positions& i, const Out& out) const {
    run(wavelet_query::rank, c, i, out, empty_found());
  }
  template <class Symbols, class Ks, class Out>
  void select(const Symbols& c, const Ks& k, const Out& out) const {
    run(wavelet_query::select, c, k, out, empty_found());
  }

  // --- batches from host arrays (m queries), pipelined over streams ------------------
  void access(const I* i, std::size_t m, Symbol* out) const {
    host_batch(wavelet_query::access, nullptr, i, m, nullptr, out);
  }
  void rank(const Symbol* c, const I* i, std::size_t m, I* out) const {
    host_batch(wavelet_query::rank, c, i, m, out, nullptr);
  }
  void select(const Symbol* c, const I* k, std::size_t m, I* out) const {
    host_batch(wavelet_query::select, c, k, m, out, nullptr);
  }

  // --- one query, answered on the host (a batch of one: many queries go faster batched) ---
  Symbol access(I i) const {
    Symbol out{};
    access(&i, 1, &out);
    return out;
  }
  I rank(Symbol c, I i) const {
    I out{};
    rank(&c, &i, 1, &out);
    return out;
  }
  I select(Symbol c, I k) const {
    I out{};
    select(&c, &k, 1, &out);
    return out;
  }

 private:
  using symbols_view = device_view<const Symbol, ExecutionSpace>;
  using args_view = device_view<const I, ExecutionSpace>;
  using positions_view = device_view<I, ExecutionSpace>;
  using found_view = device_view<Symbol, ExecutionSpace>;
  static symbols_view empty_symbols() { return {}; }
  static positions_view empty_positions() { return {}; }
  static found_view empty_found() { return {}; }

  static void check_length(std::uint64_t n) {
    strix::check_length_on<I, ExecutionSpace>(n, "text of " + std::to_string(n) + " symbols");
  }

  template <class Symbols, class Args, class Positions, class Found>
  void run(wavelet_query op, const Symbols& c, const Args& args, const Positions& pos, const Found& found) const {
    detail::check_view<ExecutionSpace, Args>();
    static_assert(std::is_same<typename Args::non_const_value_type, I>::value,
                  "strix: positions and counts use the wavelet's index type");
    const std::size_t m = args.extent(0);
    symbols_view cv;
    if (op != wavelet_query::access) {
      detail::check_view<ExecutionSpace, Symbols>();
      static_assert(std::is_same<typename Symbols::non_const_value_type, Symbol>::value,
                    "strix: query symbols use the wavelet's symbol type");
      STRIX_USER_REQUIRE(c.extent(0) == m, "wavelet: " + std::to_string(c.extent(0)) + " symbols for " +
                                               std::to_string(m) + " queries");
      cv = detail::as_device_view<const Symbol, ExecutionSpace>(c, "symbols");
    }
    positions_view pv;
    found_view fv;
    if (op == wavelet_query::access) {
      STRIX_USER_REQUIRE(found.extent(0) == m, "wavelet: room for " + std::to_string(found.extent(0)) +
                                                   " answers to " + std::to_string(m) + " queries");
      fv = detail::as_device_view<Symbol, ExecutionSpace>(found, "answers");
    } else {
      STRIX_USER_REQUIRE(pos.extent(0) == m, "wavelet: room for " + std::to_string(pos.extent(0)) +
                                                 " answers to " + std::to_string(m) + " queries");
      pv = detail::as_device_view<I, ExecutionSpace>(pos, "answers");
    }
    const device_view<std::uint64_t, ExecutionSpace> status(status_.data(), 1);
    strix::fill(space_, status_, std::uint64_t(0));
    const auto av = detail::as_device_view<const I, ExecutionSpace>(args, "queries");
    if (options_.sort_by_symbol && op != wavelet_query::access && m > 1)
      detail::wavelet_sorted_queries<ExecutionSpace, Symbol, I, Shape>(space_, ref(), op, cv, av, pv, status);
    else
      detail::wavelet_queries<ExecutionSpace, Symbol, I, Shape>(space_, ref(), op, cv, av, pv, fv, status);
    detail::check_batch_status(space_, status, "wavelet");
  }

  void host_batch(wavelet_query op, const Symbol* c, const I* args, std::size_t m, I* pos, Symbol* found) const {
    using host_view = Kokkos::View<const I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    const device_view<std::uint64_t, ExecutionSpace> status(status_.data(), 1);
    strix::fill(space_, status_, std::uint64_t(0));
    const auto w = ref();
    if (is_host_space_v<ExecutionSpace>) {
      // Host memory is the execution space's: no copies, one batch.
      detail::wavelet_queries<ExecutionSpace, Symbol, I, Shape>(
          space_, w, op, symbols_view(c, c ? m : 0), args_view(args, m), positions_view(pos, pos ? m : 0),
          found_view(found, found ? m : 0), status);
      detail::check_batch_status(space_, status, "wavelet");
      return;
    }
    // Chunks round-robin over the streams; each stream has its own buffers, so chunk j+s
    // waits only for chunk j's copy-out on the same stream. Streams and buffers are kept for
    // the next batch (creating and freeing them synchronises the device).
    const std::size_t chunk = std::max<std::size_t>(1, std::min(options_.host_chunk, m));
    auto& h = *host_;
    if (!h.streams) h.streams = std::make_shared<primitives::stream_pool<ExecutionSpace>>(space_, options_.host_streams);
    auto& streams = *h.streams;
    const int s_count = streams.size();
    const std::size_t per = chunk * s_count;
    grow(h.args, per, "strix::wavelet::chunk_args");
    if (c) grow(h.syms, per, "strix::wavelet::chunk_symbols");
    if (pos) grow(h.pos, per, "strix::wavelet::chunk_answers");
    if (found) grow(h.found, per, "strix::wavelet::chunk_found");
    const auto& d_args = h.args;
    const auto& d_syms = h.syms;
    const auto& d_pos = h.pos;
    const auto& d_found = h.found;
    space_.fence();  // the status reset, before streams that do not wait for space_
    for (std::size_t start = 0, j = 0; start < m; start += chunk, ++j) {
      const int s = int(j % s_count);
      const auto& sp = streams[s];
      const std::size_t len = std::min(chunk, m - start), base = std::size_t(s) * chunk;
      positions_view a(d_args.data() + base, len);
      strix::copy(sp, a, host_view(args + start, len));
      symbols_view cs;
      if (c) {
        found_view cd(d_syms.data() + base, len);
        strix::copy(sp, cd, Kokkos::View<const Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(c + start, len));
        cs = cd;
      }
      positions_view pd = pos ? positions_view(d_pos.data() + base, len) : positions_view();
      found_view fd = found ? found_view(d_found.data() + base, len) : found_view();
      detail::wavelet_queries<ExecutionSpace, Symbol, I, Shape>(sp, w, op, cs, a, pd, fd, status);
      if (pos) strix::copy(sp, Kokkos::View<I*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(pos + start, len), pd);
      if (found)
        strix::copy(sp, Kokkos::View<Symbol*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(found + start, len), fd);
    }
    streams.fence();
    detail::check_batch_status(space_, status, "wavelet");
  }

  template <class T>
  static void grow(Kokkos::View<T*, memory_space>& v, std::size_t n, const char* label) {
    if (v.extent(0) < n) {
      v = {};
      v = detail::allocate<T, memory_space>(label, n);
    }
  }

  // What host-array batches reuse: the streams and each stream's chunk buffers.
  struct host_state {
    std::shared_ptr<primitives::stream_pool<ExecutionSpace>> streams;
    Kokkos::View<I*, memory_space> args, pos;
    Kokkos::View<Symbol*, memory_space> syms, found;
  };

  ExecutionSpace space_;
  wavelet_options options_;
  detail::wavelet_data<ExecutionSpace, Symbol> data_;
  Kokkos::View<std::uint64_t*, memory_space> status_;
  std::shared_ptr<host_state> host_ = std::make_shared<host_state>();
};

}  // namespace strix

// The (symbol type, shape) pairs libstrix compiles wavelets for: M(SYMBOL, SHAPE, ...).
#define STRIX_WAVELET_FOR_EACH_SYMBOL(M, ...) \
  M(std::uint8_t, __VA_ARGS__)                \
  M(std::uint16_t, __VA_ARGS__)               \
  M(std::uint32_t, __VA_ARGS__)
#define STRIX_WAVELET_FOR_EACH_KIND(M, ...)                     \
  M(std::uint8_t, strix::wavelet_shape::tree, __VA_ARGS__)      \
  M(std::uint16_t, strix::wavelet_shape::tree, __VA_ARGS__)     \
  M(std::uint32_t, strix::wavelet_shape::tree, __VA_ARGS__)     \
  M(std::uint8_t, strix::wavelet_shape::matrix, __VA_ARGS__)    \
  M(std::uint16_t, strix::wavelet_shape::matrix, __VA_ARGS__)   \
  M(std::uint32_t, strix::wavelet_shape::matrix, __VA_ARGS__)

// The builds depend on neither the index type nor the shape: one per (space, symbol). The
// queries take positions of the index type: one per (space, index, symbol, shape).
#define STRIX_WAVELET_BUILD_DECLARE(PREFIX, SPACE, SYM)                                                    \
  PREFIX template void strix::detail::build_wavelet<SPACE, SYM>(                                           \
      const SPACE&, const strix::device_view<const SYM, SPACE>&, strix::detail::wavelet_data<SPACE, SYM>&, \
      strix::wavelet_shape, const strix::wavelet_options&, strix::run_stats*);                             \
  PREFIX template void strix::detail::build_wavelet_streamed<SPACE, SYM>(                                  \
      const SPACE&, const SYM*, std::uint64_t, strix::detail::wavelet_data<SPACE, SYM>&, strix::wavelet_shape, \
      const strix::wavelet_options&, strix::run_stats*);                                                   \
  PREFIX template void strix::detail::finish_wavelet<SPACE, SYM>(                                          \
      const SPACE&, strix::detail::wavelet_data<SPACE, SYM>&, strix::wavelet_shape, const strix::wavelet_options&, bool);
#define STRIX_WAVELET_QUERY_DECLARE(PREFIX, SPACE, SYM, I, SHAPE)                                          \
  PREFIX template void strix::detail::wavelet_sorted_queries<SPACE, SYM, I, SHAPE>(                        \
      const SPACE&, const strix::wavelet_ref<SYM, I, SHAPE>&, strix::wavelet_query,                        \
      const strix::device_view<const SYM, SPACE>&, const strix::device_view<const I, SPACE>&,              \
      const strix::device_view<I, SPACE>&, const strix::device_view<std::uint64_t, SPACE>&);               \
  PREFIX template void strix::detail::wavelet_queries<SPACE, SYM, I, SHAPE>(                               \
      const SPACE&, const strix::wavelet_ref<SYM, I, SHAPE>&, strix::wavelet_query,                        \
      const strix::device_view<const SYM, SPACE>&, const strix::device_view<const I, SPACE>&,              \
      const strix::device_view<I, SPACE>&, const strix::device_view<SYM, SPACE>&,                          \
      const strix::device_view<std::uint64_t, SPACE>&);
#define STRIX_WAVELET_BUILD_EXTERN_ONE(SYM, SPACE) STRIX_WAVELET_BUILD_DECLARE(extern, SPACE, SYM)
#define STRIX_WAVELET_QUERY_EXTERN_ONE(SYM, SHAPE, SPACE, I) STRIX_WAVELET_QUERY_DECLARE(extern, SPACE, SYM, I, SHAPE)
#define STRIX_WAVELET_BUILD_EXTERN(SPACE) STRIX_WAVELET_FOR_EACH_SYMBOL(STRIX_WAVELET_BUILD_EXTERN_ONE, SPACE)
#define STRIX_WAVELET_QUERY_EXTERN(SPACE, I) STRIX_WAVELET_FOR_EACH_KIND(STRIX_WAVELET_QUERY_EXTERN_ONE, SPACE, I)
STRIX_FOR_EACH_ETI_SPACE(STRIX_WAVELET_BUILD_EXTERN)
STRIX_FOR_EACH_ETI(STRIX_WAVELET_QUERY_EXTERN)
#undef STRIX_WAVELET_BUILD_EXTERN
#undef STRIX_WAVELET_QUERY_EXTERN
#undef STRIX_WAVELET_BUILD_EXTERN_ONE
#undef STRIX_WAVELET_QUERY_EXTERN_ONE
