// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The MPI side of strix's distributed constructions: a communicator wrapper whose
// collectives never hang on a failed rank, and the layouts that say which rank owns which
// text position and which suffix-array row. Host code only (no Kokkos).
//
// Failures: every collective strix makes is preceded by an agreement (one small
// all-reduce). A rank whose local work threw joins the next agreement from its exception
// handler (see `collective::run`), so every rank leaves the call with the same strix::error:
// the one raised by the lowest failing rank, with its code and message.
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/error.hpp>

namespace strix::distributed {

// Rows or positions [begin, end) of each rank: offsets[r] .. offsets[r + 1].
struct layout {
  std::vector<std::uint64_t> offsets;  // size P + 1, ascending, offsets[0] == 0

  std::uint64_t total() const { return offsets.back(); }
  int ranks() const { return int(offsets.size()) - 1; }
  std::uint64_t begin(int r) const { return offsets[r]; }
  std::uint64_t end(int r) const { return offsets[r + 1]; }
  std::uint64_t size(int r) const { return offsets[r + 1] - offsets[r]; }
  // The rank owning element x < total(): the last r with offsets[r] <= x (empty ranks skipped).
  int owner(std::uint64_t x) const {
    return int(std::upper_bound(offsets.begin(), offsets.end(), x) - offsets.begin()) - 1;
  }
};

// n elements in P nearly equal blocks: the first n % P ranks hold one more. The layout of
// every distributed suffix array (rank r holds rows [begin(r), end(r))).
inline layout block_layout(std::uint64_t n, int ranks) {
  layout l;
  l.offsets.resize(std::size_t(ranks) + 1);
  const std::uint64_t q = n / std::uint64_t(ranks), extra = n % std::uint64_t(ranks);
  for (int r = 0; r <= ranks; ++r) l.offsets[r] = q * std::uint64_t(r) + std::min<std::uint64_t>(std::uint64_t(r), extra);
  return l;
}

template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same<T, std::uint8_t>::value || std::is_same<T, std::uint32_t>::value ||
                    std::is_same<T, std::uint64_t>::value || std::is_same<T, std::int64_t>::value ||
                    std::is_same<T, int>::value,
                "strix: no MPI type for this element type");
  if (std::is_same<T, std::uint8_t>::value) return MPI_UINT8_T;
  if (std::is_same<T, std::uint32_t>::value) return MPI_UINT32_T;
  if (std::is_same<T, std::uint64_t>::value) return MPI_UINT64_T;
  if (std::is_same<T, std::int64_t>::value) return MPI_INT64_T;
  return MPI_INT;
}

class collective {
 public:
  // An error every rank has (the lowest failing rank's): run() passes it on unchanged.
  struct agreed_failure : error {
    using error::error;
  };

  explicit collective(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    // The tests set a small round size so that the multi-round path runs on small inputs.
    if (const char* set = std::getenv("STRIX_DISTRIBUTED_CHUNK")) {
      const unsigned long long v = std::strtoull(set, nullptr, 10);
      if (v > 0) chunk_ = v;
    }
  }
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

