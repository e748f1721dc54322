// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix search's answers as SAM or BAM through htslib: a header of the reference's sequences,
// then records given as SAM text lines (BAM: each parsed by htslib against the header and
// written BGZF-compressed).
#include <memory>
#include <string>

#include <strix/fm_index/reference.hpp>

#include "fm_query.hpp"

namespace strix::cli {

class sam_output {
 public:
  // `format`: "sam" or "bam"; the header names `sequences` (@SQ lines) and strix (@PG).
  sam_output(const std::string& format, answer_output& out, const reference_sequences& sequences,
             const std::string& command_line);
  ~sam_output();
  // Records: SAM lines, each ending in a newline.
  void add_lines(const std::string& lines);
  // Writes what is buffered and ends the file (BAM's end-of-file block); before out.commit().
  void finish();

 private:
  struct bam_writer;
  answer_output& out_;
  std::string pending_;  // SAM text not yet written
  std::unique_ptr<bam_writer> bam_;
};

}  // namespace strix::cli
