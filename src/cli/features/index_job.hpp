// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The tool's text_index on a session: a text loaded once, then its suffix array, LCP array,
// BWT and longest repeats, each built from what it needs (strix/index/text_index.hpp). No
// Kokkos types here; index_job.cpp is the Kokkos half.
#include <cstdint>
#include <memory>
#include <string>

#include <strix/sa/algorithm.hpp>

#include "../session.hpp"

namespace strix::cli {

struct repeats_result {
  host_buffer records;  // strix::repeat<I> records
  host_buffer offsets;  // --all: n + 1 uint64 offsets
  std::uint64_t count = 0;
};

class index_job {
 public:
  // `algorithm`: how the suffix array is built.
  explicit index_job(session& s, const sa_options& algorithm = {});
  ~index_job();

  // Copies the text (n bytes of `text`) to the backend; the first call of a run.
  void load_text(const host_buffer& text, std::uint64_t n);
  // Allocates what building the suffix array needs, outside the timed stages.
  void prepare_suffix_array();
  void build_suffix_array();
  // Uses a suffix array from a file (n entries of the session's width), checked first.
  void load_suffix_array(const host_buffer& sa);
  // Empty when `sa` is the text's suffix array, else what is wrong.
  std::string check_suffix_array(const host_buffer& sa);
  host_buffer suffix_array();
  // The generalized suffix array (strings ended by 0x00; strix/sa/generalized_suffix_array.hpp),
  // held by the job only while it is copied out.
  host_buffer generalized_suffix_array();
  // Empty when `sa` is the text's generalized suffix array, else what is wrong.
  std::string check_generalized_suffix_array(const host_buffer& sa);
  host_buffer lcp();
  host_buffer bwt(std::uint64_t& primary);
  repeats_result repeats(bool all, bool raw_method);

  // The typed job of the session's space and width (index_job.cpp), picked once.
  struct typed;

 private:
  std::unique_ptr<typed> typed_;
};

// The text of the BWT `bwt` (n bytes, divbwt layout) with primary index `primary`: on a GPU
// the library's device inverse (strix/bwt/bwt.hpp), the BWT copied in and the text out as
// stages; on a host backend the tuned host inverse (strix/bwt/inverse_bwt.hpp) on the
// session's threads. (Here rather than in a file of its own: a Kokkos half costs a CUDA build
// several seconds before any of its code.)
host_buffer invert_bwt(session& s, const host_buffer& bwt, std::uint64_t n, std::uint64_t primary);

}  // namespace strix::cli
