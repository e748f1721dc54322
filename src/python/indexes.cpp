// SPDX-License-Identifier: BSD-3-Clause
// strix.TextIndex and strix.FMIndex: device-resident objects behind a small interface per
// (backend, index width), so that the Python classes hold one of them whatever the types.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <type_traits>

#include <strix/approximate/approximate_search.hpp>
#include <strix/fm_index/fm_index_file.hpp>
#include <strix/index/text_index.hpp>

#include "arrays.hpp"
#include "module.hpp"
#include "runtime.hpp"

namespace strix::python {

namespace {

using opt_backend = std::optional<std::string>;

// --- FMIndex ----------------------------------------------------------------------------

struct fm_located {
  std::vector<std::uint64_t> starts, positions, counts;
};

struct fm_searched {
  std::vector<std::uint64_t> starts, positions;
  std::vector<std::uint8_t> distances;
};

class fm_api {
 public:
  virtual ~fm_api() = default;
  virtual std::uint64_t size() const = 0;
  virtual std::uint64_t sample_rate() const = 0;
  virtual bool can_extract() const = 0;
  virtual const char* layout() const = 0;
  virtual int kmer_length() const = 0;
  virtual std::size_t bytes() const = 0;
  virtual std::vector<std::uint64_t> count(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m) const = 0;
  virtual fm_located locate(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                            std::uint64_t max_occ) const = 0;
  virtual std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length) const = 0;
  virtual void save(const std::string& path, const reference_sequences* sequences) const = 0;
  virtual bool approximate() const = 0;
  virtual fm_searched search(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                             const approximate::search_scheme& scheme, approximate::metric metric) const = 0;
};

template <class Space, class I>
class typed_fm final : public fm_api {
 public:
  explicit typed_fm(fm_index<Space, I> fm) : fm_(std::move(fm)) {}
  // With the reversed text's FM-index: approximate search.
  typed_fm(fm_index<Space, I> fm, fm_index<Space, I> reverse)
      : fm_(std::move(fm)), reverse_(std::make_unique<fm_index<Space, I>>(std::move(reverse))) {}
  std::uint64_t size() const override { return fm_.size(); }
  std::uint64_t sample_rate() const override { return fm_.sample_rate(); }
  bool can_extract() const override { return fm_.can_extract(); }
  const char* layout() const override {
    return fm_layout_name(fm_.layout());
  }
  int kmer_length() const override { return fm_.kmer_length(); }
  std::size_t bytes() const override { return fm_.bytes(); }
  std::vector<std::uint64_t> count(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m) const override {
    std::vector<std::uint64_t> wide(m);
    if constexpr (std::is_same_v<I, std::uint64_t>) {
      fm_.count(bytes, offsets, m, wide.data());  // straight into the array NumPy adopts
    } else {
      const auto c = fm_.count(bytes, offsets, m);
      std::copy(c.begin(), c.end(), wide.begin());
    }
    return wide;
  }
  fm_located locate(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                    std::uint64_t max_occ) const override {
    auto found = fm_.locate(bytes, offsets, m, max_occ);
    fm_located out;
    out.starts = std::move(found.starts);
    out.positions.assign(found.positions.begin(), found.positions.end());
    out.counts.assign(found.counts.begin(), found.counts.end());
    return out;
  }
  std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length) const override {
    return fm_.extract(start, length);
  }
  void save(const std::string& path, const reference_sequences* sequences) const override {
    io::write_file(path, [&](const io::container_writer::sink& out) {
      save_fm_index(fm_, sequences, out, 0, reverse_.get());
    });
  }
  bool approximate() const override { return reverse_ != nullptr; }
  fm_searched search(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                     const approximate::search_scheme& scheme, approximate::metric metric) const override {
    if (!reverse_)
      throw error(error_code::invalid_input,
                  "approximate search needs the reversed text's index: build with approximate=True (or load a file "
                  "of `strix index --approximate`)");
    auto found = search_approximate(fm_, *reverse_, bytes, offsets, m, scheme, metric);
    fm_searched out;
    out.starts = std::move(found.starts);
    out.positions.assign(found.positions.begin(), found.positions.end());
    out.distances = std::move(found.distances);
    return out;
  }

