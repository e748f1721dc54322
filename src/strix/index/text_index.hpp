// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::text_index: a text on the device and the indexes built from it. Each index is a part
// (the table below: what it holds, what it is built from); a part is built on first request,
// from the parts it needs, kept until released, and every byte the index holds is accounted.
// Every build records its phases and the peak of what the index held meanwhile in the
// caller's run_stats. The suffix array's working memory is one handle, reused.
//
// A new index (the FM-index, a wavelet tree of the BWT, ...) is one more part: a row of
// index_parts, a slot in parts_ (tuple order = index_part order), and its builder method.
// The free functions remain for callers with their own Views.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/bwt/bwt.hpp>
#include <strix/core/device_length.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix {

// The parts of a text_index, for has(), release() and bytes().
enum class index_part { text, suffix_array, inverse_suffix_array, lcp, bwt, fm_index, sa_workspace };
constexpr std::size_t index_part_count = 7;

constexpr unsigned part_bit(index_part p) { return 1u << static_cast<unsigned>(p); }

// One row per part: its name and the parts it is built from (a bit set of part_bit). A part
// built from another is released when that one is replaced (set_suffix_array).
struct index_part_info {
  index_part part;
  const char* name;
  const char* holds;
  unsigned built_from;
};
inline constexpr index_part_info index_parts[index_part_count] = {
    {index_part::text, "text", "the text, n bytes", 0},
    {index_part::suffix_array, "suffix_array", "SA: n indexes", part_bit(index_part::text)},
    {index_part::inverse_suffix_array, "inverse_suffix_array", "ISA: n indexes", part_bit(index_part::suffix_array)},
    {index_part::lcp, "lcp", "LCP array: n indexes", part_bit(index_part::text) | part_bit(index_part::suffix_array)},
    {index_part::bwt, "bwt", "BWT (divbwt layout): n bytes, and its primary index",
     part_bit(index_part::text) | part_bit(index_part::suffix_array)},
    {index_part::fm_index, "fm_index", "FM-index: rank structure of the BWT, C, suffix-array samples",
     part_bit(index_part::suffix_array) | part_bit(index_part::bwt)},
    {index_part::sa_workspace, "sa_workspace", "the suffix-array construction's working memory", 0},
};
static_assert(index_parts[index_part_count - 1].part == index_part::sa_workspace, "one row per part, in order");

// The text on `space`'s device: n bytes of host memory copied (the one way a text_index's
// text goes to the device; the copy is fenced).
template <class ExecutionSpace>
Kokkos::View<std::uint8_t*, typename ExecutionSpace::memory_space> copy_text_to_device(const ExecutionSpace& space,
                                                                                       const std::uint8_t* host_text,
                                                                                       std::uint64_t n) {
  auto text = detail::allocate<std::uint8_t, typename ExecutionSpace::memory_space>("strix::text", n);
  Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> src(host_text, n);
  strix::copy(space, text, src);
  space.fence();
  return text;
}

namespace detail {

// A part held as one device array of T.
template <class T, class MemorySpace>
struct array_part {
  Kokkos::View<T*, MemorySpace> view;
  bool built = false;  // an empty text's parts are built and empty
  bool has() const { return built; }
  std::size_t bytes() const { return view.span() * sizeof(T); }
  void release() {
    view = {};
    built = false;
  }
};

// An object that owns its device data (the FM-index), held once built.
template <class T>
struct object_part {
  std::shared_ptr<const T> object;
  bool has() const { return object != nullptr; }
  std::size_t bytes() const { return object ? object->bytes() : 0; }
  void release() { object.reset(); }
};

// The suffix-array construction's handle (its algorithm and working memory).
template <class ExecutionSpace, class I>
struct workspace_part {
  std::unique_ptr<suffix_array_handle<ExecutionSpace, I>> handle;
  bool has() const { return handle && handle->bytes() > 0; }
  std::size_t bytes() const { return handle ? handle->bytes() : 0; }
  void release() {
    if (handle) handle->release();
  }
};

}  // namespace detail

template <class ExecutionSpace, class I>
class text_index {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using index_type = I;
  template <class T>
  using view = Kokkos::View<T*, memory_space>;

  // Copies n bytes of host memory into the execution space's memory.
  text_index(const ExecutionSpace& space, const std::uint8_t* host_text, std::uint64_t n,
             const sa_options& options = {})
      : text_index(space, checked_copy(space, host_text, n), options) {}

  // Shares a text already in the execution space's memory (never written).
  text_index(const ExecutionSpace& space, const view<const std::uint8_t>& text, const sa_options& options = {})
      : space_(space), options_(options) {
    check_length(text.extent(0));
    part<index_part::text>().view = text;
    note_peak();
  }

