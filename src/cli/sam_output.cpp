// SPDX-License-Identifier: BSD-3-Clause
// SAM and BAM out of strix search (sam_output.hpp).
#include "sam_output.hpp"

#include <htslib/bgzf.h>
#include <htslib/sam.h>
#include <unistd.h>

#include <strix/config.hpp>
#include <strix/error.hpp>
#include <strix/io/container.hpp>

namespace strix::cli {

struct sam_output::bam_writer {
  BGZF* file = nullptr;
  sam_hdr_t* header = nullptr;
  bam1_t* record = nullptr;
  kstring_t line = KS_INITIALIZE;
  ~bam_writer() {
    if (file) bgzf_close(file);
    if (header) sam_hdr_destroy(header);
    if (record) bam_destroy1(record);
    ks_free(&line);
  }
};

sam_output::sam_output(const std::string& format, answer_output& out, const reference_sequences& sequences,
                       const std::string& command_line)
    : out_(out) {
  std::string header = "@HD\tVN:1.6\tSO:unsorted\n";
  for (std::size_t s = 0; s < sequences.size(); ++s)
    header += "@SQ\tSN:" + sequences.names[s] + "\tLN:" + std::to_string(sequences.lengths[s]) + "\n";
  std::string cl = command_line;
  for (auto& c : cl)
    if (c == '\t' || c == '\n') c = ' ';
  header += "@PG\tID:strix\tPN:strix\tVN:" + std::string(STRIX_VERSION_STRING) + "\tCL:" + cl + "\n";
  if (format == "sam") {
    pending_ = header;
    return;
  }
  bam_ = std::make_unique<bam_writer>();
  bam_->header = sam_hdr_parse(header.size(), header.c_str());
  if (!bam_->header) throw error(error_code::invalid_input, "search --format bam: htslib refuses the header");
  bam_->record = bam_init1();
  const int fd = out_.descriptor_copy();
  bam_->file = bgzf_dopen(fd, "w");
  if (!bam_->file) {
    ::close(fd);
    throw error(error_code::io_error, "search --format bam: cannot start the BAM output");
  }
  // BGZF's blocks compressed by htslib's threads (the CPUs the run may use), in order, while
  // the records are parsed here.
  const int threads = io::threads();
  if (threads > 1 && bgzf_mt(bam_->file, threads, 256) != 0)
    throw error(error_code::io_error, "search --format bam: cannot start htslib's compression threads");
  if (bam_hdr_write(bam_->file, bam_->header) != 0) throw error(error_code::io_error, "cannot write the BAM header");
}

sam_output::~sam_output() = default;

void sam_output::add_lines(const std::string& lines) {
  if (!bam_) {
    pending_ += lines;
    if (pending_.size() > (1u << 22)) {
      out_.write(pending_);
      pending_.clear();
    }
    return;
  }
  for (std::size_t at = 0; at < lines.size();) {
    std::size_t end = lines.find('\n', at);
    if (end == std::string::npos) end = lines.size();
    bam_->line.l = 0;
    kputsn(lines.data() + at, end - at, &bam_->line);
    if (sam_parse1(&bam_->line, bam_->header, bam_->record) < 0)
      throw error(error_code::internal,
                  "search --format bam: htslib refuses the record '" + lines.substr(at, std::min<std::size_t>(200, end - at)) + "'");
    if (bam_write1(bam_->file, bam_->record) < 0) throw error(error_code::io_error, "cannot write the BAM output");
    at = end + 1;
  }
}

void sam_output::finish() {
  if (!bam_) {
    out_.write(pending_);
    pending_.clear();
    return;
  }
  BGZF* file = bam_->file;
  bam_->file = nullptr;
  if (bgzf_close(file) != 0) throw error(error_code::io_error, "cannot write the BAM output");
}

}  // namespace strix::cli
