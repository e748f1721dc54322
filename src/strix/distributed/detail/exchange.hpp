// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Moving arrays between ranks: elements grouped by the rank they go to (a radix sort of
// destinations, strix's primitive), sent with one personalised all-to-all by the transport
// the call chose (detail/transport.hpp: MPI on host arrays, NCCL or CUDA-aware MPI on device
// arrays, else staged through host memory), and the two patterns built on it: pushing values
// to the owners of positions, and fetching the values that other ranks own. Positions travel
// as offsets into the owner's slice, in the index type. Included by the distributed
// definitions only.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include <strix/core/bits.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/distributed/communicator.hpp>
#include <strix/distributed/detail/device_peak.hpp>
#include <strix/distributed/detail/transport.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::distributed::detail {

template <class T, class ExecSpace>
using array = Kokkos::View<T*, typename ExecSpace::memory_space>;

using strix::detail::bits_for;

template <class T, class ExecSpace>
array<T, ExecSpace> make_array(const char* label, std::uint64_t n) {
  auto a = strix::detail::allocate<T, typename ExecSpace::memory_space>(label, n);
  note_device_memory<ExecSpace>();
  return a;
}

// Where each element of a local array goes: `order` lists the elements by destination rank
// (stable), and offsets[r] .. offsets[r + 1] of it go to rank r.
template <class I, class ExecSpace>
struct routing {
  array<I, ExecSpace> order;
  std::vector<std::uint64_t> offsets;
  array<std::uint64_t, ExecSpace> owners;  // the layout's P + 1 offsets, on the device
};

// The rank owning position x, given a layout's P + 1 offsets on the device: the last r with
// offsets(r) <= x.
template <class Offsets>
KOKKOS_INLINE_FUNCTION int owner_of(const Offsets& offsets, const int ranks, const std::uint64_t x) {
  int lo = 0, hi = ranks;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    if (offsets(mid) <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Routing of m elements whose destinations are the owners (in `to`) of `targets`.
template <class I, class ExecSpace, class Targets>
routing<I, ExecSpace> route_to_owners(const ExecSpace& space, primitives::workspace<ExecSpace>& ws,
                                      const Targets& targets, std::uint64_t m, const layout& to) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const int ranks = to.ranks();
  routing<I, ExecSpace> out;
  out.offsets.assign(std::size_t(ranks) + 1, 0);
  auto order = make_array<I, ExecSpace>("strix::route_order", m);
  Kokkos::parallel_for("strix::route_iota", policy(space, 0, std::int64_t(m)),
                       KOKKOS_LAMBDA(const std::int64_t j) { order(j) = I(j); });
  auto offsets = make_array<std::uint64_t, ExecSpace>("strix::route_offsets", ranks + 1);
  {
    auto h = Kokkos::create_mirror_view(offsets);
    for (int r = 0; r <= ranks; ++r) h(r) = to.offsets[r];
    strix::copy(space, offsets, h);
  }
  out.owners = offsets;
  if (ranks == 1) {
    out.offsets[1] = m;
    out.order = order;
    return out;
  }
  auto dest = make_array<std::uint32_t, ExecSpace>("strix::route_dest", m);
  Kokkos::parallel_for(
      "strix::route_owner", policy(space, 0, std::int64_t(m)),
      KOKKOS_LAMBDA(const std::int64_t j) { dest(j) = std::uint32_t(owner_of(offsets, ranks, targets(j))); });
  auto dest_alt = make_array<std::uint32_t, ExecSpace>("strix::route_dest_alt", m);
  auto order_alt = make_array<I, ExecSpace>("strix::route_order_alt", m);
  ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, I>(space, m));
  const bool in_alt = primitives::radix_sort_pairs<std::uint32_t, I>(space, ws, dest, dest_alt, order, order_alt, 0,
                                                                     bits_for(std::uint64_t(ranks - 1)));
  auto sorted_dest = in_alt ? dest_alt : dest;
  out.order = in_alt ? order_alt : order;
  // offsets[r]: the first sorted destination >= r.
  auto bounds = make_array<std::uint64_t, ExecSpace>("strix::route_bounds", ranks + 1);
  Kokkos::parallel_for(
      "strix::route_bounds", policy(space, 0, ranks + 1), KOKKOS_LAMBDA(const std::int64_t r) {
        std::uint64_t lo = 0, hi = m;
        while (lo < hi) {
          const std::uint64_t mid = lo + (hi - lo) / 2;
          if (std::int64_t(sorted_dest(mid)) < r) lo = mid + 1;
          else hi = mid;
        }
        bounds(r) = lo;
      });
  auto h = strix::to_host(space, bounds);
  for (int r = 0; r <= ranks; ++r) out.offsets[r] = h(r);
  return out;
}