  const ExecutionSpace& space() const { return space_; }
  std::uint64_t size() const { return text().extent(0); }
  view<const std::uint8_t> text() const { return part<index_part::text>().view; }

  // The suffix array, built on first request. `stats` receives the phases of a build.
  view<const I> suffix_array(run_stats* stats = nullptr) {
    auto& sa = part<index_part::suffix_array>();
    if (!sa.built) {
      reserve_suffix_array();
      run_stats local = stats ? stats->observers() : run_stats{};
      workspace().handle->build(text_view<ExecutionSpace>(text().data(), size()),
                                device_view<I, ExecutionSpace>(sa.view.data(), size()), stats ? &local : nullptr);
      sa.built = true;
      finish_build(stats, local, index_part::suffix_array);
    }
    return sa.view;
  }

  // Allocates the suffix array and the construction's working memory without building, so
  // that a timed suffix_array() allocates nothing.
  void reserve_suffix_array() {
    auto& ws = workspace();
    if (!ws.handle) ws.handle = std::make_unique<suffix_array_handle<ExecutionSpace, I>>(space_, options_);
    ws.handle->reserve(size());
    auto& sa = part<index_part::suffix_array>();
    if (!sa.built && !sa.view.data()) sa.view = detail::allocate<I, memory_space>("strix::sa", size());
    note_peak();
  }

  // Adopts a suffix array computed elsewhere (e.g. read from a file); with `check`, it is
  // verified first and a wrong one is an invalid_input error. What was built from the old
  // one is released.
  void set_suffix_array(const view<I>& sa, bool check = true) {
    STRIX_USER_REQUIRE(sa.extent(0) == size(), "suffix array has " + std::to_string(sa.extent(0)) +
                                                   " entries for a text of " + std::to_string(size()) +
                                                   " bytes");
    if (check) {
      const auto verdict = check_suffix_array(space_, text(), sa);
      STRIX_USER_REQUIRE(verdict.ok, "not the suffix array of the text: " + verdict.message);
    }
    release_built_from(index_part::suffix_array);
    auto& part_sa = part<index_part::suffix_array>();
    part_sa.view = sa;
    part_sa.built = true;
    note_peak();
  }

  view<const I> inverse_suffix_array(run_stats* stats = nullptr) {
    auto& isa = part<index_part::inverse_suffix_array>();
    if (!isa.built) {
      auto sa = suffix_array(stats);
      isa.view = detail::allocate<I, memory_space>("strix::isa", size());
      run_stats local = stats ? stats->observers() : run_stats{};
      strix::inverse_suffix_array(space_, sa, isa.view, stats ? &local : nullptr);
      isa.built = true;
      finish_build(stats, local, index_part::inverse_suffix_array);
    }
    return isa.view;
  }

  view<const I> lcp(run_stats* stats = nullptr) {
    auto& lcp = part<index_part::lcp>();
    if (!lcp.built) {
      auto sa = suffix_array(stats);
      lcp.view = detail::allocate<I, memory_space>("strix::lcp", size());
      run_stats local = stats ? stats->observers() : run_stats{};
      lcp_array(space_, text(), sa, lcp.view, stats ? &local : nullptr);
      lcp.built = true;
      finish_build(stats, local, index_part::lcp);
    }
    return lcp.view;
  }

  // The LCP array in the suffix array's place, for callers done with the suffix array: the
  // suffix array (built first if not held) becomes the LCP array, and the index holds the LCP
  // and no suffix array; on host backends the build needs n entries beyond them fewer than
  // lcp(). When the LCP is held already, the suffix array is only released.
  view<const I> lcp_replacing_suffix_array(run_stats* stats = nullptr) {
    auto& lcp = part<index_part::lcp>();
    if (!lcp.built) {
      auto sa = suffix_array(stats);
      auto& sa_part = part<index_part::suffix_array>();
      run_stats local = stats ? stats->observers() : run_stats{};
      lcp_array(space_, text(), sa, sa_part.view, stats ? &local : nullptr);
      lcp.view = sa_part.view;
      lcp.built = true;
      sa_part.release();  // its storage is the LCP's now
      finish_build(stats, local, index_part::lcp);
    }
    release(index_part::suffix_array);
    return lcp.view;
  }

