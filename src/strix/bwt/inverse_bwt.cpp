// SPDX-License-Identifier: BSD-3-Clause
// Inverse BWT on the host (see strix/bwt/inverse_bwt.hpp).
//
// The LF walk from the "$" row spells the text backwards, one dependent memory access per
// symbol: a single walk waits on memory at every step. Here the walk is cut at k start rows
// spread over the BWT, and the k pieces are walked at once: each thread runs 16 of them in
// lockstep (their loads overlap) and threads take disjoint sets. A piece ends where it reaches
// another piece's start row; the pieces are then put in text order by following those links
// from the "$" row's piece. LF is a permutation, so every piece ends (its own cycle holds its
// start row), the pieces together visit each row once, and a BWT whose LF has more than one
// cycle (inconsistent with its primary index) shows as pieces that the links from "$" never
// reach. Memory: one LF entry a row (4 bytes below 2^31 rows, else 8) and the pieces (n bytes),
// then the pieces and the text (LF is freed between); the symbol of a row is read off the bucket its LF target falls in, so the BWT
// itself is not read during the walks.
#include <strix/bwt/inverse_bwt.hpp>

#include <strix/core/host_memory.hpp>
#include <strix/error.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace strix {

namespace {

constexpr std::uint64_t walks_per_thread = 256;  // pieces a thread owns: lanes refill from them
constexpr int lanes = 16;                         // pieces a thread walks in lockstep

struct piece {
  std::vector<std::uint8_t> symbols;  // the text backwards from the piece's start row
  std::uint64_t next = 0;             // the start row it ran into; `end_of_text` at the "$" step
};
constexpr std::uint64_t end_of_text = std::numeric_limits<std::uint64_t>::max();

// First row of each symbol's bucket (row 0 is "$"), with the rows of every `1 << shift` span
// mapped to the first symbol whose bucket reaches into it: the symbol of a row in a step or two.
class buckets {
 public:
  buckets(const std::array<std::uint64_t, 256>& counts, std::uint64_t rows) {
    first_[0] = 1;
    for (int c = 0; c < 256; ++c) first_[c + 1] = first_[c] + counts[c];
    while ((rows >> shift_) > (std::uint64_t(1) << 16)) ++shift_;
    hint_.resize((rows >> shift_) + 1);
    int c = 0;
    for (std::uint64_t span = 0; span < hint_.size(); ++span) {
      while (c < 255 && first_[c + 1] <= (span << shift_)) ++c;
      hint_[span] = static_cast<std::uint8_t>(c);
    }
  }
  // The symbol whose bucket holds `row` (row >= 1).
  std::uint8_t symbol_of(std::uint64_t row) const {
    int c = hint_[row >> shift_];
    while (first_[c + 1] <= row) ++c;
    return static_cast<std::uint8_t>(c);
  }
  std::uint64_t first(int c) const { return first_[c]; }