 private:
  fm_index<Space, I> fm_;
  std::unique_ptr<fm_index<Space, I>> reverse_;
};

class py_fm_index final : public resident {
 public:
  py_fm_index(std::unique_ptr<fm_api> fm, backend_id b, int width, std::optional<reference_sequences> sequences)
      : fm_(std::move(fm)), backend_(b), width_(width), sequences_(std::move(sequences)) {}
  ~py_fm_index() override { release_in_destructor(); }
  void release() override { fm_.reset(); }

  const fm_api& fm() const {
    if (!fm_) throw error(error_code::invalid_input, "the FM-index was released (the interpreter is exiting)");
    return *fm_;
  }
  backend_id backend() const { return backend_; }
  int width() const { return width_; }
  const std::optional<reference_sequences>& sequences() const { return sequences_; }

 private:
  std::unique_ptr<fm_api> fm_;
  backend_id backend_;
  int width_;
  std::optional<reference_sequences> sequences_;
};

// Patterns as one byte array and m + 1 offsets: a sequence of bytes-like objects or str
// (UTF-8), or one bytes-like buffer with `offsets`.
struct pattern_batch {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint64_t> offsets{0};
  bool whole = false;  // the caller gave one buffer and its offsets
  byte_span buffer;
  py::array_t<std::uint64_t, py::array::c_style> given_offsets;
  const std::uint8_t* data() const { return whole ? buffer.data : bytes.data(); }
  const std::uint64_t* offset_data() const { return whole ? given_offsets.data() : offsets.data(); }
  std::size_t m = 0;
};

pattern_batch patterns_of(const py::object& patterns, const py::object& offsets) {
  pattern_batch b;
  if (!offsets.is_none()) {
    b.whole = true;
    b.buffer = bytes_of(patterns, "patterns");
    b.given_offsets = integers_of<std::uint64_t>(offsets, "offsets");
    if (b.given_offsets.size() < 1) throw py::value_error("offsets needs m + 1 entries (at least one)");
    b.m = std::size_t(b.given_offsets.size()) - 1;
    const auto* o = b.given_offsets.data();
    if (o[0] != 0 || o[b.m] != b.buffer.size)
      throw py::value_error("offsets must run from 0 to the buffer's length");
    for (std::size_t q = 0; q < b.m; ++q)
      if (o[q + 1] < o[q]) throw py::value_error("offsets must not decrease");
    if (!b.buffer.data) b.buffer.data = reinterpret_cast<const std::uint8_t*>("");  // an empty buffer
    return b;
  }
  if (py::isinstance<py::str>(patterns) || PyObject_CheckBuffer(patterns.ptr()))
    throw py::type_error("patterns must be a sequence of patterns (a list of bytes or str), or one buffer with offsets=");
  for (const auto& p : patterns) {
    if (py::isinstance<py::str>(p)) {
      const std::string s = py::reinterpret_borrow<py::str>(p);
      b.bytes.insert(b.bytes.end(), s.begin(), s.end());
    } else {
      const auto s = bytes_of(p, "a pattern");
      b.bytes.insert(b.bytes.end(), s.data, s.data + s.size);
    }
    b.offsets.push_back(b.bytes.size());
  }
  b.m = b.offsets.size() - 1;
  return b;
}

// A file's whole contents, or a bytes-like text as it is.
byte_span text_or_file(const py::object& text) {
  if (py::isinstance<py::str>(text) || py::hasattr(text, "__fspath__")) {
    const std::string path = path_of(text);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(error_code::io_error, "cannot read '" + path + "'");
    auto* contents = new std::vector<std::uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    py::capsule owner(contents, [](void* p) { delete static_cast<std::vector<std::uint8_t>*>(p); });
    return byte_span{contents->data(), contents->size(), owner};
  }
  return bytes_of(text, "text");
}

fm_options fm_options_of(std::uint64_t sample_rate, bool extract) {
  fm_options o;
  o.sample_rate = sample_rate;
  o.extract = extract;
  return o;
}

