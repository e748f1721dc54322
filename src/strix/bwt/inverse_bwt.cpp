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
// reach.
//
// The walks step two rows at a time: each row holds LF(LF(row)) and the two symbols are read
// off the two-symbol bucket the target falls in (the target's suffix starts with them), so a
// symbol costs half a dependent load. LF o LF comes from a counting pass over symbol pairs
// (the target of row j is ranked among the rows with the same pair (BWT[LF j], BWT[j]) by j),
// with the BWT read at LF(j), which the pass computes as it goes; it equals LF o LF for any
// BWT, consistent or not. The start rows are row 0 and LF of the rows at multiples of a power
// of two, so that the rows whose LF is a start row, where a two-row step would pass it, are
// known by their number; they and the row whose LF is the primary row step once. Memory: one
// entry a row (4 bytes below 2^31 rows, else 8) and the pieces (n bytes), then the pieces and
// the text (the entries are freed between).
#include <strix/bwt/inverse_bwt.hpp>

#include <strix/bwt/detail/row_symbols.hpp>

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

using detail::pair_buckets;
using detail::symbol_buckets;

constexpr std::uint64_t walks_per_thread = 256;  // pieces a thread owns: lanes refill from them
constexpr int lanes = 16;                         // pieces a thread walks in lockstep

struct piece {
  std::vector<std::uint8_t> symbols;  // the text backwards from the piece's start row
  std::uint64_t next = 0;             // the start row it ran into; `end_of_text` at the "$" step
};
constexpr std::uint64_t end_of_text = std::numeric_limits<std::uint64_t>::max();

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

template <class E>
constexpr E start_flag = E(1) << (8 * sizeof(E) - 1);  // the row is a start row

// Two LF steps of every row (with the start flag), the pair buckets, and what the walks need
// for the rows that step once: the sampled rows (multiples of 2^shift, whose LF are the start
// rows besides row 0) and the row whose LF is the primary one, where the text begins.
template <class E>
struct two_step_table {
  std::unique_ptr<E[]> entries;
  std::unique_ptr<pair_buckets> pairs;
  int shift = 0;
  std::vector<std::uint64_t> sampled_lf;  // LF of row q << shift (the primary row's: unused)
  std::uint64_t before_primary = 0;       // the row whose LF is the primary row
  std::vector<std::uint64_t> starts;      // the start rows, in order (row 0 first)

  bool steps_once(std::uint64_t row) const { return (row & ((std::uint64_t(1) << shift) - 1)) == 0 || row == before_primary; }
  std::uint64_t lf_of_single(std::uint64_t row, std::uint64_t primary) const {
    return row == before_primary ? primary : sampled_lf[row >> shift];
  }
};

// The table for about `k` start rows; `counts` (block_counts') become each block's next LF
// value per symbol.
template <class E>
two_step_table<E> two_steps(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, const symbol_buckets& b,
                            std::vector<std::array<std::uint64_t, 256>>& counts, std::uint64_t k) {
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
  two_step_table<E> t;
  while ((rows >> (t.shift + 1)) >= k) ++t.shift;
  const std::uint64_t mask = (std::uint64_t(1) << t.shift) - 1;
  t.sampled_lf.assign((rows >> t.shift) + 1, 0);
  // Pass 1, by blocks of rows: LF computed on the way (a chunk of rows at a time, so that the
  // BWT's symbols at LF are prefetched), each row's pair key (BWT[LF row] * 256 + BWT[row])
  // kept in its entry for pass 2, the pairs counted, the sampled rows' LF kept.
  // The entries are uninitialised (the threads' parts first touch them) and on huge pages
  // where the kernel allows: the walks read them at random.
  t.entries.reset(new E[rows]);
  advise_huge_pages(t.entries.get(), rows * sizeof(E));
  E* entries = t.entries.get();
  std::vector<std::vector<std::uint64_t>> pair_counts(parts);
  std::vector<std::uint64_t> before_primary(parts, rows);
  constexpr std::uint64_t chunk = 1024, ahead = 16;
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
  for (int part = 0; part < parts; ++part) {
    auto& mine = pair_counts[part];
    mine.assign(65536, 0);
    auto next = counts[part];
    std::array<std::uint64_t, chunk> lf;
    for (std::uint64_t lo = rows * part / parts, end = rows * (part + 1) / parts; lo < end; lo += chunk) {
      const std::uint64_t hi = std::min(end, lo + chunk);
      for (std::uint64_t row = lo; row < hi; ++row)
        lf[row - lo] = row == primary ? 0 : next[row_symbol(bwt, primary, row)]++;
      for (std::uint64_t row = lo; row < hi; ++row) {
        if (row + ahead < hi) __builtin_prefetch(bwt + lf[row + ahead - lo]);
        if (row == primary) continue;
        const std::uint64_t to = lf[row - lo];
        if ((row & mask) == 0) t.sampled_lf[row >> t.shift] = to;
        if (to == primary) {
          before_primary[part] = row;
          continue;
        }
        const std::uint32_t key = std::uint32_t(row_symbol(bwt, primary, to)) * 256 + row_symbol(bwt, primary, row);
        ++mine[key];
        entries[row] = static_cast<E>(key);
      }
    }
  }
  t.before_primary = *std::min_element(before_primary.begin(), before_primary.end());
  t.pairs = std::make_unique<pair_buckets>(pair_counts, rows, row_symbol(bwt, primary, 0));
  if (t.before_primary >= rows || !t.pairs->consistent())
    throw error(error_code::internal, "inverse_bwt: the pair counts do not cover the rows");
  // Pass 2, in the same order: each key becomes the next row of its pair's bucket.
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
  for (int part = 0; part < parts; ++part) {
    auto& next_target = pair_counts[part];
    for (std::uint64_t row = rows * part / parts, hi = rows * (part + 1) / parts; row < hi; ++row)
      entries[row] = (row == primary || row == t.before_primary) ? E(0) : static_cast<E>(next_target[entries[row]]++);
  }
  // The start rows: row 0 and the LF of the sampled rows (the primary row has none; when the
  // row before the primary one is sampled, the primary row is a start, where a piece ends at
  // once).
  t.starts.push_back(0);
  for (std::uint64_t row = 0; row < rows; row += mask + 1)
    if (row != primary) t.starts.push_back(t.sampled_lf[row >> t.shift]);
  std::sort(t.starts.begin(), t.starts.end());
  t.starts.erase(std::unique(t.starts.begin(), t.starts.end()), t.starts.end());
  for (const std::uint64_t s : t.starts) entries[s] |= start_flag<E>;
  return t;
}

