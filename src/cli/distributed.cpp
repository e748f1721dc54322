// SPDX-License-Identifier: BSD-3-Clause
#include "distributed.hpp"

#include <strix/config.hpp>

#include <sys/resource.h>

#ifdef __linux__
#include <sched.h>
#endif

#include <algorithm>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "features/distributed_job.hpp"
#include "files.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"

#if STRIX_HAS_MPI
#include <mpi.h>

#include <strix/distributed/communicator.hpp>
#endif

namespace strix::cli {

#if STRIX_HAS_MPI
namespace {

using strix::distributed::collective;

int world_rank = 0, node_rank = 0, node_size = 1, node_sharing = 1;

// Rank 0's value, on every rank (after an agreement).
template <class T>
T from_rank0(const collective& c, T v) {
  c.agree();
  MPI_Bcast(&v, sizeof(T), MPI_BYTE, 0, c.comm());
  return v;
}
std::string from_rank0(const collective& c, std::string s) {
  std::uint64_t length = from_rank0(c, std::uint64_t(s.size()));
  s.resize(length);
  if (length) MPI_Bcast(&s[0], int(length), MPI_CHAR, 0, c.comm());
  return s;
}

// MPI-IO on one rank's own part of a shared file (independent I/O: a rank failing to
// open or read cannot leave the others inside a collective call).
class mpi_file {
 public:
  mpi_file(const std::string& path, int mode, const char* doing) : path_(path), doing_(doing) {
    if (MPI_File_open(MPI_COMM_SELF, path.c_str(), mode, MPI_INFO_NULL, &file_) != MPI_SUCCESS)
      throw error(error_code::io_error, std::string("cannot ") + doing + " '" + path + "' (MPI-IO open failed)");
  }
  ~mpi_file() { MPI_File_close(&file_); }
  mpi_file(const mpi_file&) = delete;
  mpi_file& operator=(const mpi_file&) = delete;

  void read_at(std::uint64_t offset, std::uint8_t* data, std::uint64_t bytes) { transfer(offset, data, bytes, true); }
  void write_at(std::uint64_t offset, const std::uint8_t* data, std::uint64_t bytes) {
    transfer(offset, const_cast<std::uint8_t*>(data), bytes, false);
  }

