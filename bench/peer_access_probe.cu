// SPDX-License-Identifier: BSD-3-Clause
// Issue 63: how fast can one GPU read and write another's memory at random, 4 bytes at a time,
// over NVLink (CUDA peer access), against its own memory? The answer decides whether the
// distributed construction may keep the rank array split by position across the GPUs of a
// node (each rank reading ISA[s + h] wherever it lives) instead of a full copy on every rank.
//   peer_access_probe [log2 entries a GPU (28)] [log2 accesses (27)] [runs (5)]
//   mpirun -np 2 peer_access_probe ipc [log2 entries] [log2 accesses] [runs] [GB of ballast] [extra bytes]
// Prints one line a case: G accesses/s (median of the runs after a warm-up), with every GPU
// of the machine doing the same at once where the case says "all". `ipc`: one process a GPU,
// each mapping the other's memory by CUDA IPC (as strix's ranks do) instead of one process
// with peer access.
// Built outside CMake: nvcc -O3 -arch=sm_90 $(mpicxx --showme:compile) bench/peer_access_probe.cu
//   $(mpicxx --showme:link) -o peer_access_probe
#include <cuda_runtime.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

// Where an access goes: the owner of position p is table[p >> shift] (split by position, as
// a rank array split into equal blocks would be).
struct split_array {
  std::uint32_t* part[8];
  int shift;
  std::uint64_t mask;
  __device__ std::uint32_t& operator()(std::uint64_t p) const { return part[p >> shift][p & mask]; }
};

__global__ void random_positions(std::uint64_t* idx, std::uint64_t count, std::uint64_t range, std::uint64_t seed) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    idx[i] = x % range;
  }
}

__global__ void gather(split_array a, const std::uint64_t* idx, std::uint32_t* out, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] = a(idx[i]);
}

__global__ void scatter(split_array a, const std::uint64_t* idx, std::uint64_t count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < count;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    a(idx[i]) = std::uint32_t(i);
}