 private:
  std::array<std::uint64_t, 257> first_{};
  std::vector<std::uint8_t> hint_;
  int shift_ = 0;
};

int thread_count(int threads) {
#ifdef _OPENMP
  return threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
  return 1;
#endif
}

// The symbol of row `row` of the full BWT (n + 1 rows, the sentinel in row `primary`).
inline std::uint8_t row_symbol(const std::uint8_t* bwt, std::uint64_t primary, std::uint64_t row) {
  return bwt[row < primary ? row : row - 1];
}

// Symbol counts of each of `parts` row blocks (the sentinel's row left out): their sums are
// the BWT's counts, and their running sums where each block's rows of a symbol go in LF.
std::vector<std::array<std::uint64_t, 256>> block_counts(const std::uint8_t* bwt, std::uint64_t n,
                                                         std::uint64_t primary, int parts) {
  const std::uint64_t rows = n + 1;
  std::vector<std::array<std::uint64_t, 256>> counts(parts);
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
  for (int part = 0; part < parts; ++part) {
    auto& mine = counts[part];
    mine.fill(0);
    for (std::uint64_t row = rows * part / parts, hi = rows * (part + 1) / parts; row < hi; ++row)
      if (row != primary) ++mine[row_symbol(bwt, primary, row)];
  }
  return counts;
}

// LF of every row, with the top bit set on the start rows. `counts` are block_counts'; they
// become each block's next LF value per symbol.
template <class E>
std::unique_ptr<E[]> lf_with_starts(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, const buckets& b,
                              std::vector<std::array<std::uint64_t, 256>>& counts,
                              const std::vector<std::uint64_t>& starts) {
  constexpr E flag = E(1) << (8 * sizeof(E) - 1);
  const std::uint64_t rows = n + 1;
  const int parts = static_cast<int>(counts.size());
  for (int c = 0; c < 256; ++c) {
    std::uint64_t at = b.first(c);
    for (auto& block : counts) {
      const std::uint64_t here = block[c];
      block[c] = at;
      at += here;
    }
  }
  // Uninitialised (the threads' parts first touch it) and on huge pages where the kernel
  // allows: the walks read it at random.
  std::unique_ptr<E[]> lf(new E[rows]);
  advise_huge_pages(lf.get(), rows * sizeof(E));
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
  for (int part = 0; part < parts; ++part) {
    auto& next = counts[part];
    for (std::uint64_t row = rows * part / parts, hi = rows * (part + 1) / parts; row < hi; ++row)
      lf[row] = row == primary ? E(0) : static_cast<E>(next[row_symbol(bwt, primary, row)]++);
  }
  for (const std::uint64_t s : starts) lf[s] |= flag;
  return lf;
}

// Walks the pieces [first, last) of `starts`, `lanes` at a time.
template <class E>
void walk_pieces(const E* lf, const buckets& b, std::uint64_t primary,
                 const std::vector<std::uint64_t>& starts, std::vector<piece>& pieces, std::uint64_t first,
                 std::uint64_t last, std::uint64_t expected_length) {
  constexpr E flag = E(1) << (8 * sizeof(E) - 1);
  struct lane {
    std::uint64_t piece, row;
    bool fresh;  // at its own start row, which carries the flag too
  };
  std::array<lane, lanes> active;
  int live = 0;
  std::uint64_t queued = first;
  auto refill = [&](lane& l) {
    if (queued >= last) return false;
    l = {queued, starts[queued], true};
    pieces[queued].symbols.reserve(expected_length + expected_length / 2);
    ++queued;
    return true;
  };
  for (; live < lanes && refill(active[live]); ++live) {
  }
  while (live > 0) {
    for (int i = 0; i < live;) {
      lane& l = active[i];
      const E e = lf[l.row];
      piece& p = pieces[l.piece];
      bool done = false;
      if ((e & flag) && !l.fresh) {
        p.next = l.row;
        done = true;
      } else if (l.row == primary) {
        p.next = end_of_text;
        done = true;
      } else {
        const std::uint64_t to = std::uint64_t(e & ~flag);
        p.symbols.push_back(b.symbol_of(to));
        l.row = to;
        l.fresh = false;
        __builtin_prefetch(&lf[to]);
      }
      if (done && !refill(l)) {
        l = active[--live];  // the last live lane takes this slot; look at it next
        continue;
      }
      ++i;
    }
  }
}

template <class E>
std::vector<std::uint8_t> invert(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, int threads) {
  const std::uint64_t rows = n + 1;
  auto counts = block_counts(bwt, n, primary, threads);
  std::array<std::uint64_t, 256> totals{};
  for (const auto& block : counts)
    for (int c = 0; c < 256; ++c) totals[c] += block[c];
  const buckets b(totals, rows);
  // Start rows evenly spaced over the rows, row 0 ("$", where the text's last symbol is) first.
  const std::uint64_t k = std::min<std::uint64_t>(rows, walks_per_thread * std::uint64_t(threads));
  std::vector<std::uint64_t> starts(k);
  for (std::uint64_t j = 0; j < k; ++j) starts[j] = static_cast<std::uint64_t>((unsigned __int128)j * rows / k);
  std::unique_ptr<E[]> lf = lf_with_starts<E>(bwt, n, primary, b, counts, starts);

  std::vector<piece> pieces(k);
  const std::uint64_t expected_length = n / k + 1;
  // An exception must not leave an OpenMP region: the first one (out of memory, as the pieces
  // grow) is kept and thrown after it.
  std::exception_ptr failure;
#pragma omp parallel for num_threads(threads) schedule(static, 1) if (threads > 1)
  for (int part = 0; part < threads; ++part) {
    try {
      walk_pieces<E>(lf.get(), b, primary, starts, pieces, k * part / threads, k * (part + 1) / threads, expected_length);
    } catch (...) {
#pragma omp critical(strix_inverse_bwt_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  lf.reset();  // freed before the text is allocated: the peak is the walks', not 4n more

  // The pieces in text order: from row 0's piece, each to the piece whose start it reached.
  std::vector<std::uint64_t> order, offset;
  std::uint64_t at = n, j = 0;  // pieces fill the text from its end
  const auto inconsistent = [] {
    throw error(error_code::invalid_input, "inverse_bwt: inconsistent BWT and primary index");
  };
  for (;;) {
    const std::uint64_t len = pieces[j].symbols.size();
    if (len > at || order.size() == k) inconsistent();
    at -= len;
    order.push_back(j);
    offset.push_back(at);
    const std::uint64_t next = pieces[j].next;
    if (next == end_of_text) break;
    j = static_cast<std::uint64_t>(std::lower_bound(starts.begin(), starts.end(), next) - starts.begin());
  }
  if (at != 0) inconsistent();  // pieces the chain did not reach: LF has another cycle

  std::vector<std::uint8_t> text(n);
  const std::int64_t count = static_cast<std::int64_t>(order.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16) if (threads > 1)
  for (std::int64_t q = 0; q < count; ++q) {
    auto& symbols = pieces[order[q]].symbols;
    std::reverse_copy(symbols.begin(), symbols.end(), text.begin() + static_cast<std::ptrdiff_t>(offset[q]));
    std::vector<std::uint8_t>().swap(symbols);
  }
  return text;
}

}  // namespace

std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, int threads) {
  if (n == 0) return {};
  STRIX_USER_REQUIRE(primary >= 1 && primary <= n,
                     "inverse_bwt: primary index " + std::to_string(primary) + " is outside 1.." + std::to_string(n));
  const int t = std::max(1, thread_count(threads));
  // 32-bit entries while the row numbers leave the top bit for the start flag.
  if (n + 1 < (std::uint64_t(1) << 31)) return invert<std::uint32_t>(bwt, n, primary, t);
  return invert<std::uint64_t>(bwt, n, primary, t);
}

std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary) {
  return inverse_bwt(bwt, n, primary, 0);
}

}  // namespace strix
