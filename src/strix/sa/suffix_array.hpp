// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Suffix array construction: options, the per-algorithm handle (options + reusable working
// memory), and the entry points. Declarations only: the constructions are compiled into
// libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <strix/config.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/core/device_length.hpp>
#include <strix/error.hpp>
#include <strix/sa/algorithm.hpp>

namespace strix {

// Whether algorithm `a` runs on ExecutionSpace in this build: divsufsort needs a host
// backend and a build with libdivsufsort, sais a host backend; the others run everywhere.
template <class ExecutionSpace>
constexpr bool sa_algorithm_available(sa_algorithm a) {
  if (a == sa_algorithm::divsufsort) return STRIX_HAS_DIVSUFSORT && is_host_space_v<ExecutionSpace>;
  if (a == sa_algorithm::sais) return is_host_space_v<ExecutionSpace>;
  return true;
}

// Largest text length whose suffix array fits the index type I (strix/core/length.hpp).
template <class I>
constexpr std::uint64_t max_text_length() {
  return max_length<I>();
}

namespace detail {

// invalid_input unless a text of n bytes has a suffix array of index type I on ExecSpace.
template <class I, class ExecSpace>
void require_sa_length(std::uint64_t n) {
  check_length_on<I, ExecSpace>(n, "text of " + std::to_string(n) + " bytes");
}

// One construction algorithm and the working memory it owns.
template <class ExecSpace, class I>
class sa_engine {
 public:
  virtual ~sa_engine() = default;
  virtual std::uint64_t capacity() const = 0;
  virtual std::size_t bytes() const = 0;
  virtual void reserve(std::uint64_t n) = 0;
  virtual void release() = 0;
  // sa.extent(0) == text.extent(0) <= max_text_length<I>(), checked by the caller.
  virtual void build(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& sa,
                     run_stats* stats) = 0;
  // The BWT (divbwt layout, strix/bwt/bwt.hpp) into `out` and its primary index, made by the
  // construction itself with `workspace` (n entries) in the suffix array's place, for the
  // algorithms that can (the host's induced sort and libdivsufsort write each row's symbol as
  // they sort, prefix doubling and Larsson–Sadakane as each suffix's group becomes a singleton);
  // false for the others (and for `auto` when the text makes it pick one of them). Sizes as
  // for build().
  virtual bool build_bwt(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& workspace,
                         const device_view<std::uint8_t, ExecSpace>& out, std::uint64_t& primary, run_stats* stats) {
    (void)text, (void)workspace, (void)out, (void)primary, (void)stats;
    return false;
  }
  // Whether build_bwt makes the BWT of a text of n bytes, as far as the length tells (`auto`
  // may still pick another construction once it sees the text).
  virtual bool makes_bwt(std::uint64_t n) { (void)n; return false; }
};

// Compiled into libstrix for every enabled (space, index type).
template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_sa_engine(const ExecSpace& space, const sa_options& options);

template <class I, class ExecSpace>
void check_sa_sizes(std::uint64_t n, std::uint64_t sa_entries) {
  STRIX_USER_REQUIRE(sa_entries == n, "suffix array has " + std::to_string(sa_entries) +
                                          " entries for a text of " + std::to_string(n) + " bytes");
  require_sa_length<I, ExecSpace>(n);
}

}  // namespace detail

// The handle of one suffix-array algorithm family: its options and its working memory,
// sized once (libcubwt-style) and reused by every construction; grown when a text is
// larger. Not copyable; movable.
template <class ExecutionSpace, class I>
class suffix_array_handle {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  using execution_space = ExecutionSpace;
  using index_type = I;

  // `capacity`: reserve working memory for texts of up to this many bytes now, so that
  // timed constructions allocate nothing (0: allocate on first use).
  explicit suffix_array_handle(const ExecutionSpace& space, const sa_options& options = {},
                               std::uint64_t capacity = 0)
      : space_(space), options_(options), engine_(detail::make_sa_engine<ExecutionSpace, I>(space, options)) {
    if (capacity > 0) engine_->reserve(capacity);
  }

