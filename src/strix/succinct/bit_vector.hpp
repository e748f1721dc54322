// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::bit_vector: a bit vector with constant-time rank and fast select, built in
// parallel on the device and held there (see bit_vector_ref.hpp for the layout).
// The index type I (std::uint32_t or std::uint64_t) is the type of positions, counts and
// query arguments: 32-bit vectors hold fewer than 2^32 bits and move half the bytes per
// query. The directory costs about 3.6% of the bits with the default sampling.
// Construction and batched queries are compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <strix/core/copy.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/succinct/bit_vector_ref.hpp>

namespace strix {

struct bit_vector_options {
  // One select sample every this many ones and zeros: a power of two >= 1.
  std::uint64_t select_sample = 16384;
};

enum class bit_query { access, rank0, rank1, select0, select1 };

namespace detail {

// The arrays of a bit vector in the execution space's memory.
template <class ExecSpace, class P>
struct bit_vector_data {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<std::uint64_t*, memory_space> words, l1;
  Kokkos::View<std::uint16_t*, memory_space> l2;
  Kokkos::View<P*, memory_space> samples1, samples0;
  std::uint64_t n = 0, ones = 0;
  int sample_log2 = 14;

  bit_vector_ref<P> ref() const {
    bit_vector_ref<P> r;
    r.words = words.data();
    r.l1 = l1.data();
    r.l2 = l2.data();
    r.samples1 = samples1.data();
    r.samples0 = samples0.data();
    r.n = static_cast<P>(n);
    r.ones = static_cast<P>(ones);
    r.num_l2 = static_cast<P>((n + 511) >> l2_bits_log2);
    r.num_samples1 = static_cast<P>(samples1.extent(0));
    r.num_samples0 = static_cast<P>(samples0.extent(0));
    r.sample_log2 = sample_log2;
    return r;
  }
  // Bytes of the directory (L1, L2, samples) and of everything.
  std::size_t directory_bytes() const {
    return l1.span() * 8 + l2.span() * 2 + (samples1.span() + samples0.span()) * sizeof(P);
  }
  std::size_t bytes() const { return words.span() * 8 + directory_bytes(); }
};

// Words a bit vector of n bits is stored in: whole 512-bit blocks.
inline std::uint64_t padded_words(std::uint64_t n) { return ((n + 511) >> 9) * words_per_l2; }

// Builds the directory of d.words (padded_words(d.n) words; bits >= n are cleared here).
template <class ExecSpace, class P>
void build_rank_select(const ExecSpace& space, bit_vector_data<ExecSpace, P>& d,
                       const bit_vector_options& options);

// Answers a batch: access (0/1), rank0/rank1 of i in [0, n], select0/select1 of k >= 1 (n
// when k exceeds the count). Arguments out of range add to status(0); answers are written.
template <class ExecSpace, class P>
void bit_vector_queries(const ExecSpace& space, const bit_vector_ref<P>& bv, bit_query op,
                        const device_view<const P, ExecSpace>& args, const device_view<P, ExecSpace>& answers,
                        const device_view<std::uint64_t, ExecSpace>& status);

inline void check_select_sample(std::uint64_t s) {
  STRIX_USER_REQUIRE(s >= 1 && (s & (s - 1)) == 0,
                     "select sampling " + std::to_string(s) + " is not a power of two");
}
inline int log2_exact(std::uint64_t s) {
  int l = 0;
  while ((std::uint64_t(1) << l) < s) ++l;
  return l;
}

// Throws invalid_input when a batch had arguments out of range.
template <class ExecSpace>
void check_batch_status(const ExecSpace& space, const device_view<std::uint64_t, ExecSpace>& status,
                        const char* what) {
  std::uint64_t bad = 0;
  Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> host(&bad);
  strix::copy(space, host, Kokkos::subview(status, 0));
  space.fence();
  STRIX_USER_REQUIRE(bad == 0, std::string(what) + ": " + std::to_string(bad) +
                                   " queries out of range (positions must be <= n, or < n for "
                                   "access; occurrences k >= 1)");
}

}  // namespace detail

template <class ExecutionSpace, class I>
class bit_vector {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using index_type = I;

  bit_vector() = default;

  // Copies n bits packed in 64-bit words (bit i is bit i % 64 of word i / 64) from a view the
  // execution space can access, and builds the directory.
  template <class WordsView>
  bit_vector(const ExecutionSpace& space, const WordsView& words, std::uint64_t n,
             const bit_vector_options& options = {}, run_stats* stats = nullptr)
      : space_(space) {
    detail::check_view<ExecutionSpace, WordsView>();
    static_assert(std::is_same<typename WordsView::non_const_value_type, std::uint64_t>::value,
                  "strix: bit vector words are std::uint64_t");
    STRIX_USER_REQUIRE(words.extent(0) * 64 >= n, "bit vector of " + std::to_string(n) + " bits given " +
                                                      std::to_string(words.extent(0)) + " words");
    auto src = detail::as_device_view<const std::uint64_t, ExecutionSpace>(words, "words");
    init(n, options, stats, [&](const Kokkos::View<std::uint64_t*, memory_space>& dst) {
      const std::size_t used = (n + 63) / 64;
      strix::copy(space_, Kokkos::subview(dst, std::make_pair(std::size_t(0), used)),
                        Kokkos::subview(src, std::make_pair(std::size_t(0), used)));
    });
  }

