// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the distributed suffix array (strix/distributed/suffix_array.hpp): prefix
// doubling with discarding across ranks (Larsson–Sadakane's rank rule, distributed the way
// PSAC does it). Included by libstrix's instantiation files only.
//
// Every rank owns a contiguous slice of text positions and their current rank: the first
// row of the suffix's group, so that a singleton's rank is its final row. A round takes the
// suffixes of unfinished groups, fetches each one's rank h positions further from its
// owner, sample-sorts them globally by (rank, that rank), splits groups where the second
// rank changes, sends the new ranks back to the owners, and drops the suffixes that ended
// alone. The first round sorts by the first k characters, packed into 64 bits with the
// text's own alphabet (k = 21 for DNA, 8 for most text), so h starts at k. At the end every
// rank knows its positions' rows, and one exchange sends each position to its row's rank.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <strix/distributed/detail/cover_def.hpp>
#include <strix/distributed/detail/replicated_def.hpp>
#include <strix/distributed/detail/sample_sort.hpp>
#include <strix/distributed/suffix_array.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/sa/detail/alphabet.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::distributed::detail {

// The alphabet actually used, over all ranks: code[c] = 1 + its rank among used bytes
// (0 stands for past the end); sets the bits per character.
template <class ExecSpace>
std::vector<std::uint64_t> used_alphabet(const ExecSpace& space, const collective& c, const text_view<ExecSpace>& text,
                                         int& bits) {
  std::vector<std::uint32_t> counts(256, 0);  // ranks holding each byte
  c.run([&] {
    auto present = make_array<std::uint32_t, ExecSpace>("strix::alphabet", 256);
    strix::detail::mark_present_bytes(space, text, present);
    auto h = strix::to_host(space, present);
    for (int b = 0; b < 256; ++b) counts[b] = h(b);
  });
  c.sum_in_place(counts);
  std::vector<std::uint64_t> code(256, 0);
  std::uint64_t used = 0;
  for (int b = 0; b < 256; ++b)
    if (counts[b]) code[b] = ++used;
  bits = bits_for(used);
  return code;
}

// Where each element's run (equal rank and key) and group (equal rank) start in the global
// order, for the first elements that continue runs of earlier ranks, and whether the last
// element's run goes on at a later rank.
struct batch_seams {
  std::uint64_t first = 0;  // global index of this rank's first element
  bool run_continues = false, group_continues = false, run_goes_on = false;
  std::uint64_t run_start = 0, group_start = 0;
};

