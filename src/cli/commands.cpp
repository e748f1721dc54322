#include "commands.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include <strix/strix.hpp>

#include "backends.hpp"
#include "demo_text.hpp"
#include "file_io.hpp"
#include "widths.hpp"

namespace strix::cli {
namespace {


// Host memory for the text and the suffix array on their way to and from the backend:
// pinned for CUDA (fast DMA, no page faults), plain host memory otherwise.
template <class ExecSpace>
struct staging {
  using space = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct staging<Kokkos::Cuda> {
  using space = Kokkos::CudaHostPinnedSpace;
};
#endif
template <class ExecSpace>
using staging_space = typename staging<ExecSpace>::space;

// What one suffix-array construction on a backend produced, with its timings.
template <class I, class ExecSpace>
struct sa_run {
  Kokkos::View<I*, staging_space<ExecSpace>> sa;
  run_stats stats;
  double allocate = 0, to_device = 0, construct = 0, to_host = 0;
  std::string backend, device;
};

// Builds the SA of a staged text. Like libcubwt's benchmark, device memory (text, SA,
// workspace) and the staging buffer are allocated before the clock starts; the timed
// part is copy in, construction, copy out.
template <class I, class ExecSpace>
sa_run<I, ExecSpace> build_sa(const ExecSpace& space,
                              const Kokkos::View<std::uint8_t*, staging_space<ExecSpace>>& text,
                              const common_options& common) {
  using mem = typename ExecSpace::memory_space;
  sa_run<I, ExecSpace> run;
  run.backend = ExecSpace::name();
  run.device = device_name(space);
  const std::uint64_t n = text.extent(0);
  auto t0 = clock_type::now();
  auto text_d = Kokkos::create_mirror_view(mem(), text);  // the same view on a host backend
  Kokkos::View<I*, mem> sa_d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::sa"), n);
  run.sa = Kokkos::create_mirror_view(staging_space<ExecSpace>(), sa_d);
  suffix_array_workspace<ExecSpace, I> workspace(space, n);
  space.fence();
  run.allocate = seconds_since(t0);

  sa_options options;
  options.progress = common.progress || n >= (256ull << 20);
  t0 = clock_type::now();
  Kokkos::deep_copy(space, text_d, text);
  space.fence();
  run.to_device = seconds_since(t0);
  t0 = clock_type::now();
  suffix_array(space, text_d, sa_d, workspace, options, &run.stats);
  space.fence();
  run.construct = seconds_since(t0);
  t0 = clock_type::now();
  Kokkos::deep_copy(space, run.sa, sa_d);
  space.fence();
  run.to_host = seconds_since(t0);
  return run;
}

template <class Run>
nlohmann::json stats_json(const std::string& command, std::uint64_t n, const Run& run) {
  using I = typename decltype(run.sa)::non_const_value_type;
  nlohmann::json j;
  j["command"] = command;
  j["n"] = n;
  j["width"] = 8 * sizeof(I);
  j["backend"] = run.backend;
  j["device"] = run.device;
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& p : run.stats.phases) phases[p.first] = p.second;
  j["phases_seconds"] = phases;
  j["rounds"] = run.stats.rounds;
  j["allocate_seconds"] = run.allocate;
  j["copy_to_device_seconds"] = run.to_device;
  j["construct_seconds"] = run.construct;
  j["copy_to_host_seconds"] = run.to_host;
  const double total = run.to_device + run.construct + run.to_host;
  j["total_seconds"] = total;
  j["throughput_MBps"] = total > 0 ? n / total / 1e6 : 0.0;
  j["construct_throughput_MBps"] = run.construct > 0 ? n / run.construct / 1e6 : 0.0;
  j["peak_bytes"] = run.stats.peak_bytes;
  j["peak_bytes_per_input_byte"] = n ? double(run.stats.peak_bytes) / double(n) : 0.0;
  return j;
}

template <class I>
int write_sa(const sa_command& cmd, const common_options& common, atomic_output& out) {
  return with_backend(common.backend, [&](auto space) {
    using S = decltype(space);
    auto text = read_file<staging_space<S>>(cmd.input);
    auto run = build_sa<I>(space, text, common);
    out.write(run.sa.data(), run.sa.extent(0) * sizeof(I));
    out.commit();
    if (common.stats) std::cout << stats_json("sa", text.extent(0), run).dump(2) << std::endl;
    return 0;
  });
}

template <class I>
int write_bwt(const bwt_command& cmd, const common_options& common, atomic_output& out) {
  return with_backend(common.backend, [&](auto space) {
    using S = decltype(space);
    using mem = typename S::memory_space;
    auto text = read_file<staging_space<S>>(cmd.input);
    auto run = build_sa<I>(space, text, common);
    auto t0 = clock_type::now();
    auto text_d = Kokkos::create_mirror_view_and_copy(mem(), text);
    auto sa_d = Kokkos::create_mirror_view_and_copy(mem(), run.sa);
    Kokkos::View<std::uint8_t*, mem> bwt_d("strix::bwt", text.extent(0));
    const std::uint64_t primary = bwt(space, text_d, sa_d, bwt_d);
    auto bwt_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bwt_d);
    const double bwt_seconds = seconds_since(t0);
    out.write(bwt_h.data(), bwt_h.extent(0));
    out.commit();
    if (common.stats) {
      auto j = stats_json("bwt", text.extent(0), run);
      j["primary_index"] = primary;
      j["bwt_seconds"] = bwt_seconds;
      std::cout << j.dump(2) << std::endl;
    } else {
      std::cout << "primary index: " << primary << std::endl;
    }
    return 0;
  });
}

template <class I>
int check_sa(const common_options& common, const std::string& text_path, const std::string& sa_path) {
  auto text = read_file(text_path);
  auto raw = read_file(sa_path);
  Kokkos::View<const I*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> sa_h(
      reinterpret_cast<const I*>(raw.data()), text.extent(0));
  return with_backend(common.backend, [&](auto space) {
    using mem = typename decltype(space)::memory_space;
    auto text_d = Kokkos::create_mirror_view_and_copy(mem(), text);
    Kokkos::View<I*, mem> sa_d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::sa"),
                               text.extent(0));
    Kokkos::deep_copy(sa_d, sa_h);
    const auto result = check_suffix_array(space, text_d, sa_d);
    if (!result.ok) {
      std::cerr << "strix: suffix array is wrong: " << result.message << std::endl;
      return 1;
    }
    std::cout << "ok: correct " << 8 * sizeof(I) << "-bit suffix array of " << text.extent(0)
              << " bytes" << std::endl;
    return 0;
  });
}

}  // namespace