  // The same from host memory.
  static bit_vector from_host(const ExecutionSpace& space, const std::uint64_t* words, std::uint64_t n,
                              const bit_vector_options& options = {}, run_stats* stats = nullptr) {
    auto d = strix::to_device(space, words, (n + 63) / 64, "strix::bit_vector::host_words");
    return bit_vector(space, d, n, options, stats);
  }

  std::uint64_t size() const { return data_.n; }
  std::uint64_t ones() const { return data_.ones; }
  std::uint64_t zeros() const { return data_.n - data_.ones; }
  // Bytes held on the device, and those of the rank/select directory alone.
  std::size_t bytes() const { return data_.bytes(); }
  std::size_t directory_bytes() const { return data_.directory_bytes(); }
  // For device code: rank1/rank0/select1/select0/access on a trivially copyable view.
  bit_vector_ref<I> ref() const { return data_.ref(); }

  // Batched queries from views in the execution space's memory (answers stay there).
  // Throws invalid_input when an argument is out of range (see bit_vector_queries).
  template <class Args, class Answers>
  void query(bit_query op, const Args& args, const Answers& answers) const {
    detail::check_index_view<ExecutionSpace, Args>();
    detail::check_index_view<ExecutionSpace, Answers>();
    static_assert(std::is_same<typename Args::non_const_value_type, I>::value &&
                      std::is_same<typename Answers::value_type, I>::value,
                  "strix: bit vector queries and answers use the vector's index type");
    STRIX_USER_REQUIRE(args.extent(0) == answers.extent(0), "bit vector: " + std::to_string(args.extent(0)) +
                                                                 " queries but room for " +
                                                                 std::to_string(answers.extent(0)) + " answers");
    strix::fill(space_, status_, std::uint64_t(0));
    detail::bit_vector_queries<ExecutionSpace, I>(
        space_, ref(), op, detail::as_device_view<const I, ExecutionSpace>(args, "queries"),
        detail::as_device_view<I, ExecutionSpace>(answers, "answers"),
        device_view<std::uint64_t, ExecutionSpace>(status_.data(), 1));
    detail::check_batch_status(space_, device_view<std::uint64_t, ExecutionSpace>(status_.data(), 1),
                               "bit vector");
  }
  template <class A, class B> void rank1(const A& i, const B& out) const { query(bit_query::rank1, i, out); }
  template <class A, class B> void rank0(const A& i, const B& out) const { query(bit_query::rank0, i, out); }
  template <class A, class B> void select1(const A& k, const B& out) const { query(bit_query::select1, k, out); }
  template <class A, class B> void select0(const A& k, const B& out) const { query(bit_query::select0, k, out); }
  template <class A, class B> void access(const A& i, const B& out) const { query(bit_query::access, i, out); }

 private:
  template <class Fill>
  void init(std::uint64_t n, const bit_vector_options& options, run_stats* stats, const Fill& fill) {
    STRIX_USER_REQUIRE(n <= std::numeric_limits<I>::max() - 1024,
                       "bit vector of " + std::to_string(n) + " bits is too long for " +
                           std::to_string(8 * sizeof(I)) + "-bit positions");
    data_.n = n;
    data_.words = detail::allocate<std::uint64_t, memory_space>("strix::bit_vector::words", detail::padded_words(n));
    fill(data_.words);
    detail::phase_timer<ExecutionSpace> timer(space_, stats);
    timer.begin("rank_select");
    detail::build_rank_select<ExecutionSpace, I>(space_, data_, options);
    timer.end();
    status_ = detail::allocate<std::uint64_t, memory_space>("strix::bit_vector::status", 1);
    if (stats) stats->peak_bytes = data_.bytes();  // the directory is built in place
  }

  ExecutionSpace space_;
  detail::bit_vector_data<ExecutionSpace, I> data_;
  Kokkos::View<std::uint64_t*, memory_space> status_;
};

}  // namespace strix

#define STRIX_BIT_VECTOR_EXTERN(SPACE, I)                                                         \
  extern template void strix::detail::build_rank_select<SPACE, I>(                                \
      const SPACE&, strix::detail::bit_vector_data<SPACE, I>&, const strix::bit_vector_options&); \
  extern template void strix::detail::bit_vector_queries<SPACE, I>(                               \
      const SPACE&, const strix::bit_vector_ref<I>&, strix::bit_query,                            \
      const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&,             \
      const strix::device_view<std::uint64_t, SPACE>&);
STRIX_FOR_EACH_ETI(STRIX_BIT_VECTOR_EXTERN)
#undef STRIX_BIT_VECTOR_EXTERN
