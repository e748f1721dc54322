// SPDX-License-Identifier: BSD-3-Clause
// strix demo [--size BYTES] [--repeats R]: build, time and check the suffix array of a
// generated English-like text.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include <strix/core/length.hpp>
#include <strix/sa/algorithm.hpp>

#include "command.hpp"
#include "demo_text.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_demo_command(CLI::App& app) {
  struct options {
    std::uint64_t size = 32ull << 20;
    int repeats = 3;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand(
      "demo", "build and check the suffix array of a generated English-like text; print throughput");
  sub->add_option("--size", o->size, "bytes of generated text (default 32 MiB)");
  sub->add_option("--repeats", o->repeats, "constructions to time (median is reported)");
  add_common_options(sub, o->common);
  add_algorithm_option(sub, o->common);
  return [o] {
    STRIX_USER_REQUIRE(o->size > 0 && index_width_for(o->size) == 32,
                       "--size must be in 1.." + std::to_string(max_length<std::uint32_t>()) + " bytes");
    STRIX_USER_REQUIRE(o->repeats >= 1, "--repeats must be at least 1");
    const std::uint64_t n = o->size;
    auto s = open_session(o->common, 32, n);
    index_job index(*s, parse_sa_options(o->common.algorithm));
    host_buffer text = s->allocate_host(n);
    const auto generated = demo_text(n);
    std::memcpy(text.data, generated.data(), n);
    std::vector<double> construct, total;
    host_buffer sa;
    for (int r = 0; r < o->repeats; ++r) {
      s->reset_report();
      index.load_text(text, n);
      index.build_suffix_array();
      sa = index.suffix_array();
      for (const auto& stage : s->report().stages.phases)
        if (stage.first == "suffix_array") construct.push_back(stage.second);
      total.push_back(s->report().total_seconds());
    }
    const std::string wrong = index.check_suffix_array(sa);
    progress().stop();
    std::sort(construct.begin(), construct.end());
    std::sort(total.begin(), total.end());
    const double med_c = construct[construct.size() / 2], med_t = total[total.size() / 2];
    if (o->common.stats) {
      auto j = stats_json("demo", n, *s);
      j["median_construct_seconds"] = med_c;
      j["median_total_seconds"] = med_t;
      j["check"] = wrong.empty() ? "ok" : wrong;
      print_json(j);
    } else {
      const auto& report = s->report();
      std::printf("strix demo: %llu bytes of generated text on %s (%s)\n",
                  static_cast<unsigned long long>(n), s->backend().c_str(), s->device().c_str());
      std::printf("  suffix array: %.3f s median of %d (%.1f MB/s), %.3f s with copies (%.1f MB/s)\n",
                  med_c, o->repeats, n / med_c / 1e6, med_t, n / med_t / 1e6);
      std::printf("  algorithm: %s; peak memory: %.1f bytes per input byte; %llu rounds\n",
                  report.library.note("algorithm").c_str(), double(report.library.peak_bytes) / double(n),
                  static_cast<unsigned long long>(report.library.counter("rounds")));
      std::printf("  check: %s\n", wrong.empty() ? "suffix array is correct" : wrong.c_str());
    }
    return wrong.empty() ? 0 : 1;
  };
}

}  // namespace strix::cli
