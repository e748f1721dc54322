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
#include <utility>
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

  // Personalised all-to-all: send[send_offsets[r] ..) goes to rank r, and recv[recv_offsets[r]
  // ..) comes from rank r (offsets of P + 1 entries). Point to point, one nonblocking send and
  // receive per peer and chunk of at most `chunk` elements (counts are ints), straight from and
  // into the arrays: no packing, so the pointers may be device memory where the MPI accepts it
  // (CUDA-aware MPI). The part a rank keeps goes through MPI too (a copy). No agreement: the
  // caller agreed on the counts.
  template <class T>
  void all_to_all(const T* send, const std::vector<std::uint64_t>& send_offsets, T* recv,
                  const std::vector<std::uint64_t>& recv_offsets) const {
    exchange(recv, recv_offsets, [&](int r) {
      return std::make_pair(send + send_offsets[r], send_offsets[r + 1] - send_offsets[r]);
    });
  }

  // Every rank's `count` elements at `send` to every rank: recv[recv_offsets[r] ..) gets rank
  // r's. Point to point like all_to_all (any memory the MPI accepts); no agreement. A rank
  // whose own range in recv_offsets is empty keeps its part out (a gather of the others').
  template <class T>
  void all_gather(const T* send, std::uint64_t count, T* recv, const std::vector<std::uint64_t>& recv_offsets) const {
    const bool keep_own = recv_offsets[rank_ + 1] > recv_offsets[rank_];
    exchange(recv, recv_offsets,
             [&](int r) { return std::make_pair(send, r == rank_ && !keep_own ? std::uint64_t(0) : count); });
  }

  // What a transport outside this class (NCCL) moved, for the same counters.
  void count_transport(std::uint64_t bytes_to_others, std::uint64_t messages, double seconds) const {
    sent_ += bytes_to_others;
    messages_ += messages;
    transport_seconds_ += seconds;
  }
  // Non-empty messages this rank sent to other ranks, and seconds spent moving data (waits
  // for the other ranks included).
  std::uint64_t messages_sent() const { return messages_; }
  double transport_seconds() const { return transport_seconds_; }

  // The transport the distributed definitions chose for this call (detail/transport.hpp's
  // transport_kind, and its handle: an NCCL communicator).
  void use_transport(int kind, void* handle) {
    transport_ = kind;
    transport_handle_ = handle;
  }
  int transport() const { return transport_; }
  void* transport_handle() const { return transport_handle_; }

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
  // Receives recv[recv_offsets[r] ..) from every rank r and sends source(r) = (pointer, count)
  // to it, in messages of at most chunk_ elements; waits for all.
  template <class T, class Source>
  void exchange(T* recv, const std::vector<std::uint64_t>& recv_offsets, const Source& source) const {
    const auto t0 = MPI_Wtime();
    std::vector<MPI_Request> requests;
    const std::uint64_t chunk = chunk_;
    // Receives first, from the next rank on, so that every pair's messages meet early.
    for (int step = 0; step < size_; ++step) {
      const int r = (rank_ + size_ - step) % size_;
      for (std::uint64_t at = recv_offsets[r]; at < recv_offsets[r + 1]; at += chunk) {
        requests.emplace_back();
        MPI_Irecv(recv + at, int(std::min(chunk, recv_offsets[r + 1] - at)), mpi_type<T>(), r, tag_, comm_,
                  &requests.back());
      }
    }
    for (int step = 0; step < size_; ++step) {
      const int r = (rank_ + step) % size_;
      const auto [from, count] = source(r);
      for (std::uint64_t at = 0; at < count; at += chunk) {
        requests.emplace_back();
        MPI_Isend(from + at, int(std::min(chunk, count - at)), mpi_type<T>(), r, tag_, comm_, &requests.back());
      }
      if (r != rank_ && count) {
        sent_ += count * sizeof(T);
        ++messages_;
      }
    }
    MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    transport_seconds_ += MPI_Wtime() - t0;
  }
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
  mutable std::uint64_t sent_ = 0, messages_ = 0;
  mutable double transport_seconds_ = 0;
  int transport_ = 0;
  void* transport_handle_ = nullptr;
  static constexpr int tag_ = 7061;  // exchange's messages (no other point-to-point traffic)
  // Elements per message of exchange: counts are ints, and each message stays within 1 GiB
  // of 8-byte elements. (STRIX_DISTRIBUTED_CHUNK: tests only.)
  std::uint64_t chunk_ = std::uint64_t(1) << 27;
};

}  // namespace strix::distributed