std::unique_ptr<py_fm_index> build_fm_of(const std::uint8_t* text, std::uint64_t n, const fm_options& options,
                                         const opt_backend& backend, const std::optional<int>& width,
                                         std::optional<reference_sequences> sequences, bool approximate) {
  const auto b = parse_backend(backend);
  const int w = choose_width(n, width);
  std::unique_ptr<fm_api> fm;
  in_kokkos([&] {
    fm = on_backend_and_width(b, w, [&](auto space, auto index) -> std::unique_ptr<fm_api> {
      using Space = decltype(space);
      using I = decltype(index);
      text_index<Space, I> ti(space, text, n);
      if (!approximate) return std::make_unique<typed_fm<Space, I>>(ti.fm_index(options));
      auto forward = ti.fm_index(options);
      ti.release(index_part::fm_index);
      std::vector<std::uint8_t> reversed(text, text + n);
      std::reverse(reversed.begin(), reversed.end());
      text_index<Space, I> tr(space, reversed.data(), n);
      return std::make_unique<typed_fm<Space, I>>(std::move(forward), tr.fm_index(options));
    });
  });
  return std::make_unique<py_fm_index>(std::move(fm), b, w, std::move(sequences));
}

std::unique_ptr<py_fm_index> build_fm(const py::object& text, std::uint64_t sample_rate, bool extract,
                                      const opt_backend& backend, const std::optional<int>& width, bool approximate) {
  const auto t = text_or_file(text);
  return build_fm_of(t.data, t.size, fm_options_of(sample_rate, extract), backend, width, std::nullopt, approximate);
}

// A reference of named sequences (a dict name -> sequence, or (name, sequence) pairs), joined
// as the tool joins a FASTA file's: no pattern matches across two of them.
std::unique_ptr<py_fm_index> build_reference(const py::object& sequences, std::uint64_t sample_rate, bool extract,
                                             const opt_backend& backend, const std::optional<int>& width,
                                             bool approximate) {
  const py::object items = py::isinstance<py::dict>(sequences) ? py::object(sequences.attr("items")()) : sequences;
  reference_sequences ref;
  std::vector<std::uint8_t> text;
  for (const auto& item : items) {
    const auto pair = py::reinterpret_borrow<py::sequence>(item);
    if (py::len(pair) != 2) throw py::type_error("a reference's sequences are (name, sequence) pairs");
    const auto seq = bytes_of(pair[1], "a sequence");
    if (std::find(seq.data, seq.data + seq.size, reference_separator) != seq.data + seq.size)
      throw py::value_error("a sequence holds a newline, the byte that separates sequences");
    ref.append(std::string(py::str(py::object(pair[0]))), seq.data, seq.size, text);
  }
  if (ref.empty()) throw py::value_error("a reference needs at least one sequence");
  auto options = fm_options_of(sample_rate, extract);
  options.separator = reference_separator;
  return build_fm_of(text.data(), text.size(), options, backend, width, std::move(ref), approximate);
}

// Text positions as (sequence number, offset within it) of the reference.
py::tuple fm_resolve(const py_fm_index& self, const py::object& positions) {
  if (!self.sequences()) throw py::value_error("the index holds a plain text, not a reference of sequences");
  const auto p = integers_of<std::uint64_t>(positions, "positions");
  const auto& ref = *self.sequences();
  std::vector<std::uint64_t> sequence(std::size_t(p.size())), offset(std::size_t(p.size()));
  for (std::size_t k = 0; k < sequence.size(); ++k) {
    if (p.data()[k] >= self.fm().size()) throw py::value_error("a position beyond the text");
    const auto [s, o] = ref.locate(p.data()[k]);
    sequence[k] = s;
    offset[k] = o;
  }
  return py::make_tuple(adopt(std::move(sequence)), adopt(std::move(offset)));
}

