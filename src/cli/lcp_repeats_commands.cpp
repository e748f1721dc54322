#include "lcp_repeats_commands.hpp"

#include <charconv>
#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include <strix/strix.hpp>

#include "backends.hpp"
#include "file_io.hpp"
#include "widths.hpp"

namespace strix::cli {
namespace {

using host_bytes = Kokkos::View<std::uint8_t*, Kokkos::HostSpace>;

// Index width: --width, else the --sa file's, else 32 when n < 2^32; they must agree.
int resolve_width(std::uint64_t n, int requested, const std::string& sa_file) {
  STRIX_USER_REQUIRE(requested == 0 || requested == 32 || requested == 64, "--width must be 32 or 64");
  int width = requested;
  if (!sa_file.empty()) {
    const int from_file = suffix_array_file_width(n, sa_file);
    STRIX_USER_REQUIRE(width == 0 || from_file == 0 || width == from_file,
                       "--width " + std::to_string(width) + " disagrees with the " +
                           std::to_string(from_file) + "-bit suffix array file");
    if (width == 0) width = from_file;
  }
  return choose_width(n, width);
}

// Timings of one run, stage by stage, and the phases the library reported.
struct timings {
  std::vector<std::pair<std::string, double>> stages;
  run_stats phases;
  std::size_t peak_bytes = 0;

  void merge(const run_stats& s) {
    for (const auto& p : s.phases) phases.add(p.first, p.second);
    if (s.peak_bytes > peak_bytes) peak_bytes = s.peak_bytes;
  }
};

// Text, suffix array and LCP array on the execution space.
template <class I, class Space>
struct device_index {
  using mem = typename Space::memory_space;
  Kokkos::View<std::uint8_t*, mem> text;
  Kokkos::View<I*, mem> sa, lcp;
};

template <class I, class Space>
device_index<I, Space> build_index(const Space& space, const host_bytes& text,
                                   const std::string& sa_file, bool progress, timings& t) {
  using mem = typename Space::memory_space;
  const std::uint64_t n = text.extent(0);
  device_index<I, Space> idx;
  auto t0 = clock_type::now();
  idx.text = Kokkos::create_mirror_view_and_copy(mem(), text);
  idx.sa = Kokkos::View<I*, mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::sa"), n);
  space.fence();
  t.stages.push_back({"copy_to_device", seconds_since(t0)});
  t0 = clock_type::now();
  if (sa_file.empty()) {
    run_stats s;
    sa_options options;
    options.progress = progress;
    suffix_array(space, idx.text, idx.sa, options, &s);
    t.merge(s);
    space.fence();
    t.stages.push_back({"suffix_array", seconds_since(t0)});
  } else {
    auto raw = read_file(sa_file);
    Kokkos::View<const I*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> sa_h(
        reinterpret_cast<const I*>(raw.data()), n);
    Kokkos::deep_copy(idx.sa, sa_h);
    const auto verdict = check_suffix_array(space, idx.text, idx.sa);
    STRIX_USER_REQUIRE(verdict.ok, "'" + sa_file + "' is not the suffix array of the input: " +
                                       verdict.message);
    t.stages.push_back({"load_and_check_suffix_array", seconds_since(t0)});
  }
  t0 = clock_type::now();
  idx.lcp = Kokkos::View<I*, mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::lcp"), n);
  run_stats s;
  lcp_options options;
  options.progress = progress;
  lcp_array(space, idx.text, idx.sa, idx.lcp, options, &s);
  t.merge(s);
  space.fence();
  t.stages.push_back({"lcp", seconds_since(t0)});
  return idx;
}

template <class Space>
nlohmann::json stats_json(const std::string& command, std::uint64_t n, int width,
                          const Space& space, const timings& t) {
  nlohmann::json j;
  j["command"] = command;
  j["n"] = n;
  j["width"] = width;
  j["backend"] = Space::name();
  j["device"] = device_name(space);
  nlohmann::json stages = nlohmann::json::object(), phases = nlohmann::json::object();
  double total = 0;
  for (const auto& s : t.stages) {
    stages[s.first] = s.second;
    total += s.second;
  }
  for (const auto& p : t.phases.phases) phases[p.first] = p.second;
  j["stages_seconds"] = stages;
  j["phases_seconds"] = phases;
  j["total_seconds"] = total;
  j["peak_bytes"] = t.peak_bytes;
  return j;
}

template <class I>
int write_lcp(const lcp_command& cmd, const common_options& common, const host_bytes& text,
              atomic_output& out) {
  return with_backend(common.backend, [&](auto space) {
    timings t;
    auto idx = build_index<I>(space, text, cmd.sa_file, common.progress, t);
    auto t0 = clock_type::now();
    auto lcp_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), idx.lcp);
    t.stages.push_back({"copy_to_host", seconds_since(t0)});
    out.write(lcp_h.data(), lcp_h.extent(0) * sizeof(I));
    out.commit();
    if (common.stats)
      std::cout << stats_json("lcp", text.extent(0), 8 * sizeof(I), space, t).dump(2) << std::endl;
    return 0;
  });
}