  // The BWT in libdivsufsort's divbwt layout (see strix/bwt/bwt.hpp) and its primary index,
  // from the suffix array (built first if not held, and kept). bwt_without_suffix_array()
  // makes it without one where the construction can.
  view<const std::uint8_t> bwt(run_stats* stats = nullptr) {
    auto& bwt = part<index_part::bwt>();
    if (!bwt.built) {
      auto sa = suffix_array(stats);
      if (!bwt.view.data()) bwt.view = detail::allocate<std::uint8_t, memory_space>("strix::bwt", size());
      run_stats local = stats ? stats->observers() : run_stats{};
      primary_ = strix::bwt(space_, text(), sa, bwt.view, stats ? &local : nullptr);
      bwt.built = true;
      finish_build(stats, local, index_part::bwt);
    }
    return bwt.view;
  }
  std::uint64_t bwt_primary(run_stats* stats = nullptr) {
    bwt(stats);
    return primary_;
  }

  // Builds the BWT without a suffix array when the construction can make it on the way (host
  // backends' sais and divsufsort, which `auto` picks there, and prefix doubling and
  // Larsson–Sadakane on every backend, `auto`'s pick on GPUs; see
  // suffix_array_handle::build_bwt), the suffix array's place being working memory for the
  // build only (for callers that need the BWT alone: the same memory, one pass less); returns
  // whether the BWT is built (now or before). Does nothing when a suffix array is held (bwt()
  // uses it) or the construction cannot.
  bool bwt_without_suffix_array(run_stats* stats = nullptr) {
    if (part<index_part::bwt>().built) return true;
    if (part<index_part::suffix_array>().built) return false;
    auto& ws = workspace();
    if (!ws.handle) ws.handle = std::make_unique<suffix_array_handle<ExecutionSpace, I>>(space_, options_);
    if (!ws.handle->makes_bwt(size())) return false;
    // (What reserve_bwt() allocated, else allocated now: the suffix array's place, which the
    // construction sorts in, and the BWT.)
    reserve_bwt();
    auto& sa = part<index_part::suffix_array>();
    auto& bwt = part<index_part::bwt>();
    run_stats local = stats ? stats->observers() : run_stats{};
    std::uint64_t primary = 0;
    if (!ws.handle->build_bwt(text_view<ExecutionSpace>(text().data(), size()),
                              device_view<I, ExecutionSpace>(sa.view.data(), size()),
                              device_view<std::uint8_t, ExecutionSpace>(bwt.view.data(), size()), primary,
                              stats ? &local : nullptr)) {
      release(index_part::bwt);  // not held while a suffix array is built first (bwt() allocates it after)
      return false;
    }
    bwt.built = true;
    primary_ = primary;
    finish_build(stats, local, index_part::bwt, true);
    release(index_part::suffix_array);  // the working rows, held until here
    return true;
  }

  // Allocates what bwt_without_suffix_array() takes (the construction's working memory, the
  // suffix array's place and the BWT; the BWT alone when a suffix array is held) without
  // building, so that a timed call allocates nothing.
  void reserve_bwt() {
    if (part<index_part::bwt>().built) return;
    const bool direct = !part<index_part::suffix_array>().built;
    if (direct) reserve_suffix_array();
    // (Not while a suffix array is built first: bwt() allocates it after, as the workspace goes.)
    auto& bwt = part<index_part::bwt>();
    if (!bwt.view.data() && (!direct || workspace().handle->makes_bwt(size())))
      bwt.view = detail::allocate<std::uint8_t, memory_space>("strix::bwt", size());
    note_peak();
  }

  // The FM-index (strix/fm_index/fm_index.hpp), built on first request from the suffix array
  // and the BWT. What it builds on the way (the suffix array, its working memory, the BWT)
  // is released once the index stands; parts held before are kept. `options` applies to
  // the first build (release(index_part::fm_index) to build again with others).
  const strix::fm_index<ExecutionSpace, I>& fm_index(const fm_options& options = {}, run_stats* stats = nullptr) {
    auto& fm = part<index_part::fm_index>();
    if (!fm.object) {
      const unsigned held = (has(index_part::suffix_array) ? part_bit(index_part::suffix_array) : 0u) |
                            (has(index_part::bwt) ? part_bit(index_part::bwt) : 0u) |
                            (has(index_part::sa_workspace) ? part_bit(index_part::sa_workspace) : 0u);
      auto sa = suffix_array(stats);
      auto l = bwt(stats);
      run_stats local = stats ? stats->observers() : run_stats{};
      fm.object = std::make_shared<const strix::fm_index<ExecutionSpace, I>>(space_, sa, l, primary_, options,
                                                                             stats ? &local : nullptr);
      finish_build(stats, local, index_part::fm_index);
      for (auto built_here : {index_part::suffix_array, index_part::bwt, index_part::sa_workspace})
        if (!(held & part_bit(built_here))) release(built_here);
    }
    return *fm.object;
  }

  bool has(index_part p) const {
    return with_part(p, [](const auto& slot) { return slot.has(); });
  }