std::unique_ptr<py_fm_index> load_fm(const py::object& path_like, const opt_backend& backend) {
  const std::string path = path_of(path_like);
  const auto b = parse_backend(backend);
  std::unique_ptr<fm_api> fm;
  reference_sequences sequences;
  int w = 32;
  in_kokkos([&] {
    io::container_reader file(path, fm_index_file_kind, fm_index_file_version);
    w = 8 * fm_index_file_width(file);
    fm = on_backend_and_width(b, w, [&](auto space, auto index) -> std::unique_ptr<fm_api> {
      using Space = decltype(space);
      using I = decltype(index);
      auto forward = load_fm_index<Space, I>(space, file, &sequences);
      if (!fm_index_file_has_reverse(file)) return std::make_unique<typed_fm<Space, I>>(std::move(forward));
      return std::make_unique<typed_fm<Space, I>>(std::move(forward), load_fm_index_reverse<Space, I>(space, file));
    });
  });
  std::optional<reference_sequences> kept;
  if (!sequences.empty()) kept = std::move(sequences);
  return std::make_unique<py_fm_index>(std::move(fm), b, w, std::move(kept));
}

py::object fm_count(const py_fm_index& self, const py::object& patterns, const py::object& offsets) {
  const auto batch = patterns_of(patterns, offsets);
  std::vector<std::uint64_t> counts;
  in_kokkos([&] {
    counts = self.fm().count(batch.data(), batch.offset_data(), batch.m);
  });
  return adopt(std::move(counts));
}

py::object fm_locate(const py_fm_index& self, const py::object& patterns, const py::object& offsets,
                     const std::optional<std::uint64_t>& max_occ, bool flat) {
  const auto batch = patterns_of(patterns, offsets);
  if (max_occ && *max_occ == 0) throw py::value_error("max_occ must be at least 1 (None: every occurrence)");
  fm_located found;
  in_kokkos([&] {
    found = self.fm().locate(batch.data(), batch.offset_data(), batch.m, max_occ ? *max_occ : 0);
  });
  auto starts = std::move(found.starts);
  auto positions = adopt(std::move(found.positions));
  if (flat) return py::make_tuple(positions, adopt(std::vector<std::uint64_t>(starts)), adopt(std::move(found.counts)));
  py::list per_pattern;
  for (std::size_t q = 0; q < batch.m; ++q)
    per_pattern.append(positions[py::slice(py::int_(starts[q]), py::int_(starts[q + 1]), py::none())]);
  return per_pattern;
}

// Every start within k errors of each read, at its smallest distance (approximate_search.hpp).
py::object fm_search(const py_fm_index& self, const py::object& patterns, const py::object& offsets, int k,
                     const std::string& distance, const std::string& scheme, bool flat) {
  const auto batch = patterns_of(patterns, offsets);
  if (distance != "hamming" && distance != "edit")
    throw py::value_error("distance is 'hamming' or 'edit' (not '" + distance + "')");
  if (k < 0 || k > 6) throw py::value_error("k is 0 to 6 (not " + std::to_string(k) + ")");
  approximate::search_scheme plan;
  try {
    plan = approximate::scheme_named(scheme, k);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(e.what());
  }
  const auto metric = distance == "edit" ? approximate::metric::edit : approximate::metric::hamming;
  fm_searched found;
  in_kokkos([&] {
    found = self.fm().search(batch.data(), batch.offset_data(), batch.m, plan, metric);
  });
  auto starts = std::move(found.starts);
  auto positions = adopt(std::move(found.positions));
  auto distances = adopt(std::move(found.distances));
  if (flat) return py::make_tuple(positions, distances, adopt(std::vector<std::uint64_t>(starts)));
  py::list per_read;
  for (std::size_t q = 0; q < batch.m; ++q) {
    const py::slice range{py::int_(starts[q]), py::int_(starts[q + 1]), py::none()};
    per_read.append(py::make_tuple(positions[range], distances[range]));
  }
  return per_read;
}

py::bytes fm_extract(const py_fm_index& self, std::uint64_t start, std::uint64_t length) {
  std::vector<std::uint8_t> text;
  in_kokkos([&] {
    text = self.fm().extract(start, length);
  });
  return py::bytes(reinterpret_cast<const char*>(text.data()), text.size());
}