// Counts to receive, from the counts to send (offsets of P + 1 entries each).
inline std::vector<std::uint64_t> receive_offsets(const collective& c, const std::vector<std::uint64_t>& send_offsets) {
  std::vector<std::uint64_t> counts(c.size());
  for (int r = 0; r < c.size(); ++r) counts[r] = send_offsets[r + 1] - send_offsets[r];
  const auto recv = c.exchange_counts(counts);
  std::vector<std::uint64_t> offsets(std::size_t(c.size()) + 1, 0);
  for (int r = 0; r < c.size(); ++r) offsets[r + 1] = offsets[r] + recv[r];
  return offsets;
}

// values(order(k)) for k in [0, m): the elements in routing order.
template <class T, class I, class ExecSpace, class Values>
array<T, ExecSpace> gather_in_order(const ExecSpace& space, const Values& values, const array<I, ExecSpace>& order,
                                    const char* label) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  auto out = make_array<T, ExecSpace>(label, order.extent(0));
  Kokkos::parallel_for(
      label, policy(space, 0, std::int64_t(order.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t k) { out(k) = T(values(order(k))); });
  return out;
}

// targets(order(k)) as an offset into its owner's slice (owners: P + 1 layout offsets; the
// routing order puts each target's owner in [route.offsets[r], route.offsets[r + 1])).
template <class I, class ExecSpace, class Targets>
array<I, ExecSpace> owner_offsets_in_order(const ExecSpace& space, const Targets& targets,
                                           const routing<I, ExecSpace>& route, const char* label) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const auto order = route.order;
  const auto owners = route.owners;
  const int ranks = int(owners.extent(0)) - 1;
  auto out = make_array<I, ExecSpace>(label, order.extent(0));
  Kokkos::parallel_for(
      label, policy(space, 0, std::int64_t(order.extent(0))), KOKKOS_LAMBDA(const std::int64_t k) {
        const std::uint64_t x = targets(order(k));
        out(k) = I(x - owners(owner_of(owners, ranks, x)));
      });
  return out;
}

// Moves `send` between the ranks by the call's transport into a new array of `received`
// elements: by_device(from, to) queues NCCL's transfer on the space's stream (no host wait);
// by_mpi(from, to) moves host memory, or device memory a CUDA-aware MPI takes, through MPI.
// Staged: uninitialised host arrays, filled and drained by copies on the space. (Like every
// function here that communicates, it runs its local steps inside collective::run, so that a
// rank failing in one, e.g. out of memory, fails all ranks at the next agreement instead of
// leaving them inside a collective. The counts were agreed on before: every rank reaches the
// transport.)
// `into`: a buffer of at least `received` elements to receive in (kept by the caller; the
// result then views it), else a new array.
template <class T, class ExecSpace, class ByDevice, class ByMpi>
array<T, ExecSpace> move_arrays(const ExecSpace& space, const collective& c, const array<T, ExecSpace>& send,
                                std::uint64_t received, const char* label, const ByDevice& by_device,
                                const ByMpi& by_mpi, const array<T, ExecSpace>& into = {}) {
  using memory = typename ExecSpace::memory_space;
  array<T, ExecSpace> recv;
  const auto receive_buffer = [&] {
    return into.extent(0) >= received ? array<T, ExecSpace>(into.data(), received)
                                      : make_array<T, ExecSpace>(label, received);
  };
  const auto kind = transport_kind(c.transport());
  if (kind == transport_kind::nccl) {
    c.run([&] { recv = receive_buffer(); });
    c.run([&] { by_device(send.data(), recv.data()); });
    return recv;
  }
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory>::accessible || kind == transport_kind::mpi_device) {
    c.run([&] {
      recv = receive_buffer();
      space.fence();  // MPI reads `send` now
    });
    by_mpi(send.data(), recv.data());
    return recv;
  }
  Kokkos::View<T*, Kokkos::HostSpace> send_host, recv_host;
  c.run([&] {
    recv = receive_buffer();
    send_host = strix::detail::allocate<T, Kokkos::HostSpace>("strix::staged_send", send.extent(0));
    recv_host = strix::detail::allocate<T, Kokkos::HostSpace>("strix::staged_recv", received);
    strix::copy(space, send_host, send);
    space.fence();
  });
  by_mpi(send_host.data(), recv_host.data());
  c.run([&] {
    strix::copy(space, recv, recv_host);
    space.fence();
  });
  return recv;
}

// Offsets of P + 1 elements as bytes.
template <class T>
std::vector<std::uint64_t> byte_offsets(const std::vector<std::uint64_t>& offsets) {
  std::vector<std::uint64_t> b(offsets.size());
  for (std::size_t r = 0; r < b.size(); ++r) b[r] = offsets[r] * sizeof(T);
  return b;
}