// Per rank: size, first rank and key, last rank and key, start (local) of the last run
// and the last group.
template <class I, class ExecSpace>
batch_seams find_seams(const ExecSpace& space, const collective& c, const suffix_batch<I, ExecSpace>& b) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  constexpr int fields = 7;
  std::vector<std::uint64_t> mine(fields, 0);
  c.run([&] {
    const std::uint64_t m = b.size();
    mine[0] = m;
    if (m == 0) return;
    auto rank = b.rank;
    auto key = b.key;
    std::uint64_t last_run = 0, last_group = 0;
    Kokkos::parallel_reduce(
        "strix::last_run", policy(space, 1, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
          if ((rank(j) != rank(j - 1) || key(j) != key(j - 1)) && std::uint64_t(j) > v) v = j;
        },
        Kokkos::Max<std::uint64_t>(last_run));
    Kokkos::parallel_reduce(
        "strix::last_group", policy(space, 1, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& v) {
          if (rank(j) != rank(j - 1) && std::uint64_t(j) > v) v = j;
        },
        Kokkos::Max<std::uint64_t>(last_group));
    I r0, r1;
    std::uint64_t k0, k1;
    strix::copy(space, Kokkos::View<I, Kokkos::HostSpace>(&r0), Kokkos::subview(rank, 0));
    strix::copy(space, Kokkos::View<I, Kokkos::HostSpace>(&r1), Kokkos::subview(rank, m - 1));
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace>(&k0), Kokkos::subview(key, 0));
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace>(&k1), Kokkos::subview(key, m - 1));
    space.fence();
    mine = {m, std::uint64_t(r0), k0, std::uint64_t(r1), k1, last_run, last_group};
  });
  const auto all = c.all_gather(mine);
  batch_seams seams;
  std::uint64_t global = 0;
  bool have_last = false;
  std::uint64_t last_rank = 0, last_key = 0, run_start = 0, group_start = 0;
  for (int q = 0; q < c.size(); ++q) {
    const std::uint64_t* f = &all[std::size_t(q) * fields];
    if (f[0] == 0) {
      if (q == c.rank()) seams.first = global;
      continue;
    }
    const bool run_continues = have_last && f[1] == last_rank && f[2] == last_key;
    const bool group_continues = have_last && f[1] == last_rank;
    if (q == c.rank()) {
      seams.first = global;
      seams.run_continues = run_continues;
      seams.group_continues = group_continues;
      seams.run_start = run_start;
      seams.group_start = group_start;
    }
    if (!(run_continues && f[5] == 0)) run_start = global + f[5];
    if (!(group_continues && f[6] == 0)) group_start = global + f[6];
    have_last = true;
    last_rank = f[3];
    last_key = f[4];
    global += f[0];
  }
  // Whether this rank's last run continues on the next non-empty rank.
  if (mine[0] > 0) {
    for (int q = c.rank() + 1; q < c.size(); ++q) {
      const std::uint64_t* f = &all[std::size_t(q) * fields];
      if (f[0] == 0) continue;
      seams.run_goes_on = f[1] == mine[3] && f[2] == mine[4];
      break;
    }
  }
  return seams;
}

// The closing scan of a round over a globally sorted batch: the new rank of every element
// (its group's first row plus where its run starts inside the group), and the survivors
// (elements whose run is not a singleton) with their new ranks.
template <class I, class ExecSpace>
struct closing_scan {
  struct value_type {
    std::uint64_t run, group;  // 1 + global index of the latest run / group start (max-scan)
    std::uint64_t kept;        // survivors so far (sum-scan)
  };
  array<I, ExecSpace> pos, rank, new_rank, kept_pos, kept_rank;
  array<std::uint64_t, ExecSpace> key;
  std::int64_t m;
  batch_seams seams;
  bool write;  // false: count the survivors only

  KOKKOS_INLINE_FUNCTION bool run_head(const std::int64_t j) const {
    if (j == 0) return !seams.run_continues;
    return rank(j) != rank(j - 1) || key(j) != key(j - 1);
  }
  KOKKOS_INLINE_FUNCTION bool group_head(const std::int64_t j) const {
    if (j == 0) return !seams.group_continues;
    return rank(j) != rank(j - 1);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t j, value_type& upd, const bool final) const {
    const std::uint64_t g = seams.first + std::uint64_t(j);
    if (run_head(j)) upd.run = g + 1;
    if (group_head(j)) upd.group = g + 1;
    const bool next_starts = j + 1 == m ? !seams.run_goes_on : run_head(j + 1);
    const bool single = run_head(j) && next_starts;
    if (final && write) {
      const std::uint64_t run_start = upd.run ? upd.run - 1 : seams.run_start;
      const std::uint64_t group_start = upd.group ? upd.group - 1 : seams.group_start;
      const I r = I(std::uint64_t(rank(j)) + (run_start - group_start));
      new_rank(j) = r;
      if (!single) {
        kept_pos(upd.kept) = pos(j);
        kept_rank(upd.kept) = r;
      }
    }
    if (!single) upd.kept += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.run = v.group = v.kept = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src.run > dst.run) dst.run = src.run;
    if (src.group > dst.group) dst.group = src.group;
    dst.kept += src.kept;
  }
  // Kokkos 3.x reduces through volatile references.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src.run > dst.run) dst.run = src.run;
    if (src.group > dst.group) dst.group = src.group;
    dst.kept += src.kept;
  }
};

