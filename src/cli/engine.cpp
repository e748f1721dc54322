// SPDX-License-Identifier: BSD-3-Clause
// The strix tool's engine: a text_index on one backend and index width (see engine.hpp).
#include "engine.hpp"

#include <Kokkos_Core.hpp>
#include <cctype>
#include <chrono>
#include <fstream>
#include <new>

#include <strix/strix.hpp>

#include "host_fallback.hpp"
#include "progress.hpp"

namespace strix::cli {
namespace {

// Host memory on the way to and from a backend: pinned for CUDA (fast DMA, no page
// faults), plain host memory otherwise.
template <class Space>
struct staging {
  using space = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct staging<Kokkos::Cuda> {
  using space = Kokkos::CudaHostPinnedSpace;
};
#endif

std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 < line.size()) return line.substr(colon + 2);
    }
  return "unknown CPU";
}

template <class Space>
std::string device_name(const Space& space) {
  return host_cpu_name() + " (" + std::to_string(space.concurrency()) + " threads)";
}
#ifdef KOKKOS_ENABLE_CUDA
std::string device_name(const Kokkos::Cuda& space) { return space.cuda_device_prop().name; }
#endif

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

template <class Space, class I>
class index_engine final : public engine {
  using mem = typename Space::memory_space;
  using host_space = typename staging<Space>::space;
  using index = text_index<Space, I>;

 public:
  explicit index_engine(const sa_options& algorithm) : algorithm_(algorithm) { reset_report(); }

  std::string backend() const override { return Space::name(); }
  std::string device() const override { return device_name(space_); }
  int width() const override { return int(8 * sizeof(I)); }