int run_sa(const sa_command& cmd, const common_options& common) {
  const int width = choose_width(input_size(cmd.input), cmd.width);
  atomic_output out(cmd.output);  // fails early on a bad output path
  return width == 32 ? write_sa<std::uint32_t>(cmd, common, out)
                     : write_sa<std::uint64_t>(cmd, common, out);
}

int run_bwt(const bwt_command& cmd, const common_options& common) {
  const int width = choose_width(input_size(cmd.input), 0);
  atomic_output out(cmd.output);
  return width == 32 ? write_bwt<std::uint32_t>(cmd, common, out)
                     : write_bwt<std::uint64_t>(cmd, common, out);
}

int run_unbwt(const unbwt_command& cmd, const common_options&) {
  atomic_output out(cmd.output);
  auto data = read_file(cmd.input);
  const auto text = inverse_bwt(data.data(), data.extent(0), cmd.primary);
  out.write(text.data(), text.size());
  out.commit();
  return 0;
}

int run_check(const check_command& cmd, const common_options& common) {
  const std::uint64_t n = input_size(cmd.input);
  const int width = suffix_array_file_width(n, cmd.sa_file);
  return width == 64 ? check_sa<std::uint64_t>(common, cmd.input, cmd.sa_file)
                     : check_sa<std::uint32_t>(common, cmd.input, cmd.sa_file);
}

int run_demo(const demo_command& cmd, const common_options& common) {
  STRIX_USER_REQUIRE(cmd.size > 0 && cmd.size < four_gib, "--size must be in 1..2^32-1 bytes");
  STRIX_USER_REQUIRE(cmd.repeats >= 1, "--repeats must be at least 1");
  const auto generated = demo_text(cmd.size);
  return with_backend(common.backend, [&](auto space) {
    using S = decltype(space);
    using mem = typename S::memory_space;
    Kokkos::View<std::uint8_t*, staging_space<S>> text(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::demo_text"), cmd.size);
    std::copy(generated.begin(), generated.end(), text.data());
    std::vector<sa_run<std::uint32_t, S>> runs;
    for (int r = 0; r < cmd.repeats; ++r) runs.push_back(build_sa<std::uint32_t>(space, text, common));
    auto text_d = Kokkos::create_mirror_view_and_copy(mem(), text);
    auto sa_d = Kokkos::create_mirror_view_and_copy(mem(), runs.back().sa);
    const auto verdict = check_suffix_array(space, text_d, sa_d);
    std::vector<double> construct, total;
    for (auto& r : runs) {
      construct.push_back(r.construct);
      total.push_back(r.to_device + r.construct + r.to_host);
    }
    std::sort(construct.begin(), construct.end());
    std::sort(total.begin(), total.end());
    const double med_c = construct[construct.size() / 2], med_t = total[total.size() / 2];
    if (common.stats) {
      auto j = stats_json("demo", cmd.size, runs.back());
      j["median_construct_seconds"] = med_c;
      j["median_total_seconds"] = med_t;
      j["check"] = verdict.ok ? "ok" : verdict.message;
      std::cout << j.dump(2) << std::endl;
    } else {
      std::printf("strix demo: %llu bytes of generated text on %s (%s)\n",
                  static_cast<unsigned long long>(cmd.size), runs.back().backend.c_str(),
                  runs.back().device.c_str());
      std::printf("  suffix array: %.3f s median of %d (%.1f MB/s), %.3f s with copies (%.1f MB/s)\n",
                  med_c, cmd.repeats, cmd.size / med_c / 1e6, med_t, cmd.size / med_t / 1e6);
      std::printf("  peak memory: %.1f bytes per input byte; %d doubling rounds\n",
                  double(runs.back().stats.peak_bytes) / double(cmd.size), runs.back().stats.rounds);
      std::printf("  check: %s\n", verdict.ok ? "suffix array is correct" : verdict.message.c_str());
    }
    return verdict.ok ? 0 : 1;
  });
}

}  // namespace strix::cli
