// SPDX-License-Identifier: BSD-3-Clause
// The strix tool's wavelet engine: a strix::wavelet on one backend, index width, symbol
// size and shape (see wt_engine.hpp).
#include "wt_engine.hpp"

#include <Kokkos_Core.hpp>
#include <cctype>
#include <chrono>

#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::cli {
namespace wt_parts {  // named: engine.cpp may share this file's unity batch

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

using clock_type = std::chrono::steady_clock;
double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

template <class Space, class S, class I, wavelet_shape Shape>
class wt_impl final : public wt_engine {
  using W = wavelet<Space, S, I, Shape>;
  using host_space = typename staging<Space>::space;

 public:
  wt_impl(std::function<void(const std::string&, double)> on_phase) { report_.library.on_phase = std::move(on_phase); }

  std::string backend() const override { return Space::name(); }
  std::string device() const override {
#ifdef KOKKOS_ENABLE_CUDA
    if (std::is_same<Space, Kokkos::Cuda>::value) return Kokkos::Cuda().cuda_device_prop().name;
#endif
    return std::string("host (") + std::to_string(Space().concurrency()) + " threads)";
  }
  int width() const override { return int(8 * sizeof(I)); }

  host_buffer allocate_host(std::size_t bytes) override {
    Kokkos::View<std::uint8_t*, host_space> v;
    try {
      v = Kokkos::View<std::uint8_t*, host_space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::staging"), bytes);
    } catch (const std::exception&) {
      throw error(error_code::host_out_of_memory, "cannot allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    host_buffer b;
    b.data = v.data();
    b.bytes = bytes;
    b.owner = std::shared_ptr<std::uint8_t>(v.data(), [v](std::uint8_t*) mutable { v = {}; });
    return b;
  }

  void build(const host_buffer& text, std::uint64_t n, std::uint64_t chunk) override {
    if (chunk > 0 && chunk < n) {
      const auto t0 = clock_type::now();
      wavelet_options options;
      options.build_chunk = chunk;
      w_ = W::from_host(space_, reinterpret_cast<const S*>(text.data), n, options, &report_.library);
      space_.fence();
      stage("build", t0);
      report_.library.peak_bytes = std::max(report_.library.peak_bytes, w_.bytes());
      return;
    }
    auto t0 = clock_type::now();
    auto d = detail::allocate<S, typename Space::memory_space>("strix::wavelet::text", n);
    Kokkos::deep_copy(space_, d, Kokkos::View<const S*, host_space, Kokkos::MemoryUnmanaged>(reinterpret_cast<const S*>(text.data), n));
    space_.fence();
    stage("copy_to_device", t0);
    t0 = clock_type::now();
    w_ = W(space_, d, {}, &report_.library);
    space_.fence();
    stage("build", t0);
    report_.library.peak_bytes = std::max(report_.library.peak_bytes, w_.bytes() + n * sizeof(S));
  }

  void save(const wt_writer& write) override {
    const auto t0 = clock_type::now();
    save_wavelet(w_, write);
    stage("save", t0);
  }

  void load(const wt_file_header& h, const wt_reader& read) override {
    const auto t0 = clock_type::now();
    wavelet_file_info info;
    info.shape = h.matrix ? wavelet_shape::matrix : wavelet_shape::tree;
    info.symbol_bytes = h.symbol_bytes;
    info.n = h.n;
    info.sigma = h.sigma;
    info.total_bits = h.total_bits;
    info.payload_bytes = h.payload_bytes;
    info.payload_checksum = h.payload_checksum;
    w_ = load_wavelet<W>(space_, info, read);
    space_.fence();
    stage("load", t0);
    report_.library.peak_bytes = std::max(report_.library.peak_bytes, w_.bytes());
  }

  std::vector<std::uint64_t> query(wt_op op, const std::vector<std::uint64_t>& symbols,
                                   const std::vector<std::uint64_t>& args) override {
    const std::size_t m = args.size();
    auto a = allocate_host(m * sizeof(I) + 1);
    auto c = allocate_host(m * sizeof(S) + 1);
    auto out = allocate_host(m * sizeof(I) + 1);
    auto found = allocate_host(m * sizeof(S) + 1);
    I* ap = reinterpret_cast<I*>(a.data);
    S* cp = reinterpret_cast<S*>(c.data);
    for (std::size_t q = 0; q < m; ++q) ap[q] = static_cast<I>(args[q]);
    if (op != wt_op::access)
      for (std::size_t q = 0; q < m; ++q) cp[q] = static_cast<S>(symbols[q]);
    const auto t0 = clock_type::now();
    switch (op) {
      case wt_op::access: w_.access(ap, m, reinterpret_cast<S*>(found.data)); break;
      case wt_op::rank: w_.rank(cp, ap, m, reinterpret_cast<I*>(out.data)); break;
      case wt_op::select: w_.select(cp, ap, m, reinterpret_cast<I*>(out.data)); break;
    }
    stage("queries", t0);
    std::vector<std::uint64_t> answers(m);
    for (std::size_t q = 0; q < m; ++q)
      answers[q] = op == wt_op::access ? std::uint64_t(reinterpret_cast<S*>(found.data)[q])
                                       : std::uint64_t(reinterpret_cast<I*>(out.data)[q]);
    report_.library.set_counter("queries", m);
    return answers;
  }

  std::uint64_t size() const override { return w_.size(); }
  std::uint64_t alphabet_size() const override { return w_.alphabet_size(); }
  int levels() const override { return w_.levels(); }
  std::size_t bytes() const override { return w_.bytes(); }
  const run_report& report() const override { return report_; }

 private:
  void stage(const std::string& name, clock_type::time_point t0) { report_.stages.add_phase(name, seconds_since(t0)); }

  Space space_;
  W w_;
  run_report report_;
};

bool same_name(std::string a, std::string b) {
  for (auto& ch : a) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (auto& ch : b) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return a == b;
}

template <class Space, class S, class I>
std::unique_ptr<wt_engine> make_shape(bool matrix, std::function<void(const std::string&, double)> on_phase) {
  if (matrix) return std::make_unique<wt_impl<Space, S, I, wavelet_shape::matrix>>(std::move(on_phase));
  return std::make_unique<wt_impl<Space, S, I, wavelet_shape::tree>>(std::move(on_phase));
}

template <class Space, class I>
std::unique_ptr<wt_engine> make_symbol(int symbol_bytes, bool matrix, std::function<void(const std::string&, double)> f) {
  if (symbol_bytes == 1) return make_shape<Space, std::uint8_t, I>(matrix, std::move(f));
  if (symbol_bytes == 2) return make_shape<Space, std::uint16_t, I>(matrix, std::move(f));
  return make_shape<Space, std::uint32_t, I>(matrix, std::move(f));
}

template <class Space>
std::unique_ptr<wt_engine> make_for(int width, int symbol_bytes, bool matrix, std::function<void(const std::string&, double)> f) {
  if (width == 64) return make_symbol<Space, std::uint64_t>(symbol_bytes, matrix, std::move(f));
  return make_symbol<Space, std::uint32_t>(symbol_bytes, matrix, std::move(f));
}

}  // namespace wt_parts

using namespace wt_parts;

wt_file_header read_wt_header(const wt_reader& read) {
  const wavelet_file_info info = read_wavelet_info(read);
  wt_file_header h;
  h.matrix = info.shape == wavelet_shape::matrix;
  h.symbol_bytes = info.symbol_bytes;
  h.n = info.n;
  h.sigma = info.sigma;
  h.total_bits = info.total_bits;
  h.payload_bytes = info.payload_bytes;
  h.payload_checksum = info.payload_checksum;
  return h;
}

std::unique_ptr<wt_engine> make_wt_engine(const std::string& backend, int width, int symbol_bytes, bool matrix,
                                          std::function<void(const std::string&, double)> on_phase) {
  STRIX_REQUIRE(width == 32 || width == 64);
  STRIX_REQUIRE(symbol_bytes == 1 || symbol_bytes == 2 || symbol_bytes == 4);
  const std::string pick = backend == "default" ? std::string(Kokkos::DefaultExecutionSpace::name()) : backend;
#if STRIX_ETI_HAS_CUDA
  if (wt_parts::same_name(pick, "cuda")) return wt_parts::make_for<Kokkos::Cuda>(width, symbol_bytes, matrix, std::move(on_phase));
#endif
#if STRIX_ETI_HAS_OPENMP
  if (wt_parts::same_name(pick, "openmp")) return wt_parts::make_for<Kokkos::OpenMP>(width, symbol_bytes, matrix, std::move(on_phase));
#endif
#if STRIX_ETI_HAS_SERIAL
  if (wt_parts::same_name(pick, "serial")) return wt_parts::make_for<Kokkos::Serial>(width, symbol_bytes, matrix, std::move(on_phase));
#endif
  throw error(error_code::invalid_input, "backend '" + backend + "' is not compiled into this build");
}

}  // namespace strix::cli