  // Every rank calls this before a collective: returns when all are well, else throws the
  // lowest failing rank's error on every rank. `failure` is this rank's own, if any.
  void agree(const std::exception_ptr& failure = nullptr) const {
    int code = 0;
    std::string message;
    if (failure) {
      code = int(error_code::internal) + 1;
      try {
        std::rethrow_exception(failure);
      } catch (const error& e) {
        code = int(e.code()) + 1;
        message = e.what();
      } catch (const std::bad_alloc&) {
        code = int(error_code::host_out_of_memory) + 1;
        message = "out of host memory";
      } catch (const std::exception& e) {
        message = e.what();
      } catch (...) {
        message = "unknown failure";
      }
    }
    int mine = failure ? rank_ : size_, first = size_;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_);
    if (first == size_) return;
    std::uint64_t length = message.size();
    MPI_Bcast(&code, 1, MPI_INT, first, comm_);
    MPI_Bcast(&length, 1, MPI_UINT64_T, first, comm_);
    message.resize(length);
    if (length) MPI_Bcast(&message[0], int(length), MPI_CHAR, first, comm_);
    if (size_ > 1 && rank_ != first) message += " (rank " + std::to_string(first) + ")";
    throw agreed_failure(error_code(code - 1), message);
  }

  // Runs `step` on every rank and agrees afterwards: a failure on any rank becomes the same
  // error on all. `step` may make agreed collectives (and run() calls) of its own: a rank
  // that throws inside joins the agreement the others are waiting in, and an error already
  // agreed on passes through.
  template <class Step>
  auto run(Step&& step) const -> decltype(step()) {
    std::exception_ptr failure;
    if constexpr (std::is_void<decltype(step())>::value) {
      try {
        step();
      } catch (...) {
        failure = std::current_exception();
      }
      agree_or_rethrow(failure);
    } else {
      decltype(step()) result{};
      try {
        result = step();
      } catch (...) {
        failure = std::current_exception();
      }
      agree_or_rethrow(failure);
      return result;
    }
  }

  // Sum, maximum and minimum over ranks of one value; an agreement first.
  template <class T>
  T sum(T v) const { return reduce(v, MPI_SUM); }
  template <class T>
  T max(T v) const { return reduce(v, MPI_MAX); }
  template <class T>
  T min(T v) const { return reduce(v, MPI_MIN); }
  // Element-wise sums over ranks of a vector of equal size everywhere; an agreement first.
  template <class T>
  void sum_in_place(std::vector<T>& v) const {
    checked_agree();
    MPI_Allreduce(MPI_IN_PLACE, v.data(), int(v.size()), mpi_type<T>(), MPI_SUM, comm_);
  }
  // Every rank's value, in rank order; an agreement first.
  template <class T>
  std::vector<T> all_gather(T v) const {
    checked_agree();
    std::vector<T> all(size_);
    MPI_Allgather(&v, 1, mpi_type<T>(), all.data(), 1, mpi_type<T>(), comm_);
    return all;
  }
  // Every rank's vector (sizes may differ), concatenated in rank order; an agreement first.
  template <class T>
  std::vector<T> all_gather(const std::vector<T>& mine) const {
    const auto counts = all_gather<std::uint64_t>(mine.size());
    std::vector<int> c(size_), d(size_);
    std::uint64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      STRIX_REQUIRE(counts[r] <= std::uint64_t(std::numeric_limits<int>::max()));
      d[r] = int(total);
      c[r] = int(counts[r]);
      total += counts[r];
    }
    STRIX_REQUIRE(total <= std::uint64_t(std::numeric_limits<int>::max()));
    std::vector<T> all(total);
    MPI_Allgatherv(mine.data(), int(mine.size()), mpi_type<T>(), all.data(), c.data(), d.data(), mpi_type<T>(),
                   comm_);
    return all;
  }
  // The layout of `local` elements per rank, in rank order.
  layout gather_layout(std::uint64_t local) const {
    const auto sizes = all_gather<std::uint64_t>(local);
    layout l;
    l.offsets.assign(std::size_t(size_) + 1, 0);
    for (int r = 0; r < size_; ++r) l.offsets[r + 1] = l.offsets[r] + sizes[r];
    return l;
  }

  // Personalised all-to-all of host arrays: send[send_offsets[r] ..) goes to rank r, and
  // recv[recv_offsets[r] ..) comes from rank r (offsets of P + 1 entries). Split into
  // rounds so that no count passes MPI's int. No agreement: the caller agreed on the counts.
  template <class T>
  void all_to_all(const T* send, const std::vector<std::uint64_t>& send_offsets, T* recv,
                  const std::vector<std::uint64_t>& recv_offsets) const {
    for (int r = 0; r < size_; ++r)
      if (r != rank_) sent_ += (send_offsets[r + 1] - send_offsets[r]) * sizeof(T);
    const std::uint64_t chunk = chunk_;
    std::uint64_t most = 0;
    for (int r = 0; r < size_; ++r)
      most = std::max({most, send_offsets[r + 1] - send_offsets[r], recv_offsets[r + 1] - recv_offsets[r]});
    std::uint64_t rounds_here = (most + chunk - 1) / chunk, rounds = 0;
    MPI_Allreduce(&rounds_here, &rounds, 1, MPI_UINT64_T, MPI_MAX, comm_);
    std::vector<int> sc(size_), sd(size_), rc(size_), rd(size_);
    for (std::uint64_t k = 0; k < rounds; ++k) {
      // Displacements are ints too: past one direct exchange, each round packs its slices
      // into one buffer per direction.
      std::vector<T> sbuf, rbuf;
      std::uint64_t st = 0, rt = 0;
      for (int r = 0; r < size_; ++r) {
        const std::uint64_t s0 = std::min(send_offsets[r] + k * chunk, send_offsets[r + 1]);
        const std::uint64_t s1 = std::min(s0 + chunk, send_offsets[r + 1]);
        const std::uint64_t r0 = std::min(recv_offsets[r] + k * chunk, recv_offsets[r + 1]);
        const std::uint64_t r1 = std::min(r0 + chunk, recv_offsets[r + 1]);
        sc[r] = int(s1 - s0);
        rc[r] = int(r1 - r0);
        st += s1 - s0;
        rt += r1 - r0;
      }
      if (rounds == 1 && send_offsets.back() <= std::uint64_t(std::numeric_limits<int>::max()) &&
          recv_offsets.back() <= std::uint64_t(std::numeric_limits<int>::max())) {
        for (int r = 0; r < size_; ++r) {
          sd[r] = int(send_offsets[r]);
          rd[r] = int(recv_offsets[r]);
        }
        MPI_Alltoallv(send, sc.data(), sd.data(), mpi_type<T>(), recv, rc.data(), rd.data(), mpi_type<T>(), comm_);
        return;
      }
      sbuf.resize(st);
      rbuf.resize(rt);
      std::uint64_t at = 0;
      for (int r = 0; r < size_; ++r) {
        const std::uint64_t s0 = std::min(send_offsets[r] + k * chunk, send_offsets[r + 1]);
        std::copy(send + s0, send + s0 + sc[r], sbuf.begin() + at);
        sd[r] = int(at);
        at += sc[r];
      }
      at = 0;
      for (int r = 0; r < size_; ++r) {
        rd[r] = int(at);
        at += rc[r];
      }
      MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), mpi_type<T>(), rbuf.data(), rc.data(), rd.data(),
                    mpi_type<T>(), comm_);
      for (int r = 0; r < size_; ++r) {
        const std::uint64_t r0 = std::min(recv_offsets[r] + k * chunk, recv_offsets[r + 1]);
        std::copy(rbuf.begin() + rd[r], rbuf.begin() + rd[r] + rc[r], recv + r0);
      }
    }
  }

  // Bytes this rank sent to other ranks through all_to_all so far.
  std::uint64_t bytes_sent() const { return sent_; }

  // Exchanges per-destination counts (P each): returns what every rank sends here.
  std::vector<std::uint64_t> exchange_counts(const std::vector<std::uint64_t>& send_counts) const {
    checked_agree();
    std::vector<std::uint64_t> recv(size_);
    MPI_Alltoall(send_counts.data(), 1, MPI_UINT64_T, recv.data(), 1, MPI_UINT64_T, comm_);
    return recv;
  }

 private:
  void checked_agree() const { agree(); }
  void agree_or_rethrow(const std::exception_ptr& failure) const {
    if (failure) {
      try {
        std::rethrow_exception(failure);
      } catch (const agreed_failure&) {
        throw;  // every rank has it already
      } catch (...) {
      }
    }
    agree(failure);
  }
  template <class T>
  T reduce(T v, MPI_Op op) const {
    checked_agree();
    T out{};
    MPI_Allreduce(&v, &out, 1, mpi_type<T>(), op, comm_);
    return out;
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  mutable std::uint64_t sent_ = 0;
  // Elements per peer and round of all_to_all: counts and displacements are ints, and each
  // message stays within 1 GiB of 8-byte elements. (STRIX_DISTRIBUTED_CHUNK: tests only.)
  std::uint64_t chunk_ = std::uint64_t(1) << 27;
};

}  // namespace strix::distributed
