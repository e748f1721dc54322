// SPDX-License-Identifier: BSD-3-Clause
// strix.suffix_array, inverse_suffix_array, bwt, unbwt, lcp, check, longest_repeats: host
// arrays in, NumPy arrays out, each one call into libstrix on the chosen backend.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include <strix/bwt/bwt.hpp>
#include <strix/bwt/inverse_bwt.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/repeats/repeats.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/generalized_suffix_array.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>

#include "arrays.hpp"
#include "module.hpp"
#include "runtime.hpp"

namespace strix::python {

namespace {

using opt_backend = std::optional<std::string>;

// The index type a suffix array given by the caller has (32 or 64 bits), as the array.
struct given_sa {
  py::array array;
  int width = 32;
};
given_sa sa_of(const py::handle& obj, std::uint64_t n) {
  given_sa g;
  py::array a = py::array::ensure(obj);
  g.width = a && a.dtype().kind() == 'u' && a.dtype().itemsize() == 8 ? 64 : choose_width(n, std::nullopt);
  if (g.width == 64) g.array = integers_of<std::uint64_t>(obj, "sa");
  else g.array = integers_of<std::uint32_t>(obj, "sa");
  if (std::uint64_t(g.array.size()) != n)
    throw py::value_error("sa has " + std::to_string(g.array.size()) + " entries for a text of " + std::to_string(n));
  return g;
}

template <class I>
const I* data_of(const py::array& a) {
  return static_cast<const I*>(a.data());
}

// Whether sa holds each of 0..n-1 once (so that writes indexed by it stay inside n entries).
template <class I>
bool is_permutation(const I* sa, std::uint64_t n) {
  std::vector<bool> seen(n, false);
  for (std::uint64_t i = 0; i < n; ++i) {
    if (std::uint64_t(sa[i]) >= n || seen[sa[i]]) return false;
    seen[sa[i]] = true;
  }
  return true;
}

py::array suffix_array(const py::object& text, const std::string& algorithm, const opt_backend& backend,
                       const std::optional<int>& width, bool generalized) {
  const auto t = bytes_of(text, "text");
  const auto options = parse_sa_options(algorithm);
  const auto b = parse_backend(backend);
  const int w = choose_width(t.size, width);
  py::array out = w == 64 ? py::array(py::array_t<std::uint64_t>(t.size)) : py::array(py::array_t<std::uint32_t>(t.size));
  void* out_data = out.mutable_data();
  in_kokkos([&] {
    on_backend_and_width(b, w, [&](auto space, auto index) {
      using I = decltype(index);
      const auto text_v = to_space(space, t.data, t.size, "strix::python::text");
      const auto sa = answer_space(space, static_cast<I*>(out_data), t.size, "strix::python::sa");
      if (generalized) strix::generalized_suffix_array(space, text_v, sa, options);
      else strix::suffix_array(space, text_v, sa, options);
      from_space(space, sa, static_cast<I*>(out_data));
    });
  });
  return out;
}

py::array inverse_suffix_array(const py::object& sa_obj, const opt_backend& backend) {
  py::array probe = py::array::ensure(sa_obj);
  const std::uint64_t n = probe ? std::uint64_t(probe.size()) : 0;
  const auto sa = sa_of(sa_obj, n);
  const auto b = parse_backend(backend);
  py::array out = sa.width == 64 ? py::array(py::array_t<std::uint64_t>(n)) : py::array(py::array_t<std::uint32_t>(n));
  void* out_data = out.mutable_data();
  in_kokkos([&] {
    on_backend_and_width(b, sa.width, [&](auto space, auto index) {
      using I = decltype(index);
      if (!is_permutation(data_of<I>(sa.array), n))
        throw error(error_code::invalid_input, "sa is not a permutation of 0..n-1");
      const auto sa_v = to_space(space, data_of<I>(sa.array), n, "strix::python::sa");
      const auto isa = answer_space(space, static_cast<I*>(out_data), n, "strix::python::isa");
      strix::inverse_suffix_array(space, sa_v, isa);
      from_space(space, isa, static_cast<I*>(out_data));
    });
  });
  return out;
}

py::tuple bwt(const py::object& text, const opt_backend& backend) {
  const auto t = bytes_of(text, "text");
  const auto b = parse_backend(backend);
  const int w = choose_width(t.size, std::nullopt);
  py::array_t<std::uint8_t> out(t.size);
  std::uint8_t* out_data = out.mutable_data();
  std::uint64_t primary = 0;
  in_kokkos([&] {
    on_backend_and_width(b, w, [&](auto space, auto index) {
      using I = decltype(index);
      using memory_space = typename decltype(space)::memory_space;
      const auto text_v = to_space(space, t.data, t.size, "strix::python::text");
      const auto workspace = detail::allocate<I, memory_space>("strix::python::sa", t.size);
      const auto l = answer_space(space, out_data, t.size, "strix::python::bwt");
      strix::suffix_array_handle<decltype(space), I> handle(space);
      primary = strix::bwt_from_text(space, text_v, workspace, l, handle);
      from_space(space, l, out_data);
    });
  });
  return py::make_tuple(out, primary);
}

py::array_t<std::uint8_t> unbwt(const py::object& l, std::uint64_t primary) {
  const auto t = bytes_of(l, "bwt");
  std::vector<std::uint8_t> text;
  {
    py::gil_scoped_release release;
    text = strix::inverse_bwt(t.data, t.size, primary);
  }
  return adopt(std::move(text));
}

py::array lcp(const py::object& text, const py::object& sa_obj, const opt_backend& backend) {
  const auto t = bytes_of(text, "text");
  const bool given = !sa_obj.is_none();
  const auto sa = given ? sa_of(sa_obj, t.size) : given_sa{py::array(), choose_width(t.size, std::nullopt)};
  const auto b = parse_backend(backend);
  py::array out = sa.width == 64 ? py::array(py::array_t<std::uint64_t>(t.size)) : py::array(py::array_t<std::uint32_t>(t.size));
  void* out_data = out.mutable_data();
  in_kokkos([&] {
    on_backend_and_width(b, sa.width, [&](auto space, auto index) {
      using I = decltype(index);
      using memory_space = typename decltype(space)::memory_space;
      const auto text_v = to_space(space, t.data, t.size, "strix::python::text");
      const auto h = answer_space(space, static_cast<I*>(out_data), t.size, "strix::python::lcp");
      if (given) {
        const auto sa_v = to_space(space, data_of<I>(sa.array), t.size, "strix::python::sa");
        const auto ok = strix::check_suffix_array(space, text_v, sa_v);
        if (!ok) throw error(error_code::invalid_input, "sa is not the text's suffix array: " + ok.message);
        strix::lcp_array(space, text_v, sa_v, h);
      } else {
        // The suffix array in the answer's place, then the LCP over it.
        strix::suffix_array(space, text_v, h);
        strix::lcp_array(space, text_v, h, h);
      }
      from_space(space, h, static_cast<I*>(out_data));
    });
  });
  return out;
}

bool check(const py::object& text, const py::object& sa_obj, const opt_backend& backend, bool generalized) {
  const auto t = bytes_of(text, "text");
  py::array probe = py::array::ensure(sa_obj);
  if (!probe || (probe.dtype().kind() != 'i' && probe.dtype().kind() != 'u'))
    throw py::type_error("sa must be an array of integers");
  if (std::uint64_t(probe.size()) != t.size) return false;
  given_sa sa;
  try {
    sa = sa_of(sa_obj, t.size);
  } catch (const py::value_error&) {  // negative or too large: not a suffix array
    return false;
  }
  const auto b = parse_backend(backend);
  bool ok = false;
  in_kokkos([&] {
    ok = on_backend_and_width(b, sa.width, [&](auto space, auto index) {
      using I = decltype(index);
      const auto text_v = to_space(space, t.data, t.size, "strix::python::text");
      const auto sa_v = to_space(space, data_of<I>(sa.array), t.size, "strix::python::sa");
      return bool(generalized ? strix::check_generalized_suffix_array(space, text_v, sa_v)
                              : strix::check_suffix_array(space, text_v, sa_v));
    });
  });
  return ok;
}

// leftmost: (starts, lengths), one entry per position; all: (offsets, starts, lengths),
// position k's repeats at [offsets[k], offsets[k + 1]).
py::tuple longest_repeats(const py::object& text, bool all, const std::string& method, const opt_backend& backend) {
  const auto t = bytes_of(text, "text");
  repeat_options options;
  if (method == "compact") options.method = repeat_method::compact;
  else if (method == "raw") options.method = repeat_method::raw;
  else throw py::value_error("method is 'compact' or 'raw', not '" + method + "'");
  const auto b = parse_backend(backend);
  const int w = choose_width(t.size, std::nullopt);
  std::vector<std::uint64_t> offsets, starts, lengths;
  in_kokkos([&] {
    on_backend_and_width(b, w, [&](auto space, auto index) {
      using I = decltype(index);
      using memory_space = typename decltype(space)::memory_space;
      const std::uint64_t n = t.size;
      const auto text_v = to_space(space, t.data, n, "strix::python::text");
      const auto sa = detail::allocate<I, memory_space>("strix::python::sa", n);
      const auto rank = detail::allocate<I, memory_space>("strix::python::rank", n);
      const auto h = detail::allocate<I, memory_space>("strix::python::lcp", n);
      strix::suffix_array(space, text_v, sa);
      strix::inverse_suffix_array(space, sa, rank);
      strix::lcp_array(space, text_v, sa, h);
      Kokkos::View<repeat<I>*, memory_space> records;
      if (all) {
        const auto r = strix::all_longest_repeats(space, rank, h, options);
        const auto o = strix::to_host(space, r.offsets);
        offsets.assign(o.data(), o.data() + o.extent(0));
        records = r.records;
      } else {
        records = detail::allocate<repeat<I>, memory_space>("strix::python::repeats", n);
        strix::leftmost_longest_repeats(space, rank, h, records, options);
      }
      const auto host = strix::to_host(space, records);
      starts.resize(host.extent(0));
      lengths.resize(host.extent(0));
      for (std::size_t k = 0; k < host.extent(0); ++k) {
        starts[k] = host(k).start;
        lengths[k] = host(k).length;
      }
    });
  });
  if (all) return py::make_tuple(adopt(std::move(offsets)), adopt(std::move(starts)), adopt(std::move(lengths)));
  return py::make_tuple(adopt(std::move(starts)), adopt(std::move(lengths)));
}

}  // namespace

void add_functions(py::module_& m) {
  using namespace py::literals;
  m.def("suffix_array", &suffix_array, "text"_a, py::kw_only(), "algorithm"_a = "auto", "backend"_a = py::none(),
        "width"_a = py::none(), "generalized"_a = false,
        "The suffix array of `text` (bytes-like or a 1-D uint8 array, read in place): a uint32 array, or uint64\n"
        "when the text needs it or width=64 asks. algorithm: 'auto', 'prefix-doubling', 'larsson-sadakane',\n"
        "'skew', 'hybrid', 'dcx', 'dcN', 'divsufsort', 'sais'; backend: one of strix.backends() (default: the first).\n"
        "generalized=True: each 0x00 byte ends a string, and suffixes that reach 0x00s at the same offset with\n"
        "equal bytes before them are ordered by where those 0x00s are (libsais' gsa order).");
  m.def("inverse_suffix_array", &inverse_suffix_array, "sa"_a, py::kw_only(), "backend"_a = py::none(),
        "The inverse of a suffix array (rank[sa[i]] = i), of its index type (uint64 arrays stay 64-bit;\n"
        "other integers give uint32 when n allows); ValueError unless sa is a permutation of 0..n-1.");
  m.def("bwt", &bwt, "text"_a, py::kw_only(), "backend"_a = py::none(),
        "The Burrows-Wheeler transform of `text` without its sentinel (libdivsufsort's divbwt layout):\n"
        "(a uint8 array of n symbols, the primary index). strix.unbwt inverts it.");
  m.def("unbwt", &unbwt, "bwt"_a, "primary"_a, "The text of a BWT in divbwt layout and its primary index, as a uint8 array.");
  m.def("lcp", &lcp, "text"_a, "sa"_a = py::none(), py::kw_only(), "backend"_a = py::none(),
        "The LCP array of `text` (lcp[0] = 0, lcp[i] = the longest common prefix of the suffixes at sa[i-1] and\n"
        "sa[i]), from its suffix array `sa` when given (checked first: ValueError if it is not), else built.");
  m.def("check", &check, "text"_a, "sa"_a, py::kw_only(), "backend"_a = py::none(), "generalized"_a = false,
        "Whether `sa` is the suffix array of `text` (a linear-time check); generalized=True: its generalized\n"
        "suffix array (suffix_array(..., generalized=True)).");
  m.def("longest_repeats", &longest_repeats, "text"_a, py::kw_only(), "all"_a = false, "method"_a = "compact",
        "backend"_a = py::none(),
        "The longest repeats covering each position of `text` (Tian and Xu): all=False gives (starts, lengths),\n"
        "the leftmost one per position ((0, 0) where none covers it); all=True gives (offsets, starts, lengths),\n"
        "position k's repeats at [offsets[k], offsets[k+1]) in increasing start order. method: 'compact' or 'raw'.");
}

}  // namespace strix::python