 private:
  void transfer(std::uint64_t offset, std::uint8_t* data, std::uint64_t bytes, bool read) {
    constexpr std::uint64_t chunk = std::uint64_t(1) << 30;  // counts are ints
    for (std::uint64_t done = 0; done < bytes;) {
      const int count = int(std::min(chunk, bytes - done));
      MPI_Status status;
      const int rc = read ? MPI_File_read_at(file_, MPI_Offset(offset + done), data + done, count, MPI_BYTE, &status)
                          : MPI_File_write_at(file_, MPI_Offset(offset + done), data + done, count, MPI_BYTE, &status);
      int moved = 0;
      MPI_Get_count(&status, MPI_BYTE, &moved);
      if (rc != MPI_SUCCESS || moved <= 0)
        throw error(error_code::io_error, std::string("cannot ") + doing_ + " '" + path_ + "' at byte " +
                                              std::to_string(offset + done) + " (MPI-IO)");
      done += std::uint64_t(moved);
    }
  }
  std::string path_;
  const char* doing_;
  MPI_File file_ = MPI_FILE_NULL;
};

// Rank 0 opens the input (a regular file: every rank reads its own slice of it) and, if
// asked, the output's temporary, with the single-process tool's checks.
struct shared_files {
  std::unique_ptr<input_file> input;
  std::unique_ptr<atomic_output> output;
  std::uint64_t n = 0;
  std::string temporary;
};

shared_files open_shared(const collective& c, const std::string& input, const std::string& output) {
  shared_files f;
  c.run([&] {
    if (c.rank() != 0) return;
    f.input = std::make_unique<input_file>(input);
    if (!f.input->regular() || input == "-")
      throw error(error_code::invalid_input, "--distributed reads a regular file that every rank can open; '" + input +
                                                 "' is not one");
    f.n = f.input->size();
    if (output == "-")
      throw error(error_code::invalid_input, "--distributed writes its output as a file from every rank: '-o -' "
                                             "(standard output) is not possible; name a file");
    if (!output.empty()) {
      f.output = std::make_unique<atomic_output>(output, std::initializer_list<const input_file*>{f.input.get()});
      f.temporary = f.output->temporary_path();
    }
  });
  f.n = from_rank0(c, f.n);
  f.temporary = from_rank0(c, f.temporary);
  return f;
}

// This rank's slice of the input: even blocks, as the library's rows.
struct slice {
  host_buffer bytes;
  std::uint64_t begin = 0, size = 0;
};

slice read_slice(const collective& c, session& s, const std::string& path, std::uint64_t n) {
  slice sl;
  c.run([&] {
    const auto blocks = strix::distributed::block_layout(n, c.size());
    sl.begin = blocks.begin(c.rank());
    sl.size = blocks.size(c.rank());
    const auto t0 = s.begin_stage("read input");
    sl.bytes = s.allocate_host(sl.size);
    if (sl.size) mpi_file(path, MPI_MODE_RDONLY, "read input").read_at(sl.begin, sl.bytes.data, sl.size);
    s.end_stage("read_input", t0);
  });
  return sl;
}

// Every rank's rows into the temporary at byte `offset`.
void write_rows(const collective& c, session& s, const std::string& temporary, std::uint64_t offset,
                const host_buffer& rows) {
  c.run([&] {
    const auto t0 = s.begin_stage("write output");
    if (rows.bytes) mpi_file(temporary, MPI_MODE_WRONLY, "write output").write_at(offset, rows.data, rows.bytes);
    s.end_stage("write_output", t0);
  });
}

// --stats of a distributed run: rank 0's report, with every rank's bytes sent to others and
// its peak resident memory (host memory; a GPU's is in the library's "peak").
nlohmann::json ranks_stats(const collective& c, const char* command, std::uint64_t n, session& s) {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  const auto& lib = s.report().library;
  const auto sent = c.all_gather<std::uint64_t>(lib.counter("distributed_bytes_sent") +
                                                lib.counter("distributed_bwt_bytes_sent"));
  const auto messages = c.all_gather<std::uint64_t>(lib.counter("distributed_messages") +
                                                    lib.counter("distributed_bwt_messages"));
  const auto mpi_us = c.all_gather<std::uint64_t>(lib.counter("distributed_mpi_transfer_us") +
                                                  lib.counter("distributed_bwt_mpi_transfer_us"));
  const auto device_peak = c.all_gather<std::uint64_t>(lib.counter("distributed_device_peak_bytes"));
  const auto sorted = c.all_gather<std::uint64_t>(lib.counter("distributed_sorted"));
  const auto rss = c.all_gather<std::uint64_t>(std::uint64_t(usage.ru_maxrss) * 1024);
  nlohmann::json j = stats_json(command, n, s);
  j["ranks"] = c.size();
  j["ranks_bytes_sent"] = sent;
  j["ranks_messages"] = messages;
  j["ranks_mpi_transfer_seconds"] = nlohmann::json::array();
  for (auto us : mpi_us) j["ranks_mpi_transfer_seconds"].push_back(double(us) * 1e-6);
  j["ranks_max_rss_bytes"] = rss;
  // Per-rank device peaks (GPU ranks; 0 on host ranks, whose memory is ranks_max_rss_bytes),
  // and the largest as bytes per byte of that rank's slice.
  j["ranks_device_peak_bytes"] = device_peak;
  // Suffixes each rank sorted over all rounds (the replicated construction's balance).
  j["ranks_sorted_suffixes"] = sorted;
  // Every rank's library phases (rank 0's are phases_seconds): where a rank waited for another.
  {
    nlohmann::json mine = nlohmann::json::object();
    for (const auto& p : lib.phases) mine[p.first] = p.second;
    // One line each: dump() escapes any newline inside.
    const std::string text = mine.dump() + '\n';
    const auto all = c.all_gather(std::vector<std::uint8_t>(text.begin(), text.end()));
    j["ranks_phases_seconds"] = nlohmann::json::array();
    for (auto at = all.begin(); at != all.end();) {
      const auto end = std::find(at, all.end(), std::uint8_t('\n'));
      j["ranks_phases_seconds"].push_back(nlohmann::json::parse(at, end));
      at = end + 1;
    }
  }
  const auto slices = strix::distributed::block_layout(n, c.size());
  double worst = 0;
  for (int r = 0; r < c.size(); ++r)
    if (slices.size(r)) worst = std::max(worst, double(device_peak[r]) / double(slices.size(r)));
  j["max_rank_device_peak_per_slice_byte"] = worst;
  // The library's transport_kind values, in order (strix/distributed/detail/transport.hpp).
  static const char* const transports[] = {"host memory", "nccl", "cuda-aware mpi", "host staged"};
  const auto t = lib.counter(command == std::string("bwt") ? "distributed_bwt_transport" : "distributed_transport");
  j["transport"] = t < 4 ? transports[t] : "?";
  return j;
}

std::unique_ptr<session> open_ranks_session(const collective& c, const common_options& common, int width,
                                            std::uint64_t n) {
  return c.run([&] { return open_session(common, width, n); });
}

}  // namespace

std::shared_ptr<void> start_mpi(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  node_sharing = node_size;
#ifdef __linux__
  // The node's ranks whose CPUs overlap this rank's (itself included): they share its CPUs.
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof(mine), &mine) == 0) {
    std::vector<cpu_set_t> all(static_cast<std::size_t>(node_size));
    MPI_Allgather(&mine, int(sizeof(mine)), MPI_BYTE, all.data(), int(sizeof(mine)), MPI_BYTE, node);
    node_sharing = 0;
    for (auto& other : all) {
      cpu_set_t both;
      CPU_AND(&both, &mine, &other);
      node_sharing += CPU_COUNT(&both) > 0;
    }
  }