// Tab-separated text, buffered: "position start length", "-" and 0 for none.
class tsv_writer {
 public:
  explicit tsv_writer(atomic_output& out) : out_(out) {
    buf_.reserve(1 << 20);
    buf_ += "position\tstart\tlength\n";
  }
  void row(std::uint64_t k, std::uint64_t start, std::uint64_t length) {
    number(k);
    buf_ += '\t';
    if (length == 0) buf_ += '-';
    else number(start);
    buf_ += '\t';
    number(length);
    buf_ += '\n';
    if (buf_.size() > (1u << 20) - 64) flush();
  }
  void flush() {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

 private:
  void number(std::uint64_t x) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof(tmp), x);
    buf_.append(tmp, r.ptr);
  }
  atomic_output& out_;
  std::string buf_;
};

template <class I>
int write_repeats(const repeats_command& cmd, const common_options& common, const host_bytes& text,
                  atomic_output& out, repeat_method method, bool tsv) {
  return with_backend(common.backend, [&](auto space) {
    using mem = typename decltype(space)::memory_space;
    const std::uint64_t n = text.extent(0);
    timings t;
    auto idx = build_index<I>(space, text, cmd.sa_file, common.progress, t);
    auto t0 = clock_type::now();
    Kokkos::View<I*, mem> rank(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::rank"), n);
    inverse_suffix_array(space, idx.sa, rank);
    idx.sa = {};
    idx.text = {};
    space.fence();
    t.stages.push_back({"rank", seconds_since(t0)});
    repeat_options options;
    options.method = method;
    options.progress = common.progress;
    run_stats s;
    t0 = clock_type::now();
    if (!cmd.all) {
      Kokkos::View<repeat<I>*, mem> lr(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::lr"), n);
      leftmost_longest_repeats(space, rank, idx.lcp, lr, options, &s);
      space.fence();
      t.stages.push_back({"longest_repeats", seconds_since(t0)});
      t0 = clock_type::now();
      auto lr_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lr);
      t.stages.push_back({"copy_to_host", seconds_since(t0)});
      if (tsv) {
        tsv_writer w(out);
        for (std::uint64_t k = 0; k < n; ++k) w.row(k, lr_h(k).start, lr_h(k).length);
        w.flush();
      } else {
        out.write(lr_h.data(), n * sizeof(repeat<I>));
      }
    } else {
      auto res = all_longest_repeats(space, rank, idx.lcp, options, &s);
      space.fence();
      t.stages.push_back({"longest_repeats", seconds_since(t0)});
      t0 = clock_type::now();
      auto off_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.offsets);
      auto rec_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), res.records);
      t.stages.push_back({"copy_to_host", seconds_since(t0)});
      if (tsv) {
        tsv_writer w(out);
        for (std::uint64_t k = 0; k < n; ++k) {
          if (off_h(k) == off_h(k + 1)) w.row(k, 0, 0);
          for (std::uint64_t r = off_h(k); r < off_h(k + 1); ++r)
            w.row(k, rec_h(r).start, rec_h(r).length);
        }
        w.flush();
      } else {
        out.write(off_h.data(), off_h.extent(0) * sizeof(std::uint64_t));
        out.write(rec_h.data(), rec_h.extent(0) * sizeof(repeat<I>));
      }
    }
    t.merge(s);
    out.commit();
    if (common.stats) {
      auto j = stats_json("repeats", n, 8 * sizeof(I), space, t);
      j["method"] = cmd.method;
      j["mode"] = cmd.all ? "all" : "leftmost";
      std::cout << j.dump(2) << std::endl;
    }
    return 0;
  });
}

}  // namespace