// Sends send[send_offsets[r] ..) to rank r; returns what arrived, ordered by source rank.
template <class T, class ExecSpace>
array<T, ExecSpace> send_arrays(const ExecSpace& space, const collective& c, const array<T, ExecSpace>& send,
                                const std::vector<std::uint64_t>& send_offsets,
                                const std::vector<std::uint64_t>& recv_offsets, const char* label,
                                const array<T, ExecSpace>& into = {}) {
  return move_arrays(
      space, c, send, recv_offsets.back(), label,
      [&](const T* from, T* to) {
        const auto sb = byte_offsets<T>(send_offsets), rb = byte_offsets<T>(recv_offsets);
        device_transport<ExecSpace>::all_to_all(space, c.transport_handle(), c.size(), c.rank(), from, sb.data(), to,
                                                rb.data());
        std::uint64_t others = 0, messages = 0;
        for (int r = 0; r < c.size(); ++r)
          if (r != c.rank() && send_offsets[r + 1] > send_offsets[r]) {
            others += sb[r + 1] - sb[r];
            ++messages;
          }
        c.count_transport(others, messages, 0.0);
      },
      [&](const T* from, T* to) { c.all_to_all(from, send_offsets, to, recv_offsets); }, into);
}

// Every rank's `send` to every rank; returns them concatenated in rank order (recv_offsets:
// P + 1, agreed on before).
template <class T, class ExecSpace>
array<T, ExecSpace> gather_arrays(const ExecSpace& space, const collective& c, const array<T, ExecSpace>& send,
                                  const std::vector<std::uint64_t>& recv_offsets, const char* label,
                                  const array<T, ExecSpace>& into = {}) {
  const std::uint64_t count = send.extent(0);
  return move_arrays(
      space, c, send, recv_offsets.back(), label,
      [&](const T* from, T* to) {
        const auto rb = byte_offsets<T>(recv_offsets);
        device_transport<ExecSpace>::all_gather(space, c.transport_handle(), c.size(), c.rank(), from,
                                                count * sizeof(T), to, rb.data());
        c.count_transport(count * sizeof(T) * std::uint64_t(c.size() - 1), count ? std::uint64_t(c.size() - 1) : 0, 0.0);
      },
      [&](const T* from, T* to) { c.all_gather(from, count, to, recv_offsets); }, into);
}

// For every target t (global positions of `from`, any order), values owned by t's rank:
// result(j) = owned(targets(j) - from.begin(owner)). m targets; `owned` is this rank's slice.
template <class T, class I, class ExecSpace, class Targets>
array<T, ExecSpace> fetch(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                          const Targets& targets, std::uint64_t m, const layout& from,
                          const Kokkos::View<const T*, typename ExecSpace::memory_space>& owned) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  routing<I, ExecSpace> route;
  array<I, ExecSpace> requests;
  c.run([&] {
    route = route_to_owners<I>(space, ws, targets, m, from);
    requests = owner_offsets_in_order<I>(space, targets, route, "strix::fetch_requests");
  });
  const auto incoming = receive_offsets(c, route.offsets);
  auto asked = send_arrays(space, c, requests, route.offsets, incoming, "strix::fetch_asked");
  array<T, ExecSpace> answers;
  c.run([&] {
    Kokkos::resize(requests, 0);
    answers = make_array<T, ExecSpace>("strix::fetch_answers", asked.extent(0));
    Kokkos::parallel_for(
        "strix::fetch_answer", policy(space, 0, std::int64_t(asked.extent(0))),
        KOKKOS_LAMBDA(const std::int64_t k) { answers(k) = owned(asked(k)); });
    Kokkos::resize(asked, 0);
  });
  auto replies = send_arrays(space, c, answers, incoming, route.offsets, "strix::fetch_replies");
  array<T, ExecSpace> result;
  c.run([&] {
    result = make_array<T, ExecSpace>("strix::fetch_result", m);
    auto order = route.order;
    Kokkos::parallel_for(
        "strix::fetch_place", policy(space, 0, std::int64_t(m)),
        KOKKOS_LAMBDA(const std::int64_t k) { result(order(k)) = replies(k); });
    space.fence();
  });
  return result;
}

// Sends (target, value) pairs to the owners of the targets (in `to`), which store
// owned(target - to.begin(rank)) = value. Every target is written once.
template <class T, class I, class ExecSpace, class Targets, class Values>
void push(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c, const Targets& targets,
          const Values& values, std::uint64_t m, const layout& to,
          const Kokkos::View<T*, typename ExecSpace::memory_space>& owned) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  routing<I, ExecSpace> route;
  array<I, ExecSpace> sent_targets;
  array<T, ExecSpace> sent_values;
  c.run([&] {
    route = route_to_owners<I>(space, ws, targets, m, to);
    sent_targets = owner_offsets_in_order<I>(space, targets, route, "strix::push_targets");
    sent_values = gather_in_order<T>(space, values, route.order, "strix::push_values");
    Kokkos::resize(route.order, 0);
  });
  const auto incoming = receive_offsets(c, route.offsets);
  auto got_targets = send_arrays(space, c, sent_targets, route.offsets, incoming, "strix::push_got_targets");
  Kokkos::resize(sent_targets, 0);
  auto got_values = send_arrays(space, c, sent_values, route.offsets, incoming, "strix::push_got_values");
  c.run([&] {
    Kokkos::parallel_for(
        "strix::push_store", policy(space, 0, std::int64_t(got_targets.extent(0))),
        KOKKOS_LAMBDA(const std::int64_t k) { owned(got_targets(k)) = got_values(k); });
  });
}

}  // namespace strix::distributed::detail