#endif
  MPI_Comm_free(&node);
  return std::shared_ptr<void>(nullptr, [](void*) { MPI_Finalize(); });
}

int mpi_rank() { return world_rank; }
int mpi_local_rank() { return node_rank; }
int mpi_local_size() { return node_size; }
int mpi_ranks_sharing_cpus() { return node_sharing; }

bool agreed_failure(const std::exception& e) {
  return dynamic_cast<const collective::agreed_failure*>(&e) != nullptr;
}

int run_distributed_sa(const std::string& input, const std::string& output, int requested_width,
                       const common_options& common) {
  const collective c(MPI_COMM_WORLD);
  auto files = open_shared(c, input, output);
  const std::uint64_t n = files.n;
  const int width = c.run([&] { return choose_width(n, requested_width); });
  auto s = open_ranks_session(c, common, width, n);
  const slice text = read_slice(c, *s, input, n);
  distributed_job job(*s);
  const host_buffer rows = job.suffix_array(text.bytes, text.size, n);
  const auto layout = strix::distributed::block_layout(n, c.size());
  write_rows(c, *s, files.temporary, layout.begin(c.rank()) * std::uint64_t(width / 8), rows);
  nlohmann::json stats;
  if (common.stats) stats = ranks_stats(c, "sa", n, *s);
  c.run([&] {
    if (c.rank() != 0) return;
    if (common.stats) print_json(stats);
    files.output->commit();
  });
  return 0;
}

