// SPDX-License-Identifier: BSD-3-Clause
// The Kokkos half of distributed_job: every local step runs inside the ranks' agreement
// (collective::run), so that a rank failing here (memory, a device error) fails all ranks
// together instead of leaving them waiting.
#include "distributed_job.hpp"

#include <strix/config.hpp>
#if STRIX_HAS_MPI
#include <strix/distributed/suffix_array.hpp>
#endif

#include "../session_dispatch.hpp"

namespace strix::cli {

#if STRIX_HAS_MPI
namespace {

using strix::distributed::collective;

// The transport between the ranks (an NCCL communicator and its connections), a stage of its
// own: a process pays it once, not every construction.
template <class Typed>
void prepare_ranks(session& s, Typed& typed, const collective& c) {
  const auto t0 = s.begin_stage("transport setup");
  strix::distributed::prepare(typed.space(), c.comm());
  c.run([&] { s.end_stage("transport_setup", t0); });
}

// The text slice on the device, and this rank's suffix-array rows built from it.
template <class Typed, class I>
auto build_rows(session& s, Typed& typed, const collective& c, const host_buffer& slice, std::uint64_t bytes,
                std::uint64_t n) {
  using memory = typename Typed::memory_space;
  Kokkos::View<std::uint8_t*, memory> text;
  c.run([&] {
    const auto t0 = s.begin_stage("copy to device");
    text = typed.template to_device<std::uint8_t>(slice, bytes, "strix::text");
    s.end_stage("copy_to_device", t0);
  });
  Kokkos::View<I*, memory> sa;
  c.run([&] { sa = detail::allocate<I, memory>("strix::sa", strix::distributed::suffix_array_rows(n, c.size()).size(c.rank())); });
  prepare_ranks(s, typed, c);
  // The construction's working memory before the clock, as the single-device path reserves
  // its own (allocate_seconds); freed when the rows are built.
  strix::distributed::workspace held;
  const auto t_reserve = session::clock::now();
  strix::distributed::reserve<I>(typed.space(), c.comm(), text, held);  // (from the text: the cover's period known)
  c.run([&] { s.add_allocate_time(t_reserve); });
  const auto t0 = s.begin_stage("suffix array");
  strix::distributed::suffix_array(typed.space(), c.comm(), text, sa, &s.report().library, &held);
  c.run([&] { s.end_stage("suffix_array", t0); });
  return std::make_pair(text, sa);
}

}  // namespace

host_buffer distributed_job::suffix_array(const host_buffer& slice, std::uint64_t bytes, std::uint64_t n) {
  const collective c(MPI_COMM_WORLD);
  return on_space_and_width(s_, [&](auto& typed, auto index) {
    using I = decltype(index);
    auto built = build_rows<std::decay_t<decltype(typed)>, I>(s_, typed, c, slice, bytes, n);
    return c.run([&] {
      const auto t0 = s_.begin_stage("copy to host");
      host_buffer out = typed.to_host(built.second);
      s_.end_stage("copy_to_host", t0);
      return out;
    });
  });
}

host_buffer distributed_job::bwt(const host_buffer& slice, std::uint64_t bytes, std::uint64_t n,
                                 std::uint64_t& primary) {
  const collective c(MPI_COMM_WORLD);
  return on_space_and_width(s_, [&](auto& typed, auto index) {
    using I = decltype(index);
    using memory = typename std::decay_t<decltype(typed)>::memory_space;
    auto built = build_rows<std::decay_t<decltype(typed)>, I>(s_, typed, c, slice, bytes, n);
    Kokkos::View<std::uint8_t*, memory> out;
    c.run([&] { out = detail::allocate<std::uint8_t, memory>("strix::bwt", built.second.extent(0)); });
    const auto t0 = s_.begin_stage("bwt");
    primary = strix::distributed::bwt(typed.space(), c.comm(), built.first, built.second, out, &s_.report().library);
    return c.run([&] {
      s_.end_stage("bwt", t0);
      const auto t1 = s_.begin_stage("copy to host");
      host_buffer h = typed.to_host(out);
      s_.end_stage("copy_to_host", t1);
      return h;
    });
  });
}

std::string distributed_job::check(const host_buffer& slice, std::uint64_t bytes, const host_buffer& rows,
                                   std::uint64_t count) {
  const collective c(MPI_COMM_WORLD);
  return on_space_and_width(s_, [&](auto& typed, auto index) {
    using I = decltype(index);
    using memory = typename std::decay_t<decltype(typed)>::memory_space;
    Kokkos::View<std::uint8_t*, memory> text;
    Kokkos::View<I*, memory> sa;
    c.run([&] {
      const auto t0 = s_.begin_stage("copy to device");
      text = typed.template to_device<std::uint8_t>(slice, bytes, "strix::text");
      sa = typed.template to_device<I>(rows, count, "strix::sa");
      s_.end_stage("copy_to_device", t0);
    });
    prepare_ranks(s_, typed, c);
    const auto t0 = s_.begin_stage("check");
    const auto result = strix::distributed::check(typed.space(), c.comm(), text, sa);
    c.run([&] { s_.end_stage("check", t0); });
    return result.ok ? std::string() : result.message;
  });
}
#else
host_buffer distributed_job::suffix_array(const host_buffer&, std::uint64_t, std::uint64_t) {
  throw error(error_code::invalid_input, "this strix is built without MPI");
}
host_buffer distributed_job::bwt(const host_buffer&, std::uint64_t, std::uint64_t, std::uint64_t&) {
  throw error(error_code::invalid_input, "this strix is built without MPI");
}
std::string distributed_job::check(const host_buffer&, std::uint64_t, const host_buffer&, std::uint64_t) {
  throw error(error_code::invalid_input, "this strix is built without MPI");
}
#endif

}  // namespace strix::cli
