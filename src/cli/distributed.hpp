// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// `strix sa|bwt|check --distributed` under mpirun or srun: every rank reads its slice of the
// input with MPI-IO, the library builds across the ranks (strix/distributed/), and every
// rank writes its rows into one temporary file that rank 0 renames onto the output once all
// succeeded. A failure on any rank is agreed on by all: rank 0 prints its one line, every
// rank exits with its status, and no output is left. No MPI types here (plain C++).
#include <memory>
#include <string>

#include "command.hpp"

namespace strix::cli {

// MPI for the tool's lifetime (finalised when the returned object is destroyed); throws
// invalid_input when this strix is built without MPI.
std::shared_ptr<void> start_mpi(int& argc, char**& argv);
int mpi_rank();        // in MPI_COMM_WORLD; 0 before start_mpi
int mpi_local_rank();  // among the ranks on this node; 0 before start_mpi
int mpi_local_size();  // ranks on this node; 1 before start_mpi
// The ranks on this node whose CPU affinity overlaps this rank's, itself included (Linux; else
// the node's ranks); 1 before start_mpi.
int mpi_ranks_sharing_cpus();
// True when `e` was agreed on by every rank (so that rank 0 alone reports it).
bool agreed_failure(const std::exception& e);

int run_distributed_sa(const std::string& input, const std::string& output, int width, const common_options& common);
int run_distributed_bwt(const std::string& input, const std::string& output, const std::string& primary_out,
                        const common_options& common);
int run_distributed_check(const std::string& input, const std::string& sa_file, const common_options& common);

}  // namespace strix::cli