void fm_save(const py_fm_index& self, const py::object& path_like) {
  const std::string path = path_of(path_like);
  in_kokkos([&] { self.fm().save(path, self.sequences() ? &*self.sequences() : nullptr); });
}

// --- TextIndex --------------------------------------------------------------------------

class text_api {
 public:
  virtual ~text_api() = default;
  virtual std::uint64_t size() const = 0;
  virtual void suffix_array(void* out) = 0;
  virtual void inverse_suffix_array(void* out) = 0;
  virtual void lcp(void* out) = 0;
  virtual std::uint64_t bwt(std::uint8_t* out) = 0;
  virtual std::unique_ptr<fm_api> fm_index(const fm_options& options) = 0;
  virtual std::size_t bytes() const = 0;
  virtual void release(index_part part) = 0;
};

template <class Space, class I>
class typed_text final : public text_api {
 public:
  typed_text(const Space& space, const std::uint8_t* text, std::uint64_t n, const sa_options& options)
      : index_(space, text, n, options) {}
  std::uint64_t size() const override { return index_.size(); }
  void suffix_array(void* out) override { to_host(index_.suffix_array(), out); }
  void inverse_suffix_array(void* out) override { to_host(index_.inverse_suffix_array(), out); }
  void lcp(void* out) override { to_host(index_.lcp(), out); }
  std::uint64_t bwt(std::uint8_t* out) override {
    const auto l = index_.bwt();
    strix::copy(index_.space(), host_view<std::uint8_t>(out, l.extent(0)), l);
    index_.space().fence();
    return index_.bwt_primary();
  }
  std::unique_ptr<fm_api> fm_index(const fm_options& options) override {
    index_.release(index_part::fm_index);  // built again with these options
    return std::make_unique<typed_fm<Space, I>>(index_.fm_index(options));
  }
  std::size_t bytes() const override { return index_.bytes(); }
  void release(index_part part) override { index_.release(part); }

 private:
  template <class V>
  void to_host(const V& v, void* out) {
    strix::copy(index_.space(), host_view<I>(static_cast<I*>(out), v.extent(0)), v);
    index_.space().fence();
  }
  text_index<Space, I> index_;
};

class py_text_index final : public resident {
 public:
  py_text_index(const py::object& text, const std::string& algorithm, const opt_backend& backend,
                const std::optional<int>& width) {
    const auto t = bytes_of(text, "text");
    const auto options = parse_sa_options(algorithm);
    backend_ = parse_backend(backend);
    width_ = choose_width(t.size, width);
    in_kokkos([&] {
      index_ = on_backend_and_width(backend_, width_, [&](auto space, auto index) -> std::unique_ptr<text_api> {
        return std::make_unique<typed_text<decltype(space), decltype(index)>>(space, t.data, t.size, options);
      });
    });
  }
  ~py_text_index() override { release_in_destructor(); }
  void release() override { index_.reset(); }

  text_api& index() const {
    if (!index_) throw error(error_code::invalid_input, "the TextIndex was released (the interpreter is exiting)");
    return *index_;
  }
  backend_id backend() const { return backend_; }
  int width() const { return width_; }

  // An array of n entries of the index type, filled by `fill` inside a Kokkos call.
  template <class F>
  py::array index_array(F&& fill) const {
    const std::uint64_t n = index().size();
    py::array out = width_ == 64 ? py::array(py::array_t<std::uint64_t>(n)) : py::array(py::array_t<std::uint32_t>(n));
    void* data = out.mutable_data();
    in_kokkos([&] {
      fill(index(), data);
    });
    return out;
  }

 private:
  std::unique_ptr<text_api> index_;
  backend_id backend_ = backend_id::serial;
  int width_ = 32;
};

index_part part_named(const std::string& name) {
  for (std::size_t p = 0; p < index_part_count; ++p)
    if (name == index_parts[p].name) return index_part(p);
  std::string names;
  for (std::size_t p = 0; p < index_part_count; ++p) names += (p ? ", " : "") + std::string(index_parts[p].name);
  throw py::value_error("no index part '" + name + "' (parts: " + names + ")");
}

}  // namespace