int run_distributed_bwt(const std::string& input, const std::string& output, const std::string& primary_out,
                        const common_options& common) {
  const collective c(MPI_COMM_WORLD);
  auto files = open_shared(c, input, output);
  const std::uint64_t n = files.n;
  std::unique_ptr<atomic_output> primary_file;
  c.run([&] {
    if (c.rank() == 0 && !primary_out.empty())
      primary_file = std::make_unique<atomic_output>(primary_out, std::initializer_list<const input_file*>{files.input.get()});
  });
  const int width = c.run([&] { return choose_width(n, 0); });
  auto s = open_ranks_session(c, common, width, n);
  const slice text = read_slice(c, *s, input, n);
  distributed_job job(*s);
  std::uint64_t primary = 0;
  const host_buffer rows = job.bwt(text.bytes, text.size, n, primary);
  const auto layout = strix::distributed::block_layout(n, c.size());
  write_rows(c, *s, files.temporary, layout.begin(c.rank()), rows);
  nlohmann::json stats;
  if (common.stats) stats = ranks_stats(c, "bwt", n, *s);
  c.run([&] {
    if (c.rank() != 0) return;
    if (primary_file) {
      const std::string line = std::to_string(primary) + "\n";
      primary_file->write(line.data(), line.size());
      primary_file->commit();
    }
    if (common.stats) {
      stats["primary_index"] = primary;
      print_json(stats);
    } else {
      progress().stop();
      std::ostream& to = report_stream();
      to << "primary index: " << primary << std::endl;
      if (!to) throw error(error_code::io_error, "cannot write the primary index");
    }
    files.output->commit();
  });
  return 0;
}

int run_distributed_check(const std::string& input, const std::string& sa_file, const common_options& common) {
  const collective c(MPI_COMM_WORLD);
  auto files = open_shared(c, input, "");
  const std::uint64_t n = files.n;
  int width = 0;
  c.run([&] {
    if (c.rank() != 0) return;
    input_file sa(sa_file);
    if (!sa.regular() || sa_file == "-")
      throw error(error_code::invalid_input, "--distributed reads a regular file that every rank can open; '" +
                                                 sa_file + "' is not one");
    width = suffix_array_file_width(n, sa);
  });
  width = from_rank0(c, width == 64 ? 64 : 32);
  auto s = open_ranks_session(c, common, width, n);
  const slice text = read_slice(c, *s, input, n);
  const auto layout = strix::distributed::block_layout(n, c.size());
  host_buffer rows;
  c.run([&] {
    const std::uint64_t bytes = layout.size(c.rank()) * std::uint64_t(width / 8);
    rows = s->allocate_host(bytes);
    if (bytes)
      mpi_file(sa_file, MPI_MODE_RDONLY, "read suffix array")
          .read_at(layout.begin(c.rank()) * std::uint64_t(width / 8), rows.data, bytes);
  });
  distributed_job job(*s);
  const std::string wrong = job.check(text.bytes, text.size, rows, layout.size(c.rank()));
  return c.run([&] {
    if (c.rank() != 0) return wrong.empty() ? 0 : 1;
    progress().stop();
    if (!wrong.empty()) {
      std::cerr << "strix: suffix array is wrong: " << wrong << std::endl;
      return 1;
    }
    std::cout << "ok: correct " << width << "-bit suffix array of " << n << " bytes (" << c.size() << " ranks)"
              << std::endl;
    if (!std::cout) throw error(error_code::io_error, "cannot write to standard output");
    return 0;
  });
}

#else

std::shared_ptr<void> start_mpi(int&, char**&) {
  throw error(error_code::invalid_input, "--distributed needs a strix built with MPI (STRIX_ENABLE_MPI)");
}
int mpi_rank() { return 0; }
int mpi_local_rank() { return 0; }
int mpi_local_size() { return 1; }
int mpi_ranks_sharing_cpus() { return 1; }
bool agreed_failure(const std::exception&) { return false; }
int run_distributed_sa(const std::string&, const std::string&, int, const common_options&) {
  throw error(error_code::invalid_input, "--distributed needs a strix built with MPI (STRIX_ENABLE_MPI)");
}
int run_distributed_bwt(const std::string&, const std::string&, const std::string&, const common_options&) {
  throw error(error_code::invalid_input, "--distributed needs a strix built with MPI (STRIX_ENABLE_MPI)");
}
int run_distributed_check(const std::string&, const std::string&, const common_options&) {
  throw error(error_code::invalid_input, "--distributed needs a strix built with MPI (STRIX_ENABLE_MPI)");
}

#endif

}  // namespace strix::cli
