#include "commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include <strix/strix.hpp>

#include "backends.hpp"
#include "demo_text.hpp"
#include "file_io.hpp"

namespace strix::cli {
namespace {

using clock_type = std::chrono::steady_clock;
using host_bytes = Kokkos::View<std::uint8_t*, Kokkos::HostSpace>;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Suffix arrays are written as raw little-endian integers.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

constexpr std::uint64_t four_gib = 1ull << 32;

int choose_width(std::uint64_t n, int requested) {
  if (requested == 0) return n < four_gib ? 32 : 64;
  STRIX_USER_REQUIRE(requested == 32 || requested == 64, "--width must be 32 or 64");
  STRIX_USER_REQUIRE(requested == 64 || n < four_gib,
                     "an input of " + std::to_string(n) +
                         " bytes needs --width 64 (a 32-bit suffix array holds fewer than 2^32 entries)");
  return requested;
}

// What one suffix-array construction on a backend produced, with its timings.
template <class I>
struct sa_run {
  Kokkos::View<I*, Kokkos::HostSpace> sa;
  run_stats stats;
  double to_device = 0, construct = 0, to_host = 0;
  std::string backend, device;
};

template <class I, class ExecSpace>
sa_run<I> build_sa(const ExecSpace& space, const host_bytes& text, const common_options& common) {
  using mem = typename ExecSpace::memory_space;
  sa_run<I> run;
  run.backend = ExecSpace::name();
  run.device = device_name(space);
  const std::uint64_t n = text.extent(0);
  auto t0 = clock_type::now();
  auto text_d = Kokkos::create_mirror_view_and_copy(mem(), text);
  Kokkos::View<I*, mem> sa_d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::sa"), n);
  space.fence();
  run.to_device = seconds_since(t0);
  sa_options options;
  options.progress = common.progress || n >= (256ull << 20);
  t0 = clock_type::now();
  suffix_array(space, text_d, sa_d, options, &run.stats);
  space.fence();
  run.construct = seconds_since(t0);
  t0 = clock_type::now();
  run.sa = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sa_d);
  run.to_host = seconds_since(t0);
  return run;
}

template <class I>
nlohmann::json stats_json(const std::string& command, std::uint64_t n, const sa_run<I>& run) {
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
int write_sa(const sa_command& cmd, const common_options& common, const host_bytes& text,
             atomic_output& out) {
  return with_backend(common.backend, [&](auto space) {
    auto run = build_sa<I>(space, text, common);
    out.write(run.sa.data(), run.sa.extent(0) * sizeof(I));
    out.commit();
    if (common.stats) std::cout << stats_json("sa", text.extent(0), run).dump(2) << std::endl;
    return 0;
  });
}

template <class I>
int write_bwt(const common_options& common, const host_bytes& text, atomic_output& out) {
  return with_backend(common.backend, [&](auto space) {
    using mem = typename decltype(space)::memory_space;
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
int check_sa(const common_options& common, const host_bytes& text, const std::string& sa_path) {
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
  auto text = read_file(cmd.input);
  return width == 32 ? write_sa<std::uint32_t>(cmd, common, text, out)
                     : write_sa<std::uint64_t>(cmd, common, text, out);
}

int run_bwt(const bwt_command& cmd, const common_options& common) {
  const int width = choose_width(input_size(cmd.input), 0);
  atomic_output out(cmd.output);
  auto text = read_file(cmd.input);
  return width == 32 ? write_bwt<std::uint32_t>(common, text, out)
                     : write_bwt<std::uint64_t>(common, text, out);
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
  const std::uint64_t sa_bytes = input_size(cmd.sa_file);
  STRIX_USER_REQUIRE(n == 0 ? sa_bytes == 0 : (sa_bytes == 4 * n || sa_bytes == 8 * n),
                     "suffix array file '" + cmd.sa_file + "' has " + std::to_string(sa_bytes) +
                         " bytes; a text of " + std::to_string(n) + " bytes needs " +
                         std::to_string(4 * n) + " (32-bit) or " + std::to_string(8 * n) +
                         " (64-bit)");
  auto text = read_file(cmd.input);
  return (n != 0 && sa_bytes == 8 * n) ? check_sa<std::uint64_t>(common, text, cmd.sa_file)
                                       : check_sa<std::uint32_t>(common, text, cmd.sa_file);
}

int run_demo(const demo_command& cmd, const common_options& common) {
  STRIX_USER_REQUIRE(cmd.size > 0 && cmd.size < four_gib, "--size must be in 1..2^32-1 bytes");
  STRIX_USER_REQUIRE(cmd.repeats >= 1, "--repeats must be at least 1");
  const auto generated = demo_text(cmd.size);
  host_bytes text(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::demo_text"), cmd.size);
  std::copy(generated.begin(), generated.end(), text.data());
  return with_backend(common.backend, [&](auto space) {
    using mem = typename decltype(space)::memory_space;
    std::vector<sa_run<std::uint32_t>> runs;
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