void add_indexes(py::module_& m) {
  using namespace py::literals;
  py::class_<py_fm_index>(m, "FMIndex",
                          "An FM-index held on its backend: count, locate and extract of byte patterns in batches.\n"
                          "Conventions: overlapping occurrences count; the empty pattern occurs at each of the n + 1\n"
                          "positions 0..n; a pattern longer than the text or with an absent symbol occurs nowhere.")
      .def_static("build", &build_fm, "text"_a, py::kw_only(), "sample_rate"_a = 32, "extract"_a = true,
                  "backend"_a = py::none(), "width"_a = py::none(), "approximate"_a = false,
                  "Builds the FM-index of `text`: bytes-like, or a path whose bytes are the text (raw: for a FASTA\n"
                  "reference, `strix index ref.fa -o ref.idx` then FMIndex.load). sample_rate: a suffix-array sample\n"
                  "every that many positions (locate takes fewer LF steps than that per occurrence); extract=False\n"
                  "leaves out extract's samples; approximate=True also indexes the reversed text (for search).")
      .def_static("build_reference", &build_reference, "sequences"_a, py::kw_only(), "sample_rate"_a = 32,
                  "extract"_a = true, "backend"_a = py::none(), "width"_a = py::none(), "approximate"_a = false,
                  "Builds the FM-index of a reference of named sequences (a dict name -> bytes-like, or (name,\n"
                  "sequence) pairs; no newline inside a sequence), joined as `strix index ref.fa` joins a FASTA\n"
                  "file's: no pattern matches across two of them; positions map back with resolve().")
      .def_static("load", &load_fm, "path"_a, py::kw_only(), "backend"_a = py::none(),
                  "Loads an index file (strix index, FMIndex.save); a damaged or foreign file is a ValueError.")
      .def("save", &fm_save, "path"_a, "Saves the index (strix's index container).")
      .def("count", &fm_count, "patterns"_a, "offsets"_a = py::none(),
           "Occurrences of each pattern (a uint64 array). patterns: a sequence of bytes-like or str (UTF-8), or\n"
           "one bytes-like buffer with offsets=[0, ..., len(buffer)] (pattern q is buffer[offsets[q]:offsets[q+1]]).")
      .def("locate", &fm_locate, "patterns"_a, "offsets"_a = py::none(), py::kw_only(), "max_occ"_a = py::none(),
           "flat"_a = false,
           "Where each pattern occurs, ascending: a list of uint64 arrays, or with flat=True (positions, starts,\n"
           "counts), pattern q's at positions[starts[q]:starts[q+1]] and counts[q] its full count. max_occ keeps at\n"
           "most that many per pattern (the first rows of its interval, sorted).")
      .def("search", &fm_search, "patterns"_a, "offsets"_a = py::none(), py::kw_only(), "k"_a = 1,
           "distance"_a = "hamming", "scheme"_a = "default", "flat"_a = false,
           "Every start position where each read matches within k errors (0 to 6), at its smallest distance,\n"
           "ascending: a list of (positions uint64, distances uint8) pairs, or with flat=True (positions,\n"
           "distances, starts), read q's at [starts[q], starts[q+1]). distance: 'hamming' (text[p, p + m) within\n"
           "k substitutions) or 'edit' (some text[p, e) within edit distance k). scheme: 'default', 'kucherov',\n"
           "'kianfar', '01*0' or 'pigeonhole'. Needs an index built with approximate=True (or a file of\n"
           "`strix index --approximate`). patterns as for count.")
      .def("extract", &fm_extract, "start"_a, "length"_a, "The text's bytes [start, start + length).")
      .def("resolve", &fm_resolve, "positions"_a,
           "A reference's text positions as (sequence numbers, offsets within them): two uint64 arrays.")
      .def("__len__", [](const py_fm_index& s) { return s.fm().size(); })
      .def_property_readonly("size", [](const py_fm_index& s) { return s.fm().size(); }, "The text's length n.")
      .def_property_readonly("sample_rate", [](const py_fm_index& s) { return s.fm().sample_rate(); })
      .def_property_readonly("can_extract", [](const py_fm_index& s) { return s.fm().can_extract(); })
      .def_property_readonly("approximate", [](const py_fm_index& s) { return s.fm().approximate(); },
                             "Whether the index holds the reversed text's index too (search).")
      .def_property_readonly("layout", [](const py_fm_index& s) { return std::string(s.fm().layout()); },
                             "'occurrence_table', 'huffman_tree' or 'wavelet_matrix': the rank structure the text got.")
      .def_property_readonly("kmer_length", [](const py_fm_index& s) { return s.fm().kmer_length(); })
      .def_property_readonly("nbytes", [](const py_fm_index& s) { return s.fm().bytes(); }, "Bytes the index holds.")
      .def_property_readonly("backend", [](const py_fm_index& s) { return std::string(backend_name(s.backend())); })
      .def_property_readonly("width", &py_fm_index::width, "Bits per position: 32 or 64.")
      .def_property_readonly(
          "sequences",
          [](const py_fm_index& s) -> py::object {
            if (!s.sequences()) return py::none();
            py::list out;
            const auto& r = *s.sequences();
            for (std::size_t k = 0; k < r.size(); ++k) out.append(py::make_tuple(r.names[k], r.starts[k], r.lengths[k]));
            return out;
          },
          "A reference's sequences (name, start, length), in text order, or None for a plain text.");

  py::class_<py_text_index>(m, "TextIndex",
                            "A text held on its backend, and its indexes built on first use and kept: the suffix\n"
                            "array, its inverse, the LCP array, the BWT and the FM-index. Properties return copies.")
      .def(py::init<const py::object&, const std::string&, const opt_backend&, const std::optional<int>&>(), "text"_a,
           py::kw_only(), "algorithm"_a = "auto", "backend"_a = py::none(), "width"_a = py::none())
      .def("__len__", [](const py_text_index& s) { return s.index().size(); })
      .def_property_readonly("suffix_array", [](const py_text_index& s) {
        return s.index_array([](text_api& t, void* out) { t.suffix_array(out); });
      })
      .def_property_readonly("inverse_suffix_array", [](const py_text_index& s) {
        return s.index_array([](text_api& t, void* out) { t.inverse_suffix_array(out); });
      })
      .def_property_readonly("lcp", [](const py_text_index& s) {
        return s.index_array([](text_api& t, void* out) { t.lcp(out); });
      })
      .def_property_readonly(
          "bwt",
          [](const py_text_index& s) {
            py::array_t<std::uint8_t> out(s.index().size());
            std::uint8_t* data = out.mutable_data();
            std::uint64_t primary = 0;
            in_kokkos([&] {
              primary = s.index().bwt(data);
            });
            return py::make_tuple(out, primary);
          },
          "(the BWT in divbwt layout, its primary index)")
      .def(
          "fm_index",
          [](const py_text_index& s, std::uint64_t sample_rate, bool extract) {
            std::unique_ptr<fm_api> fm;
            in_kokkos([&] {
              fm = s.index().fm_index(fm_options_of(sample_rate, extract));
            });
            return std::make_unique<py_fm_index>(std::move(fm), s.backend(), s.width(), std::nullopt);
          },
          py::kw_only(), "sample_rate"_a = 32, "extract"_a = true,
          "The text's FM-index (built from its suffix array and BWT, which are released after if built for it).")
      .def(
          "release",
          [](const py_text_index& s, const std::string& part) {
            const auto which = part_named(part);
            in_kokkos([&] { s.index().release(which); });
          },
          "part"_a, "Frees one part: 'suffix_array', 'lcp', 'bwt', ... (the text stays).")
      .def_property_readonly(
          "nbytes",
          [](const py_text_index& s) {
            std::size_t bytes = 0;
            in_kokkos([&] { bytes = s.index().bytes(); });
            return bytes;
          },
          "Bytes held on the backend (the text and every part built).")
      .def_property_readonly("backend", [](const py_text_index& s) { return std::string(backend_name(s.backend())); })
      .def_property_readonly("width", &py_text_index::width);
}

}  // namespace strix::python