  // Frees a part; a later request builds it again. The text cannot be released.
  void release(index_part p) {
    STRIX_USER_REQUIRE(p != index_part::text, "text_index: the text cannot be released");
    with_part(p, [](auto& slot) { slot.release(); });
    if (p == index_part::bwt) primary_ = 0;
  }

  // Bytes held now in the execution space's memory, by part and in all.
  std::size_t bytes(index_part p) const {
    return with_part(p, [](const auto& slot) { return slot.bytes(); });
  }
  std::size_t bytes() const {
    std::size_t total = 0;
    for (const auto& row : index_parts) total += bytes(row.part);
    return total;
  }
  // The most bytes held at once, including an algorithm's temporaries when its build was
  // asked for statistics.
  std::size_t peak_bytes() const { return peak_; }

 private:
  // The text as a part: given, never built here, never released (release() refuses).
  struct text_part {
    Kokkos::View<const std::uint8_t*, memory_space> view;
    bool has() const { return true; }
    std::size_t bytes() const { return view.span(); }
    void release() {}
  };
  using parts = std::tuple<text_part, detail::array_part<I, memory_space>, detail::array_part<I, memory_space>,
                           detail::array_part<I, memory_space>, detail::array_part<std::uint8_t, memory_space>,
                           detail::object_part<strix::fm_index<ExecutionSpace, I>>,
                           detail::workspace_part<ExecutionSpace, I>>;
  static_assert(std::tuple_size<parts>::value == index_part_count, "one slot per part, in index_part's order");

  template <index_part P>
  auto& part() {
    return std::get<static_cast<std::size_t>(P)>(parts_);
  }
  template <index_part P>
  const auto& part() const {
    return std::get<static_cast<std::size_t>(P)>(parts_);
  }
  detail::workspace_part<ExecutionSpace, I>& workspace() { return part<index_part::sa_workspace>(); }

  // f(slot of part p), the one place that maps a part to its slot.
  template <class F>
  decltype(auto) with_part(index_part p, F&& f) const {
    return with_part_impl(p, f, parts_, std::make_index_sequence<index_part_count>{});
  }
  template <class F>
  decltype(auto) with_part(index_part p, F&& f) {
    return with_part_impl(p, f, parts_, std::make_index_sequence<index_part_count>{});
  }
  template <class F, class Tuple, std::size_t First, std::size_t... Rest>
  static decltype(auto) with_part_impl(index_part p, F& f, Tuple& slots, std::index_sequence<First, Rest...>) {
    if constexpr (sizeof...(Rest) == 0) {
      return f(std::get<First>(slots));
    } else {
      if (static_cast<std::size_t>(p) == First) return f(std::get<First>(slots));
      return with_part_impl(p, f, slots, std::index_sequence<Rest...>{});
    }
  }

  // Releases every part built from `source` (index_parts' built_from).
  void release_built_from(index_part source) {
    for (const auto& row : index_parts)
      if (row.built_from & part_bit(source)) release(row.part);
  }

  static void check_length(std::uint64_t n) { strix::check_length_on<I, ExecutionSpace>(n, "text of " + std::to_string(n) + " bytes"); }
  // The host text on the device, checked first so that a text too long allocates nothing.
  static view<std::uint8_t> checked_copy(const ExecutionSpace& space, const std::uint8_t* host_text, std::uint64_t n) {
    check_length(n);
    return copy_text_to_device(space, host_text, n);
  }
  void note_peak() { peak_ = std::max(peak_, bytes()); }
  // A build of `built` is done: `local.peak_bytes` counts the algorithm's temporaries and the
  // parts it read and wrote (its sources in index_parts, itself, and for the suffix array its
  // working memory); the rest of what the index holds is added.
  // `workspace_in_local`: the build's own peak counts the construction's working memory (a
  // suffix array or a BWT made by the handle), which bytes() holds as sa_workspace too.
  void finish_build(run_stats* stats, const run_stats& local, index_part built, bool workspace_in_local = false) {
    note_peak();
    if (!stats) return;
    std::size_t counted = bytes(built);
    for (const auto& row : index_parts)
      if (index_parts[static_cast<std::size_t>(built)].built_from & part_bit(row.part)) counted += bytes(row.part);
    if (built == index_part::suffix_array || workspace_in_local) counted += bytes(index_part::sa_workspace);
    peak_ = std::max(peak_, bytes() - std::min(counted, bytes()) + local.peak_bytes);
    run_stats merged = local;
    merged.peak_bytes = peak_;
    stats->merge(merged);
  }

  ExecutionSpace space_;
  sa_options options_;
  parts parts_;
  std::uint64_t primary_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace strix