int run_lcp(const lcp_command& cmd, const common_options& common) {
  const int width = resolve_width(input_size(cmd.input), cmd.width, cmd.sa_file);
  atomic_output out(cmd.output);  // fails early on a bad output path
  auto text = read_file(cmd.input);
  return width == 32 ? write_lcp<std::uint32_t>(cmd, common, text, out)
                     : write_lcp<std::uint64_t>(cmd, common, text, out);
}

int run_repeats(const repeats_command& cmd, const common_options& common) {
  STRIX_USER_REQUIRE(cmd.method == "raw" || cmd.method == "compact",
                     "--method must be raw or compact, not '" + cmd.method + "'");
  STRIX_USER_REQUIRE(cmd.format == "binary" || cmd.format == "tsv",
                     "--format must be binary or tsv, not '" + cmd.format + "'");
  const auto method = cmd.method == "raw" ? repeat_method::raw : repeat_method::compact;
  const bool tsv = cmd.format == "tsv";
  const int width = resolve_width(input_size(cmd.input), cmd.width, cmd.sa_file);
  atomic_output out(cmd.output);
  auto text = read_file(cmd.input);
  return width == 32 ? write_repeats<std::uint32_t>(cmd, common, text, out, method, tsv)
                     : write_repeats<std::uint64_t>(cmd, common, text, out, method, tsv);
}

lcp_repeats_subcommands::lcp_repeats_subcommands(CLI::App& app) {
  lcp_app = app.add_subcommand("lcp", "build the LCP array of INPUT (and its suffix array if needed)");
  lcp_app->add_option("INPUT", lcp_.input, "input text (any bytes)")->required();
  lcp_app->add_option("-o,--output", lcp_.output, "output: n raw little-endian integers")->required();
  lcp_app->add_option("--sa", lcp_.sa_file, "use this suffix array of INPUT (checked) instead of building one");
  lcp_app->add_option("--width", lcp_.width, "bits per entry, 32 or 64 (default: 32 if n < 2^32)");

  repeats_app = app.add_subcommand(
      "repeats", "longest repeat covering every position of INPUT (leftmost, or --all)");
  repeats_app->add_option("INPUT", repeats_.input, "input text (any bytes)")->required();
  repeats_app->add_option("-o,--output", repeats_.output,
                          "output: (start, length) records; see the README")->required();
  repeats_app->add_flag("--all", repeats_.all, "every longest repeat of every position");
  repeats_app->add_option("--method", repeats_.method, "raw or compact LLR array (default compact)");
  repeats_app->add_option("--format", repeats_.format, "binary (default) or tsv");
  repeats_app->add_option("--sa", repeats_.sa_file, "use this suffix array of INPUT (checked)");
  repeats_app->add_option("--width", repeats_.width, "bits per integer, 32 or 64 (default: 32 if n < 2^32)");
}

int lcp_repeats_subcommands::run(const common_options& common) const {
  return lcp_app->parsed() ? run_lcp(lcp_, common) : run_repeats(repeats_, common);
}

}  // namespace strix::cli