  host_buffer allocate_host(std::size_t bytes) override {
    Kokkos::View<std::uint8_t*, host_space> v;
    try {
      v = Kokkos::View<std::uint8_t*, host_space>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::staging"), bytes);
    } catch (const std::exception&) {
      throw error(error_code::host_out_of_memory,
                  "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    host_buffer b;
    b.data = v.data();
    b.bytes = bytes;
    b.owner = std::shared_ptr<std::uint8_t>(v.data(), [v](std::uint8_t*) mutable { v = {}; });
    return b;
  }

  void load_text(const host_buffer& text, std::uint64_t n) override {
    index_.reset();  // a new text: free the old index first
    auto t0 = clock_type::now();
    Kokkos::View<std::uint8_t*, mem> text_d;
    text_d = detail::allocate<std::uint8_t, mem>("strix::text", n);
    space_.fence();
    report_.allocate_seconds += seconds_since(t0);
    t0 = begin_stage("copy to device");
    Kokkos::View<const std::uint8_t*, host_space, Kokkos::MemoryUnmanaged> src(text.data, n);
    Kokkos::deep_copy(space_, text_d, src);
    space_.fence();
    stage("copy_to_device", t0);
    index_ = std::make_unique<index>(space_, text_d, algorithm_);
  }

  void prepare_suffix_array() override {
    const auto t0 = clock_type::now();
    index_->reserve_suffix_array();
    if (!out_.data) out_ = allocate_host(index_->size() * sizeof(I));
    space_.fence();
    report_.allocate_seconds += seconds_since(t0);
  }

  void build_suffix_array() override {
    prepare_suffix_array();
    const auto t0 = begin_stage("suffix array");
    index_->suffix_array(&report_.library);
    space_.fence();
    stage("suffix_array", t0);
    note_peak();
  }

  void load_suffix_array(const host_buffer& sa) override {
    const auto t0 = begin_stage("check suffix array");
    auto sa_d = to_device(sa);
    index_->set_suffix_array(sa_d, true);
    space_.fence();
    stage("load_and_check_suffix_array", t0);
    note_peak();
  }

  std::string check_suffix_array(const host_buffer& sa) override {
    const auto t0 = begin_stage("check");
    auto sa_d = to_device(sa);
    const auto verdict = strix::check_suffix_array(space_, index_->text(), sa_d);
    stage("check", t0);
    return verdict.ok ? std::string() : verdict.message;
  }

  host_buffer suffix_array() override {
    if (!index_->has(index_part::suffix_array)) build_suffix_array();
    return to_host(index_->suffix_array(), "copy_to_host");
  }

  host_buffer lcp() override {
    auto lcp = build_lcp();
    return to_host(lcp, "copy_to_host");
  }

  host_buffer bwt(std::uint64_t& primary) override {
    ensure_suffix_array();
    const auto t0 = begin_stage("bwt");
    auto bwt = index_->bwt(&report_.library);
    primary = index_->bwt_primary();
    space_.fence();
    stage("bwt", t0);
    note_peak();
    return to_host(bwt, "copy_to_host");
  }

  repeats_result repeats(bool all, bool raw_method) override {
    auto lcp = build_lcp();
    auto t0 = begin_stage("inverse suffix array");
    auto rank = index_->inverse_suffix_array();
    index_->release(index_part::suffix_array);  // the queries need rank and LCP only
    space_.fence();
    stage("rank", t0);
    note_peak();
    repeat_options options;
    options.method = raw_method ? repeat_method::raw : repeat_method::compact;
    repeats_result result;
    run_stats s;
    watch(s);
    t0 = begin_stage("longest repeats");
    if (!all) {
      Kokkos::View<repeat<I>*, mem> lr = detail::allocate<repeat<I>, mem>("strix::lr", index_->size());
      leftmost_longest_repeats(space_, rank, lcp, lr, options, &s);
      space_.fence();
      stage("longest_repeats", t0);
      add_query_peak(s);
      result.records = to_host(lr, "copy_to_host");
      result.count = lr.extent(0);
    } else {
      auto res = all_longest_repeats(space_, rank, lcp, options, &s);
      space_.fence();
      stage("longest_repeats", t0);
      add_query_peak(s);
      t0 = begin_stage("copy to host");
      result.offsets = copy_out(res.offsets);
      result.records = copy_out(res.records);
      stage("copy_to_host", t0);
      result.count = res.records.extent(0);
    }
    report_.library.merge(s);
    note_peak();
    return result;
  }

  void reset_report() override {
    report_ = run_report{};
    watch(report_.library);
  }
  const run_report& report() const override { return report_; }

 private:
  Kokkos::View<const I*, mem> build_lcp() {
    ensure_suffix_array();
    const auto t0 = begin_stage("lcp");
    auto lcp = index_->lcp(&report_.library);
    space_.fence();
    stage("lcp", t0);
    note_peak();
    return lcp;
  }

  Kokkos::View<I*, mem> to_device(const host_buffer& h) {
    STRIX_REQUIRE(h.bytes == index_->size() * sizeof(I));
    auto d = detail::allocate<I, mem>("strix::sa", index_->size());
    Kokkos::View<const I*, host_space, Kokkos::MemoryUnmanaged> src(reinterpret_cast<const I*>(h.data),
                                                                     index_->size());
    Kokkos::deep_copy(space_, d, src);
    return d;
  }

  template <class View>
  host_buffer copy_out(const View& v) {
    using T = typename View::non_const_value_type;
    host_buffer h = allocate_host(v.extent(0) * sizeof(T));
    Kokkos::View<T*, host_space, Kokkos::MemoryUnmanaged> dst(reinterpret_cast<T*>(h.data), v.extent(0));
    Kokkos::deep_copy(space_, dst, v);
    space_.fence();
    return h;
  }

  // Copies an index array out through the staging buffer prepared for it.
  template <class View>
  host_buffer to_host(const View& v, const char* name) {
    using T = typename View::non_const_value_type;
    const std::size_t bytes = v.extent(0) * sizeof(T);
    if (out_.bytes < bytes) out_ = allocate_host(bytes);
    const auto t0 = begin_stage("copy to host");
    Kokkos::View<T*, host_space, Kokkos::MemoryUnmanaged> dst(reinterpret_cast<T*>(out_.data), v.extent(0));
    Kokkos::deep_copy(space_, dst, v);
    space_.fence();
    stage(name, t0);
    host_buffer h = out_;
    h.bytes = bytes;
    return h;
  }

  // The tool's stage starts: shown by the progress display, timed from now.
  static clock_type::time_point begin_stage(const char* name) {
    progress().stage(name);
    return clock_type::now();
  }
  // The library reports its phases and progress to the display.
  static void watch(run_stats& s) {
    s.on_phase = [](const std::string& phase, double seconds) { progress().phase_done(phase, seconds); };
    s.on_progress = [](const std::string& phase, double fraction) { progress().step(phase, fraction); };
  }
  void stage(const std::string& name, clock_type::time_point t0) {
    report_.stages.add_phase(name, seconds_since(t0));
  }
  // The suffix array the LCP, BWT and queries start from; its working memory is then freed.
  void ensure_suffix_array() {
    if (!index_->has(index_part::suffix_array)) build_suffix_array();
    index_->release(index_part::sa_workspace);
  }
  void note_peak() {
    if (index_->peak_bytes() > report_.library.peak_bytes) report_.library.peak_bytes = index_->peak_bytes();
  }
  // A query's peak counts its inputs (rank, LCP), its output and temporaries: add what
  // else the index holds meanwhile.
  void add_query_peak(run_stats& s) {
    const std::size_t inputs = index_->bytes(index_part::inverse_suffix_array) + index_->bytes(index_part::lcp);
    s.peak_bytes += index_->bytes() - inputs;
  }

  Space space_;
  sa_options algorithm_;
  std::unique_ptr<index> index_;
  host_buffer out_;
  run_report report_;
};

bool same_name(std::string a, std::string b) {
  for (auto& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (auto& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a == b;
}

template <class Space>
std::unique_ptr<engine> make_for(int width, const sa_options& algorithm) {
  if (width == 64) return std::make_unique<index_engine<Space, std::uint64_t>>(algorithm);
  return std::make_unique<index_engine<Space, std::uint32_t>>(algorithm);
}

}  // namespace

std::string gpu_unusable_reason() {
#ifdef KOKKOS_ENABLE_CUDA
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  // Out of memory while starting CUDA (e.g. under `ulimit -v`) is not a missing GPU.
  if (status == cudaErrorMemoryAllocation)
    throw error(error_code::host_out_of_memory, std::string("not enough memory to start CUDA (") +
                                                    cudaGetErrorString(status) + ")");
  if (status != cudaSuccess) return cudaGetErrorString(status);
  if (devices == 0) return "no CUDA device";
#endif
  return {};
}

std::shared_ptr<void> start_kokkos(int threads) {
  // Kokkos initialises every backend it was built with, CUDA included, and aborts without a
  // GPU; main() turns to the host fallback before this point, so here one line suffices.
  const std::string no_gpu = gpu_unusable_reason();
  if (!no_gpu.empty())
    throw error(error_code::device_error, "this strix is built for CUDA and finds no usable GPU (" + no_gpu + ")");
  // Kokkos reads only what strix passes: the program name and, given, the thread count.
  std::string name = "strix";
#if KOKKOS_VERSION >= 40000
  std::string count = "--kokkos-num-threads=" + std::to_string(threads);
#else
  std::string count = "--kokkos-threads=" + std::to_string(threads);
#endif
  // Kokkos' warnings go to stdout (which holds --stats' JSON); strix says what matters itself.
  std::string quiet = "--kokkos-disable-warnings";
  char* args[] = {name.data(), quiet.data(), count.data(), nullptr};
  int argc = threads > 0 ? 3 : 2;
  return std::make_shared<Kokkos::ScopeGuard>(argc, args);
}

std::string enabled_backends() {
  std::string s = strix::enabled_backends();
#ifdef KOKKOS_ENABLE_CUDA
  // The host backends this CUDA build is not compiled for run in strix-host, when it is there.
  std::string elsewhere;
  for (const char* b : {"openmp", "serial"})
    if (host_backend_elsewhere(b)) elsewhere += std::string(elsewhere.empty() ? "" : ", ") + b;
  if (!elsewhere.empty() && host_fallback_present()) s += ", " + elsewhere + " (strix-host)";
#endif
  return s;
}

bool host_backend_elsewhere(const std::string& backend) {
#ifdef KOKKOS_ENABLE_CUDA
  return (same_name(backend, "openmp") && !STRIX_ETI_HAS_OPENMP) || (same_name(backend, "serial") && !STRIX_ETI_HAS_SERIAL);
#else
  (void)backend;
  return false;
#endif
}

std::unique_ptr<engine> make_engine(const std::string& backend, int width, const sa_options& algorithm) {
  STRIX_REQUIRE(width == 32 || width == 64);
  const std::string pick =
      backend == "default" ? std::string(Kokkos::DefaultExecutionSpace::name()) : backend;
#if STRIX_ETI_HAS_CUDA
  if (same_name(pick, "cuda")) return make_for<Kokkos::Cuda>(width, algorithm);
#endif
#if STRIX_ETI_HAS_OPENMP
  if (same_name(pick, "openmp")) return make_for<Kokkos::OpenMP>(width, algorithm);
#endif
#if STRIX_ETI_HAS_SERIAL
  if (same_name(pick, "serial")) return make_for<Kokkos::Serial>(width, algorithm);
#endif
  throw error(error_code::invalid_input, "backend '" + backend + "' is not compiled into this build");
}

}  // namespace strix::cli