  const ExecutionSpace& space() const { return space_; }
  const sa_options& options() const { return options_; }
  void reserve(std::uint64_t capacity) { engine_->reserve(capacity); }
  std::uint64_t capacity() const { return engine_->capacity(); }
  // Bytes of working memory held in the execution space's memory.
  std::size_t bytes() const { return engine_->bytes(); }
  // Frees the working memory; the next construction allocates it again.
  void release() { engine_->release(); }

  void build(const text_view<ExecutionSpace>& text, const device_view<I, ExecutionSpace>& sa,
             run_stats* stats = nullptr) {
    detail::check_sa_sizes<I, ExecutionSpace>(text.extent(0), sa.extent(0));
    engine_->build(text, sa, stats);
    // `auto` notes the algorithm it picked; the others are what was asked for.
    if (stats && stats->note("algorithm").empty()) stats->set_note("algorithm", algorithm_name(options_));
  }

  // The BWT of `text` into `out` (n bytes) straight from the construction, with `workspace`
  // (n entries, left undefined) in the suffix array's place, when the algorithm makes it on
  // the way (see detail::sa_engine::build_bwt); returns false, having done nothing, when it
  // does not: then build the suffix array and call strix::bwt.
  bool build_bwt(const text_view<ExecutionSpace>& text, const device_view<I, ExecutionSpace>& workspace,
                 const device_view<std::uint8_t, ExecutionSpace>& out, std::uint64_t& primary,
                 run_stats* stats = nullptr) {
    detail::check_sa_sizes<I, ExecutionSpace>(text.extent(0), workspace.extent(0));
    STRIX_USER_REQUIRE(out.extent(0) == text.extent(0), "bwt: text and output sizes differ");
    if (!engine_->build_bwt(text, workspace, out, primary, stats)) return false;
    if (stats && stats->note("algorithm").empty()) stats->set_note("algorithm", algorithm_name(options_));
    return true;
  }
  // Whether build_bwt makes the BWT of a text of n bytes, as far as the length tells (`auto`
  // may pick another construction once it sees the text: build_bwt's answer is the last word).
  bool makes_bwt(std::uint64_t n) { return engine_->makes_bwt(n); }

 private:
  ExecutionSpace space_;
  sa_options options_;
  std::unique_ptr<detail::sa_engine<ExecutionSpace, I>> engine_;
};

// Builds the suffix array of `text` (a view of std::uint8_t) into `sa` (n entries of the
// index type, std::uint32_t or std::uint64_t) with the handle's algorithm and memory. Both
// views live where the handle's execution space can access them. Throws strix::error:
// invalid_input when sizes disagree or n does not fit the index type,
// host/device_out_of_memory when memory runs out.
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  suffix_array_handle<ExecutionSpace, typename SAView::non_const_value_type>& handle,
                  run_stats* stats = nullptr) {
  (void)space;
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  static_assert(std::is_same<typename SAView::value_type, I>::value,
                "strix: the suffix array view must be writable");
  handle.build(detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
               detail::as_device_view<I, ExecutionSpace>(sa, "suffix array"), stats);
}

// The same with a handle made for this call only.
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  const sa_options& options = {}, run_stats* stats = nullptr) {
  using I = typename SAView::non_const_value_type;
  detail::check_index_view<ExecutionSpace, SAView>();
  suffix_array_handle<ExecutionSpace, I> handle(space, options);  // allocates nothing yet
  suffix_array(space, text, sa, handle, stats);
}

}  // namespace strix

#define STRIX_SA_EXTERN(SPACE, I)                                                      \
  extern template std::unique_ptr<strix::detail::sa_engine<SPACE, I>>                  \
  strix::detail::make_sa_engine<SPACE, I>(const SPACE&, const strix::sa_options&);
STRIX_FOR_EACH_ETI(STRIX_SA_EXTERN)
#undef STRIX_SA_EXTERN