// Whether free device memory is known here (devices: the construction is chosen by it).
template <class ExecSpace>
bool free_known() {
  return !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

// The constructions (the values of the counter distributed_replicated).
enum class construction : int { partitioned = 0, replicated = 1, shared = 2, cover = 3 };

// The construction asked for: STRIX_DISTRIBUTED_ALGORITHM, else "auto".
inline std::string asked_construction() {
  const char* asked = std::getenv("STRIX_DISTRIBUTED_ALGORITHM");
  return asked ? asked : "auto";
}

// Replicated ranks, shared ranks (replicated_def.hpp with the rank array split over the node:
// shared_ranks.hpp), the difference cover (cover_def.hpp) or the partitioned rounds below: asked
// for with STRIX_DISTRIBUTED_ALGORITHM=replicated|shared|cover|partitioned. By default, on
// devices: the difference cover at the largest period the keys allow (21 for DNA, 7 for bytes
// of text) in the fewest of 1, 2, 4 or 8 pieces that fit (the merge's arrays a piece at a
// time). On 2 and 4 H200s it beat both prefix-doubling constructions on 1 and 3.1 GB of DNA and
// on linux.tar, in 40-70 % of their memory (bench/RESULTS.md §65). Where it does not fit (in 8
// pieces, or its sample past 32-bit units: texts beyond about 10^10 bytes): shared ranks from 4
// ranks on, replicated below (each the other's fallback: replicated where shared ranks cannot
// map each other's memory, shared where replicated ones do not fit), as far as free memory
// holds them; else partitioned. Host ranks take partitioned: their free memory is not known, and on them
// the cover was the slower (§65). A rank's suffixes are taken as its largest slice or the even
// share with room for the sample's error, whichever is more, and 4 bytes each for the
// primitives' scratch.
// `held`: device bytes this rank's workspace holds already (free for the construction);
// `mapped`: the workspace holds shared ranks' parts over these ranks already (usable).
// `lean_period`: the cover's largest period the text's keys allow (7 where the alphabet is not
// known: the largest sample); `period` and `pieces`, where the difference cover is taken, get
// what it takes (asked for: STRIX_DISTRIBUTED_COVER's period or 7, in one piece).
template <class ExecSpace, class I>
construction choose_construction(const collective& c, const layout& positions, std::uint64_t held = 0,
                                 bool mapped = false, unsigned lean_period = 7, unsigned* period = nullptr,
                                 unsigned* pieces = nullptr) {
  const std::string asked = asked_construction();
  c.run([&] {
    STRIX_USER_REQUIRE(asked == "auto" || asked == "shared" || asked == "replicated" || asked == "partitioned" ||
                           asked == "cover",
                       "STRIX_DISTRIBUTED_ALGORITHM is '" + asked +
                           "'; it takes auto, shared, replicated, partitioned or cover");
  });
  if (asked == "partitioned") return construction::partitioned;
  if (asked == "cover") {
    if (period) *period = asked_cover_period(c);
    return construction::cover;
  }
  if (asked == "replicated") return construction::replicated;
  const auto usable = [&] { return mapped || node_parts<ExecSpace>::usable(c); };
  if (asked == "shared") {
    const bool ok = usable();
    c.run([&] {
      STRIX_USER_REQUIRE(ok, "STRIX_DISTRIBUTED_ALGORITHM=shared: the ranks must share one node and (GPUs) map "
                             "each other's memory (peer access), at most 16 ranks");
    });
    return construction::shared;
  }
  std::uint64_t largest = 0;
  for (int r = 0; r < positions.ranks(); ++r) largest = std::max(largest, positions.size(r));
  const std::uint64_t free = c.min<std::uint64_t>(
      c.run([&] {
        const std::uint64_t f = device_memory_in_use<ExecSpace>::free_bytes();
        return f ? f + held : 0;  // (0: not known)
      }));
  const auto fits = [&](std::uint64_t need) { return free > need + need / 8; };
  const std::uint64_t n = positions.total(), block = part_block(n, c.size());
  const std::uint64_t m = std::max(largest, expected_own_suffixes(n, c.size()));
  using shared_arrays = replicated_arrays<I, true, ExecSpace>;
  // Shared: the text, the part, the selection block, the rank's suffixes; routed (32-bit): the
  // pairs received for the part and the order of those sent.
  const std::uint64_t shared_need =
      n + block * sizeof(I) + std::max<std::uint64_t>(shared_arrays::own_block_bytes(m), n * sizeof(I)) +
      m * sizeof(I) + (shared_arrays::routed ? 2 * block * sizeof(I) + m * sizeof(I) : 0) + 4 * m + 4 * key_flag_words(n);
  const std::uint64_t replicated_need =
      n * (1 + 3 * sizeof(I)) + replicated_arrays<I, false, ExecSpace>::own_block_bytes(m) + 4 * m + 4 * key_flag_words(n);
  const bool shared_fits = free_known<ExecSpace>() && fits(shared_need);
  for (const unsigned s : {1u, 2u, 4u, 8u}) {
    if (free_known<ExecSpace>() && fits(cover_bytes<I, ExecSpace>(n, c.size(), m, lean_period, s))) {
      if (period) *period = lean_period;
      if (pieces) *pieces = s;
      return construction::cover;
    }
  }
  // From 4 ranks on, shared ranks before replicated ones: every replicated rank stores every
  // other's updates, work that grows with P (§59). (Their usability is asked only where they
  // would be taken: on GPUs it is a trial mapping.)
  const bool shared_first = c.size() >= 4;
  if (shared_first && shared_fits && usable()) return construction::shared;
  if (fits(replicated_need)) return construction::replicated;
  if (!shared_first && shared_fits && usable()) return construction::shared;
  return construction::partitioned;
}

// Makes the transport (an NCCL communicator) and opens its connections between every pair of
// ranks with a one-byte all-to-all. (I: the instantiation's index type; unused.)
template <class ExecSpace, class I>
void prepare_transport(const ExecSpace& space, MPI_Comm comm) {
  collective c(comm);
  choose_transport<ExecSpace>(c);
  if (c.size() == 1) return;
  array<std::uint8_t, ExecSpace> one;
  std::vector<std::uint64_t> offsets(std::size_t(c.size()) + 1);
  for (int r = 0; r <= c.size(); ++r) offsets[r] = std::uint64_t(r);
  c.run([&] {
    one = make_array<std::uint8_t, ExecSpace>("strix::transport_warm_up", std::uint64_t(c.size()));
    strix::fill(space, one, std::uint8_t(0));
  });
  auto back = send_arrays(space, c, one, offsets, offsets, "strix::transport_warm_up_back");
  c.run([&] { space.fence(); });
}

// The replicated or shared construction's arrays for a text of n bytes, with the rank's
// suffixes estimated (the build takes them again with the rank's true count, growing what is short).
template <class ExecSpace, class I, bool Shared>
void reserve_replicated(const ExecSpace& space, named_buffers& pool, std::uint64_t n, int ranks) {
  const std::uint64_t m = expected_own_suffixes(n, ranks);
  replicated_arrays<I, Shared, ExecSpace> a;
  using memory = typename ExecSpace::memory_space;
  decltype(a)::keep_own_buffers(pool);
  a.take_whole(pool, n, n);
  // (Shared: round 0 selects into the block of the rank's own arrays, so n entries at least;
  // taken first, so that take_own finds it large enough.)
  if (Shared) pool.take<unsigned char, memory>(decltype(a)::own_block, decltype(a)::selection_block_bytes(n, ranks));
  // The incoming pairs grow as the rank's own suffixes shrink: room for the fewest expected
  // (taken first too: one allocation).
  const std::uint64_t fewest = 2 * (n / std::uint64_t(ranks)) > m ? 2 * (n / std::uint64_t(ranks)) - m : 0;
  if (!Shared) pool.take<I, memory>("strix::incoming_pairs", 2 * (n - fewest));
  a.take_own(space, pool, n, ranks, m);
  if (Shared) pool.take<I, memory>("strix::own_suffixes", m);
  pool.scratch<ExecSpace>().result(64);  // (the scans' and the selection's totals)
}

template <class ExecSpace, class I>
void reserve_workspace(const ExecSpace& space, MPI_Comm comm, std::uint64_t slice_bytes,
                       const text_view<ExecSpace>* text_slice, workspace& ws) {
  collective c(comm);
  const layout positions = c.gather_layout(slice_bytes);
  const std::uint64_t n = positions.total();
  c.run([&] { strix::detail::require_sa_length<I, ExecSpace>(n); });
  if (n == 0 || c.size() == 1) return;
  choose_transport<ExecSpace>(c);
  const bool mapped = node_parts_held<ExecSpace>(ws.buffers(), c);
  // The cover's period: from the text's alphabet as the build finds it, or (alphabet unknown)
  // 7, the largest sample, which then serves every text of this size. (Every rank must call the
  // same overload: the alphabet is a collective pass. It is read only where the cover may be
  // chosen: asked for, or `auto` on devices.)
  const std::uint64_t with_text = c.sum<std::uint64_t>(text_slice ? 1 : 0);
  c.run([&] {
    STRIX_USER_REQUIRE(with_text == 0 || with_text == std::uint64_t(c.size()),
                       "strix::distributed::reserve: every rank must pass its text slice, or every rank its size");
  });
  const std::string asked = asked_construction();
  const bool cover_possible = asked == "cover" || (asked == "auto" && free_known<ExecSpace>());
  unsigned lean_period = 7, k = 64;
  const bool alphabet_known = text_slice && cover_possible;
  if (alphabet_known) {
    int bits = 0;
    used_alphabet(space, c, *text_slice, bits);
    k = bits == 0 ? 1 : 64 / bits;
    lean_period = clip_period(21, int(k));
  }
  unsigned chosen_period = lean_period, chosen_pieces = 1;
  const construction how = choose_construction<ExecSpace, I>(c, positions, ws.bytes<ExecSpace>(), mapped, lean_period,
                                                             &chosen_period, &chosen_pieces);
  // (As the build does: the period asked for clipped to the keys, 21 where the sample's units
  // would not fit 32 bits. Alphabet unknown: 7's sample, the largest any text may take.)
  unsigned period = alphabet_known ? clip_period(chosen_period, int(k)) : 7;
  if (!sample_fits(n, period)) period = clip_period(21, int(k));
  if (how != construction::shared) ws.buffers().drop_object();  // (collective)
  c.run([&] {
    if (how == construction::replicated) reserve_replicated<ExecSpace, I, false>(space, ws.buffers(), n, c.size());
    if (how == construction::shared) reserve_replicated<ExecSpace, I, true>(space, ws.buffers(), n, c.size());
    if (how == construction::cover)
      reserve_cover<ExecSpace, I>(space, ws.buffers(), c, n, c.size(), chosen_pieces, period);
  });
  ws.buffers().reserved_cover_period(how == construction::cover ? period : 0);
  // Shared ranks' rank array, mapped between the ranks now rather than in every call (after
  // reserve_replicated freed the buffers they do not take: those were counted as free memory).
  if (how == construction::shared)
    held_node_parts<ExecSpace>(ws.buffers(), c, part_entries(n, c.size(), c.rank()) * sizeof(I));
}

template <class ExecSpace, class I>
void build_suffix_array(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                        const device_view<I, ExecSpace>& sa, run_stats* stats, workspace* kept) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  collective c(comm);
  const layout positions = c.gather_layout(text.extent(0));
  const std::uint64_t n = positions.total();
  const layout rows = block_layout(n, c.size());
  c.run([&] {
    strix::detail::require_sa_length<I, ExecSpace>(n);
    STRIX_USER_REQUIRE(sa.extent(0) == rows.size(c.rank()),
                       "distributed suffix array: rank " + std::to_string(c.rank()) + " passed " +
                           std::to_string(sa.extent(0)) + " entries for rows " + std::to_string(rows.begin(c.rank())) +
                           ".." + std::to_string(rows.end(c.rank())) + " of " + std::to_string(n));
  });
  if (n == 0) return;
  if (c.size() == 1) {
    // One rank: the single-device construction (what `auto` picks) is the fastest path.
    c.run([&] { strix::suffix_array(space, text, sa, sa_options{}, stats); });
    return;
  }
  strix::detail::phase_timer<ExecSpace> timer(space, stats);
  timer.begin("distributed_transport_setup");
  choose_transport<ExecSpace>(c);
  workspace call_workspace;  // (without the caller's: one for this call)
  workspace& held = kept ? *kept : call_workspace;
  const bool mapped = node_parts_held<ExecSpace>(held.buffers(), c);
  const std::size_t held_bytes = c.run([&] { return held.bytes<ExecSpace>(); });
  device_peak_watch<ExecSpace> peak;  // from here: the transport's own buffers are not counted
  primitives::workspace<ExecSpace>& ws = held.buffers().scratch<ExecSpace>();
  timer.begin("distributed_initial_keys");
  const std::uint64_t lo = positions.begin(c.rank()), local = text.extent(0);

  // Round 0: the first k characters of every suffix, in the text's own alphabet.
  int bits = 0;
  const auto code = used_alphabet(space, c, text, bits);
  const int k = bits == 0 ? 1 : 64 / bits;
  // The transport's counters and the device peak (the caller's text slice and rows count too).
  const auto report = [&] {
    if (!stats) return;
    report_transport(c, stats, "distributed");
    c.run([&] { note_device_memory<ExecSpace>(); });  // (the workspace's buffers are alive until the end)
    stats->set_counter("distributed_device_peak_bytes",
                       free_known<ExecSpace>() ? peak.added() + held_bytes + local + sa.extent(0) * sizeof(I) : 0);
  };
  // The cover's period: the largest the keys allow, but none larger than a reserved
  // workspace's (reserve by size alone sizes period 7's sample and chooses its pieces by it).
  unsigned lean_period = clip_period(21, k);
  if (const unsigned reserved = held.buffers().reserved_cover_period()) lean_period = std::min(lean_period, reserved);
  unsigned chosen_period = 7, chosen_pieces = 1;
  const construction how = choose_construction<ExecSpace, I>(c, positions, held_bytes, mapped, lean_period,
                                                             &chosen_period, &chosen_pieces);
  if (stats) stats->set_counter("distributed_replicated", std::uint64_t(how));
  if (how != construction::shared) held.buffers().drop_object();  // (collective)
  // Held buffers counted as free above: those this construction does not take go now.
  c.run([&] {
    if (how == construction::shared) replicated_arrays<I, true, ExecSpace>::keep_own_buffers(held.buffers());
    else if (how == construction::replicated) replicated_arrays<I, false, ExecSpace>::keep_own_buffers(held.buffers());
    else if (how == construction::cover) cover_arrays<I, ExecSpace>::keep_buffers(held.buffers());
    else held.buffers().keep_only({});
  });
  if (how == construction::cover) {
    unsigned period = 0, pieces = 1;
    const auto work = cover_construction<I>(space, held.buffers(), c, text, positions, code, bits,
                                            Kokkos::View<I*, typename ExecSpace::memory_space>(sa), timer, kept != nullptr,
                                            chosen_period, chosen_pieces, period, pieces);
    c.run([&] { timer.end(); });
    if (stats) {
      stats->set_counter("distributed_rounds", std::uint64_t(work.rounds));
      stats->set_counter("distributed_sorted", work.sorted);
      stats->set_counter("distributed_cover", period);
      stats->set_counter("distributed_cover_pieces", pieces);
    }
    report();
    return;
  }
  if (how != construction::partitioned) {
    const Kokkos::View<I*, typename ExecSpace::memory_space> rows(sa);
    const auto work = how == construction::shared
                          ? replicated_rounds<I, true>(space, held.buffers(), c, text, positions, code, bits, rows, timer)
                          : replicated_rounds<I, false>(space, held.buffers(), c, text, positions, code, bits, rows, timer);
    c.run([&] { timer.end(); });
    if (stats) {
      stats->set_counter("distributed_rounds", std::uint64_t(work.rounds));
      stats->set_counter("distributed_sorted", work.sorted);
    }
    report();
    return;
  }
  const std::uint64_t reach = std::min<std::uint64_t>(positions.end(c.rank()) + std::uint64_t(k - 1), n);
  const std::uint64_t overlap = reach - positions.end(c.rank());
  array<std::uint8_t, ExecSpace> tail;
  {
    array<std::uint64_t, ExecSpace> targets;
    const std::uint64_t from = positions.end(c.rank());
    c.run([&] {
      targets = make_array<std::uint64_t, ExecSpace>("strix::overlap_targets", overlap);
      Kokkos::parallel_for("strix::overlap", policy(space, 0, std::int64_t(overlap)),
                           KOKKOS_LAMBDA(const std::int64_t j) { targets(j) = from + j; });
    });
    tail = fetch<std::uint8_t, I>(space, ws, c, targets, overlap, positions,
                                  Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>(text));
  }
  suffix_batch<I, ExecSpace> batch;
  array<I, ExecSpace> rank_of;
  c.run([&] {
    auto codes = make_array<std::uint64_t, ExecSpace>("strix::codes", 256);
    {
      auto h = Kokkos::create_mirror_view(codes);
      for (int b = 0; b < 256; ++b) h(b) = code[b];
      strix::copy(space, codes, h);
    }
    batch.pos = make_array<I, ExecSpace>("strix::batch_pos", local);
    batch.rank = make_array<I, ExecSpace>("strix::batch_rank", local);
    batch.key = make_array<std::uint64_t, ExecSpace>("strix::batch_key", local);
    auto pos = batch.pos, rank = batch.rank;
    auto key = batch.key;
    Kokkos::parallel_for(
        "strix::initial_keys", policy(space, 0, std::int64_t(local)), KOKKOS_LAMBDA(const std::int64_t j) {
          std::uint64_t v = 0;
          for (int t = 0; t < k; ++t) {
            const std::uint64_t at = std::uint64_t(j) + std::uint64_t(t);
            const std::uint64_t ch = at < local ? codes(text(at)) : (at - local < overlap ? codes(tail(at - local)) : 0);
            v = (v << bits) | ch;
          }
          pos(j) = I(lo + j);
          rank(j) = 0;
          key(j) = v;
        });
  });
  tail = array<std::uint8_t, ExecSpace>();
  c.run([&] { rank_of = make_array<I, ExecSpace>("strix::rank_of", local); });

  const int rank_bits = bits_for(n - 1);
  int key_bits = k * bits;
  std::uint64_t h = std::uint64_t(k);
  for (int round = 0;; ++round) {
    sample_sort(space, ws, c, batch, round == 0 ? 0 : rank_bits, key_bits, timer);
    timer.begin("distributed_split_groups");
    const batch_seams seams = find_seams(space, c, batch);
    const std::uint64_t m = batch.size();
    array<I, ExecSpace> new_rank;
    suffix_batch<I, ExecSpace> next;
    c.run([&] {
      closing_scan<I, ExecSpace> scan{batch.pos, batch.rank, {}, {}, {}, batch.key, std::int64_t(m), seams, false};
      typename closing_scan<I, ExecSpace>::value_type total{};
      primitives::scan(space, ws, "strix::distributed_count", scan, std::int64_t(m), total);
      new_rank = make_array<I, ExecSpace>("strix::new_rank", m);
      next.pos = make_array<I, ExecSpace>("strix::next_pos", total.kept);
      next.rank = make_array<I, ExecSpace>("strix::next_rank", total.kept);
      scan.new_rank = new_rank;
      scan.kept_pos = next.pos;
      scan.kept_rank = next.rank;
      scan.write = true;
      primitives::scan(space, ws, "strix::distributed_close", scan, std::int64_t(m), total);
    });
    timer.begin("distributed_push_ranks");
    // (The sort's ranks and keys are spent: their memory goes before the push's buffers come.)
    batch.rank = array<I, ExecSpace>();
    batch.key = array<std::uint64_t, ExecSpace>();
    push<I, I>(space, ws, c, batch.pos, new_rank, m, positions, rank_of);
    batch = suffix_batch<I, ExecSpace>();
    new_rank = array<I, ExecSpace>();
    const std::uint64_t left = c.sum<std::uint64_t>(next.pos.extent(0));
    if (stats) stats->set_counter("distributed_rounds", std::uint64_t(round) + 1);
    if (left == 0) break;
    // The next key of each survivor: the rank h positions further (0 past the end).
    timer.begin("distributed_fetch_ranks");
    const std::uint64_t kept = next.pos.extent(0);
    array<std::uint64_t, ExecSpace> targets;
    c.run([&] {
      targets = make_array<std::uint64_t, ExecSpace>("strix::next_targets", kept);
      auto pos = next.pos;
      Kokkos::parallel_for(
          "strix::next_targets", policy(space, 0, std::int64_t(kept)), KOKKOS_LAMBDA(const std::int64_t j) {
            const std::uint64_t t = std::uint64_t(pos(j)) + h;
            targets(j) = t < n ? t : n - 1;
          });
    });
    auto further = fetch<I, I>(space, ws, c, targets, kept, positions,
                               Kokkos::View<const I*, typename ExecSpace::memory_space>(rank_of));
    c.run([&] {
      next.key = make_array<std::uint64_t, ExecSpace>("strix::next_key", kept);
      auto pos = next.pos;
      auto key = next.key;
      Kokkos::parallel_for(
          "strix::next_keys", policy(space, 0, std::int64_t(kept)), KOKKOS_LAMBDA(const std::int64_t j) {
            key(j) = std::uint64_t(pos(j)) + h < n ? std::uint64_t(further(j)) + 1 : 0;
          });
    });
    batch = next;
    key_bits = bits_for(n);
    h *= 2;
  }
  // Every rank is a row now: send each position to its row's rank.
  timer.begin("distributed_place");
  {
    array<I, ExecSpace> pos;
    c.run([&] {
      pos = make_array<I, ExecSpace>("strix::final_pos", local);
      Kokkos::parallel_for("strix::final_pos", policy(space, 0, std::int64_t(local)),
                           KOKKOS_LAMBDA(const std::int64_t j) { pos(j) = I(lo + j); });
    });
    push<I, I>(space, ws, c, rank_of, pos, local, rows, Kokkos::View<I*, typename ExecSpace::memory_space>(sa));
  }
  c.run([&] {
    timer.end();
    space.fence();  // the rows are in place when the call returns
  });
  report();
}

}  // namespace strix::distributed::detail

#define STRIX_DISTRIBUTED_SA_INSTANTIATE(SPACE, I)                                              \
  template void strix::distributed::detail::reserve_workspace<SPACE, I>(                        \
      const SPACE&, MPI_Comm, std::uint64_t, const strix::text_view<SPACE>*,                    \
      strix::distributed::workspace&);                                                          \
  template void strix::distributed::detail::build_suffix_array<SPACE, I>(                       \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<I, SPACE>&, \
      strix::run_stats*, strix::distributed::workspace*);                                       \
  template void strix::distributed::detail::prepare_transport<SPACE, I>(const SPACE&, MPI_Comm);