// Walks the pieces [first, last) of `starts`, `lanes` at a time, two rows a step but where a
// step would pass a start row or the primary row.
template <class E>
void walk_pieces(const two_step_table<E>& table, const symbol_buckets& b, std::uint64_t primary,
                 const std::vector<std::uint64_t>& starts, std::vector<piece>& pieces, std::uint64_t first,
                 std::uint64_t last, std::uint64_t expected_length) {
  const E* entries = table.entries.get();
  const pair_buckets& pairs = *table.pairs;
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
      const E e = entries[l.row];
      piece& p = pieces[l.piece];
      bool done = false;
      if ((e & start_flag<E>) && !l.fresh) {
        p.next = l.row;
        done = true;
      } else if (l.row == primary) {
        p.next = end_of_text;
        done = true;
      } else if (table.steps_once(l.row)) {
        // One step, to a start row or to the primary row: the loop ends the piece there.
        const std::uint64_t to = table.lf_of_single(l.row, primary);
        p.symbols.push_back(b.symbol_of(to));
        l.row = to;
        l.fresh = false;
      } else {
        const std::uint64_t to = std::uint64_t(e & ~start_flag<E>);
        const std::uint16_t pair = pairs.pair_of(to);
        p.symbols.push_back(static_cast<std::uint8_t>(pair));  // BWT[row], then BWT[LF(row)]
        p.symbols.push_back(static_cast<std::uint8_t>(pair >> 8));
        l.row = to;
        l.fresh = false;
        __builtin_prefetch(&entries[to]);
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
  const symbol_buckets b(totals, rows);
  // About k start rows (two_steps), row 0 ("$", where the text's last symbol is) first.
  std::uint64_t k = std::min<std::uint64_t>(rows, walks_per_thread * std::uint64_t(threads));
  auto table = two_steps<E>(bwt, n, primary, b, counts, k);
  const std::vector<std::uint64_t> starts = std::move(table.starts);
  k = starts.size();

  std::vector<piece> pieces(k);
  const std::uint64_t expected_length = n / k + 1;
  // An exception must not leave an OpenMP region: the first one (out of memory, as the pieces
  // grow) is kept and thrown after it.
  std::exception_ptr failure;
#pragma omp parallel for num_threads(threads) schedule(static, 1) if (threads > 1)
  for (int part = 0; part < threads; ++part) {
    try {
      walk_pieces<E>(table, b, primary, starts, pieces, k * part / threads, k * (part + 1) / threads, expected_length);
    } catch (...) {
#pragma omp critical(strix_inverse_bwt_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
  table = {};  // freed before the text is allocated: the peak is the walks', not 4n more

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

std::vector<std::uint8_t> inverse_bwt_entries(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary,
                                              int threads, bool wide) {
  if (n == 0) return {};
  STRIX_USER_REQUIRE(primary >= 1 && primary <= n,
                     "inverse_bwt: primary index " + std::to_string(primary) + " is outside 1.." + std::to_string(n));
  const int t = std::max(1, thread_count(threads));
  // 32-bit entries while the row numbers leave the top bit for the start flag.
  if (!wide && n + 1 < (std::uint64_t(1) << 31)) return invert<std::uint32_t>(bwt, n, primary, t);
  return invert<std::uint64_t>(bwt, n, primary, t);
}

}  // namespace

std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, int threads) {
  return inverse_bwt_entries(bwt, n, primary, threads, false);
}

std::vector<std::uint8_t> detail::inverse_bwt_wide(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary,
                                                   int threads) {
  return inverse_bwt_entries(bwt, n, primary, threads, true);
}

std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary) {
  return inverse_bwt(bwt, n, primary, 0);
}

}  // namespace strix