// One process a GPU (MPI ranks 0 and 1), each part mapped into the other by CUDA IPC.
// (ballast: that many GB more allocated and written on each GPU first, as a construction's other
// arrays would be.)
// (extra: bytes allocated beyond the 2^k entries, so that the part is no whole number of pages.)
int ipc_probe(int log_entries, int log_accesses, int runs, int ballast_gb, long extra) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != 2) {
    if (rank == 0) std::fprintf(stderr, "ipc: run with 2 ranks\n");
    return 1;
  }
  CHECK(cudaSetDevice(rank));
  void* ballast = nullptr;
  if (ballast_gb > 0) {
    CHECK(cudaMalloc(&ballast, std::size_t(ballast_gb) << 30));
    CHECK(cudaMemset(ballast, 1, std::size_t(ballast_gb) << 30));
  }
  const std::uint64_t entries = std::uint64_t(1) << log_entries, accesses = std::uint64_t(1) << log_accesses;
  std::uint32_t *own = nullptr, *out = nullptr;
  std::uint64_t *idx_local = nullptr, *idx_split = nullptr, *idx_remote = nullptr;
  CHECK(cudaMalloc(&own, entries * 4 + extra));
  CHECK(cudaMemset(own, 0, entries * 4));
  CHECK(cudaMalloc(&out, accesses * 4));
  CHECK(cudaMalloc(&idx_local, accesses * 8));
  CHECK(cudaMalloc(&idx_split, accesses * 8));
  CHECK(cudaMalloc(&idx_remote, accesses * 8));
  cudaIpcMemHandle_t mine{}, theirs{};
  CHECK(cudaIpcGetMemHandle(&mine, own));
  MPI_Sendrecv(&mine, sizeof mine, MPI_BYTE, 1 - rank, 0, &theirs, sizeof theirs, MPI_BYTE, 1 - rank, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  void* other = nullptr;
  CHECK(cudaIpcOpenMemHandle(&other, theirs, cudaIpcMemLazyEnablePeerAccess));
  split_array a{};
  a.part[rank] = own;
  a.part[1 - rank] = static_cast<std::uint32_t*>(other);
  a.shift = log_entries;
  a.mask = entries - 1;
  random_positions<<<1024, 256>>>(idx_local, accesses, entries, 17 + rank);
  random_positions<<<1024, 256>>>(idx_split, accesses, 2 * entries, 31 + rank);
  random_positions<<<1024, 256>>>(idx_remote, accesses, entries, 47 + rank);
  CHECK(cudaDeviceSynchronize());
  {
    std::vector<std::uint64_t> h(accesses);
    for (auto [idx, block] : {std::pair<std::uint64_t*, int>{idx_local, rank}, {idx_remote, 1 - rank}}) {
      CHECK(cudaMemcpy(h.data(), idx, accesses * 8, cudaMemcpyDeviceToHost));
      for (auto& x : h) x += std::uint64_t(block) * entries;
      CHECK(cudaMemcpy(idx, h.data(), accesses * 8, cudaMemcpyHostToDevice));
    }
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, rank));
  if (rank == 0)
    std::printf("peer_access_probe ipc: 2 processes, %s, %llu entries of 4 bytes a GPU, %llu accesses, median of %d, "
                "%d GB ballast, %ld bytes extra\n", prop.name, (unsigned long long)entries, (unsigned long long)accesses, runs,
                ballast_gb, extra);
  struct which {
    const char* name;
    std::uint64_t* idx;
    bool write;
  };
  const which cases[] = {{"gather local", idx_local, false},  {"gather split", idx_split, false},
                         {"gather remote", idx_remote, false}, {"scatter local", idx_local, true},
                         {"scatter split", idx_split, true},   {"scatter remote", idx_remote, true}};
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (const auto& w : cases) {
    for (int all = 0; all <= 1; ++all) {
      std::vector<double> times;
      for (int run = 0; run <= runs; ++run) {
        MPI_Barrier(MPI_COMM_WORLD);
        float ms = 0;
        if (rank == 0 || all) {
          CHECK(cudaEventRecord(start));
          if (w.write) scatter<<<prop.multiProcessorCount * 8, 256>>>(a, w.idx, accesses);
          else gather<<<prop.multiProcessorCount * 8, 256>>>(a, w.idx, out, accesses);
          CHECK(cudaEventRecord(stop));
          CHECK(cudaEventSynchronize(stop));
          CHECK(cudaEventElapsedTime(&ms, start, stop));
        }
        float slowest = 0;
        MPI_Allreduce(&ms, &slowest, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
        if (run > 0) times.push_back(slowest);
      }
      std::sort(times.begin(), times.end());
      const double ms = times[times.size() / 2];
      if (rank == 0)
        std::printf("%-15s %-4s %8.3f ms  %6.2f G accesses/s a GPU\n", w.name, all ? "all" : "one", ms,
                    double(accesses) / (ms * 1e-3) / 1e9);
    }
  }
  CHECK(cudaIpcCloseMemHandle(other));
  MPI_Barrier(MPI_COMM_WORLD);
  if (ballast) CHECK(cudaFree(ballast));
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "ipc") == 0) {
    MPI_Init(&argc, &argv);
    const int status = ipc_probe(argc > 2 ? std::atoi(argv[2]) : 28, argc > 3 ? std::atoi(argv[3]) : 27,
                                 argc > 4 ? std::atoi(argv[4]) : 5, argc > 5 ? std::atoi(argv[5]) : 0,
                                 argc > 6 ? std::atol(argv[6]) : 0L);
    MPI_Finalize();
    return status;
  }
  const int log_entries = argc > 1 ? std::atoi(argv[1]) : 28, log_accesses = argc > 2 ? std::atoi(argv[2]) : 27;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 5;
  int gpus = 0;
  CHECK(cudaGetDeviceCount(&gpus));
  gpus = std::min(gpus, 8);
  const std::uint64_t entries = std::uint64_t(1) << log_entries, accesses = std::uint64_t(1) << log_accesses;
  std::vector<std::uint32_t*> part(gpus), out(gpus);
  std::vector<std::uint64_t*> idx_local(gpus), idx_split(gpus), idx_remote(gpus);
  std::vector<cudaStream_t> stream(gpus);
  for (int d = 0; d < gpus; ++d) {
    CHECK(cudaSetDevice(d));
    for (int e = 0; e < gpus; ++e) {
      int can = 0;
      if (e != d && cudaDeviceCanAccessPeer(&can, d, e) == cudaSuccess && can) CHECK(cudaDeviceEnablePeerAccess(e, 0));
    }
    CHECK(cudaStreamCreate(&stream[d]));
    CHECK(cudaMalloc(&part[d], entries * 4));
    CHECK(cudaMemset(part[d], 0, entries * 4));
    CHECK(cudaMalloc(&out[d], accesses * 4));
    CHECK(cudaMalloc(&idx_local[d], accesses * 8));
    CHECK(cudaMalloc(&idx_split[d], accesses * 8));
    CHECK(cudaMalloc(&idx_remote[d], accesses * 8));
    // Local: positions of this GPU's block; split: any position of the whole array (a
    // fraction (gpus - 1) / gpus remote); remote: the next GPU's block.
    random_positions<<<1024, 256>>>(idx_local[d], accesses, entries, 17 + d);
    random_positions<<<1024, 256>>>(idx_split[d], accesses, entries * gpus, 31 + d);
    random_positions<<<1024, 256>>>(idx_remote[d], accesses, entries, 47 + d);
    CHECK(cudaDeviceSynchronize());
  }
  // Offsets: local positions sit in d's block; remote ones in (d + 1)'s.
  auto offset_kernel = [&](int d, std::uint64_t* idx, int block) {
    std::vector<std::uint64_t> h(accesses);
    CHECK(cudaMemcpy(h.data(), idx, accesses * 8, cudaMemcpyDeviceToHost));
    for (auto& x : h) x += std::uint64_t(block) * entries;
    CHECK(cudaMemcpy(idx, h.data(), accesses * 8, cudaMemcpyHostToDevice));
  };
  for (int d = 0; d < gpus; ++d) {
    CHECK(cudaSetDevice(d));
    offset_kernel(d, idx_local[d], d);
    offset_kernel(d, idx_remote[d], (d + 1) % gpus);
  }
  split_array a{};
  for (int d = 0; d < gpus; ++d) a.part[d] = part[d];
  a.shift = log_entries;
  a.mask = entries - 1;

  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("peer_access_probe: %d x %s, %llu entries of 4 bytes a GPU, %llu accesses a GPU, median of %d\n", gpus,
              prop.name, (unsigned long long)entries, (unsigned long long)accesses, runs);
  struct which {
    const char* name;
    std::vector<std::uint64_t*>* idx;
    bool write;
  };
  const which cases[] = {{"gather local", &idx_local, false}, {"gather split", &idx_split, false},
                         {"gather remote", &idx_remote, false}, {"scatter local", &idx_local, true},
                         {"scatter split", &idx_split, true},   {"scatter remote", &idx_remote, true}};
  for (const auto& w : cases) {
    for (int all = 0; all <= (gpus > 1 ? 1 : 0); ++all) {
      const int active = all ? gpus : 1;
      std::vector<double> times;
      for (int run = 0; run <= runs; ++run) {
        std::vector<cudaEvent_t> start(active), stop(active);
        for (int d = 0; d < active; ++d) {
          CHECK(cudaSetDevice(d));
          CHECK(cudaDeviceSynchronize());
          CHECK(cudaEventCreate(&start[d]));
          CHECK(cudaEventCreate(&stop[d]));
        }
        for (int d = 0; d < active; ++d) {
          CHECK(cudaSetDevice(d));
          CHECK(cudaEventRecord(start[d], stream[d]));
          if (w.write) scatter<<<prop.multiProcessorCount * 8, 256, 0, stream[d]>>>(a, (*w.idx)[d], accesses);
          else gather<<<prop.multiProcessorCount * 8, 256, 0, stream[d]>>>(a, (*w.idx)[d], out[d], accesses);
          CHECK(cudaEventRecord(stop[d], stream[d]));
        }
        float slowest = 0;
        for (int d = 0; d < active; ++d) {
          CHECK(cudaSetDevice(d));
          CHECK(cudaEventSynchronize(stop[d]));
          float ms = 0;
          CHECK(cudaEventElapsedTime(&ms, start[d], stop[d]));
          slowest = std::max(slowest, ms);
          CHECK(cudaEventDestroy(start[d]));
          CHECK(cudaEventDestroy(stop[d]));
        }
        if (run > 0) times.push_back(slowest);
      }
      std::sort(times.begin(), times.end());
      const double ms = times[times.size() / 2];
      std::printf("%-15s %-4s %8.3f ms  %6.2f G accesses/s a GPU\n", w.name, all ? "all" : "one", ms,
                  double(accesses) / (ms * 1e-3) / 1e9);
    }
  }
  // Bulk copy between two GPUs, for the link's scale.
  if (gpus > 1) {
    CHECK(cudaSetDevice(0));
    cudaEvent_t s, e;
    CHECK(cudaEventCreate(&s));
    CHECK(cudaEventCreate(&e));
    std::vector<double> times;
    for (int run = 0; run <= runs; ++run) {
      CHECK(cudaEventRecord(s, stream[0]));
      CHECK(cudaMemcpyPeerAsync(part[1], 1, part[0], 0, entries * 4, stream[0]));
      CHECK(cudaEventRecord(e, stream[0]));
      CHECK(cudaEventSynchronize(e));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, s, e));
      if (run > 0) times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    std::printf("memcpy peer 0->1 %8.3f ms  %6.1f GB/s\n", times[times.size() / 2],
                double(entries * 4) / (times[times.size() / 2] * 1e-3) / 1e9);
  }
  return 0;
}
