// SPDX-License-Identifier: BSD-3-Clause
// strix.WaveletTree and strix.WaveletMatrix over uint8, uint16 or uint32 symbols: built on
// the backend, queried with arrays (or scalars), saved and loaded. Each Python class holds
// one of the (symbol, index width, backend) instantiations behind a small interface.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include <strix/io/container.hpp>
#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>

#include "arrays.hpp"
#include "module.hpp"
#include "runtime.hpp"

namespace strix::python {

namespace {

using opt_backend = std::optional<std::string>;

class wavelet_api {
 public:
  virtual ~wavelet_api() = default;
  virtual std::uint64_t size() const = 0;
  virtual std::uint64_t sigma() const = 0;
  virtual int levels() const = 0;
  virtual std::size_t bytes() const = 0;
  // Typed by the instantiation: positions and answers of its index type, symbols of its own.
  virtual void access(const void* positions, std::size_t m, void* symbols) const = 0;
  virtual void rank(const void* symbols, const void* positions, std::size_t m, void* out) const = 0;
  virtual void select(const void* symbols, const void* ks, std::size_t m, void* out) const = 0;
  virtual void save(const std::string& path) const = 0;
};

template <class W>
class typed_wavelet final : public wavelet_api {
  using Symbol = typename W::symbol_type;
  using I = typename W::index_type;

 public:
  explicit typed_wavelet(W w) : w_(std::move(w)) {}
  std::uint64_t size() const override { return w_.size(); }
  std::uint64_t sigma() const override { return w_.alphabet_size(); }
  int levels() const override { return w_.levels(); }
  std::size_t bytes() const override { return w_.bytes(); }
  void access(const void* positions, std::size_t m, void* symbols) const override {
    w_.access(static_cast<const I*>(positions), m, static_cast<Symbol*>(symbols));
  }
  void rank(const void* symbols, const void* positions, std::size_t m, void* out) const override {
    w_.rank(static_cast<const Symbol*>(symbols), static_cast<const I*>(positions), m, static_cast<I*>(out));
  }
  void select(const void* symbols, const void* ks, std::size_t m, void* out) const override {
    w_.select(static_cast<const Symbol*>(symbols), static_cast<const I*>(ks), m, static_cast<I*>(out));
  }
  void save(const std::string& path) const override {
    io::write_file(path, [&](const io::container_writer::sink& out) { save_wavelet(w_, out); });
  }

 private:
  W w_;
};

// f(symbol zero) for a symbol width of 1, 2 or 4 bytes.
template <class F>
decltype(auto) on_symbol(int symbol_bytes, F&& f) {
  if (symbol_bytes == 1) return f(std::uint8_t(0));
  if (symbol_bytes == 2) return f(std::uint16_t(0));
  return f(std::uint32_t(0));
}

template <wavelet_shape Shape>
class py_wavelet final : public resident {
 public:
  py_wavelet(std::unique_ptr<wavelet_api> w, backend_id b, int width, int symbol_bytes)
      : w_(std::move(w)), backend_(b), width_(width), symbol_bytes_(symbol_bytes) {}
  ~py_wavelet() override { release_in_destructor(); }
  void release() override { w_.reset(); }

  static std::unique_ptr<py_wavelet> build(const py::object& seq, const opt_backend& backend, const std::optional<int>& width) {
    const auto s = symbols_of(seq, "seq");
    const auto b = parse_backend(backend);
    const int w = choose_width(s.size(), width);
    const void* data = s.array.data();
    const std::size_t n = s.size();
    std::unique_ptr<wavelet_api> made;
    in_kokkos([&] {
      made = on_backend_and_width(b, w, [&](auto space, auto index) {
        return on_symbol(s.symbol_bytes, [&](auto symbol) -> std::unique_ptr<wavelet_api> {
          using W = wavelet<decltype(space), decltype(symbol), decltype(index), Shape>;
          return std::make_unique<typed_wavelet<W>>(W::from_host(space, static_cast<const decltype(symbol)*>(data), n));
        });
      });
    });
    return std::make_unique<py_wavelet>(std::move(made), b, w, s.symbol_bytes);
  }

  static std::unique_ptr<py_wavelet> load(const py::object& path_like, const opt_backend& backend) {
    const std::string path = path_of(path_like);
    const auto b = parse_backend(backend);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(error_code::io_error, "cannot read '" + path + "'");
    const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t at = 0;
    const byte_reader read = [&](void* out, std::size_t want) {
      const std::size_t got = std::min(want, bytes.size() - at);
      std::memcpy(out, bytes.data() + at, got);
      at += got;
      return got;
    };
    const auto info = read_wavelet_info(read);
    if (info.shape != Shape)
      throw error(error_code::invalid_input, std::string("the file holds a wavelet ") +
                                                 (info.shape == wavelet_shape::tree ? "tree" : "matrix") + ", not a " +
                                                 (Shape == wavelet_shape::tree ? "tree" : "matrix"));
    const int w = choose_width(info.n, std::nullopt);
    std::unique_ptr<wavelet_api> made;
    in_kokkos([&] {
      made = on_backend_and_width(b, w, [&](auto space, auto index) {
        return on_symbol(info.symbol_bytes, [&](auto symbol) -> std::unique_ptr<wavelet_api> {
          using W = wavelet<decltype(space), decltype(symbol), decltype(index), Shape>;
          return std::make_unique<typed_wavelet<W>>(load_wavelet<W>(space, info, read));
        });
      });
    });
    return std::make_unique<py_wavelet>(std::move(made), b, w, info.symbol_bytes);
  }

  const wavelet_api& w() const {
    if (!w_) throw error(error_code::invalid_input, "the wavelet structure was released (the interpreter is exiting)");
    return *w_;
  }
  int width() const { return width_; }
  int symbol_bytes() const { return symbol_bytes_; }
  backend_id backend() const { return backend_; }

  // Arguments of the index type, symbols of the structure's: arrays, or scalars (then the
  // answer is a scalar).
  py::array positions_of(const py::handle& obj, const char* what) const {
    if (width_ == 64) return integers_of<std::uint64_t>(obj, what);
    return integers_of<std::uint32_t>(obj, what);
  }
  py::array symbols_arg(const py::handle& obj) const {
    if (symbol_bytes_ == 4) return integers_of<std::uint32_t>(obj, "symbols");
    py::array a = integers_of<std::uint32_t>(obj, "symbols");
    const std::uint64_t largest = symbol_bytes_ == 1 ? 0xff : 0xffff;
    if (a.size() > 0 && py::int_(a.attr("max")()).cast<std::uint64_t>() > largest)
      throw py::value_error("symbols beyond " + std::to_string(8 * symbol_bytes_) + " bits");
    return a.attr("astype")(symbol_bytes_ == 1 ? "uint8" : "uint16");
  }
  py::array answers(std::size_t m, bool symbols) const {
    const int bytes = symbols ? symbol_bytes_ : width_ / 8;
    if (bytes == 1) return py::array_t<std::uint8_t>(m);
    if (bytes == 2) return py::array_t<std::uint16_t>(m);
    if (bytes == 4) return py::array_t<std::uint32_t>(m);
    return py::array_t<std::uint64_t>(m);
  }

 private:
  std::unique_ptr<wavelet_api> w_;
  backend_id backend_;
  int width_, symbol_bytes_;
};

// A scalar argument as a 1-element array, and whether the caller gave scalars.
py::object as_array(const py::object& x, bool& scalar) {
  scalar = py::isinstance<py::int_>(x) || (py::isinstance<py::array>(x) && py::reinterpret_borrow<py::array>(x).ndim() == 0);
  if (!scalar) return x;
  return py::module_::import("numpy").attr("atleast_1d")(x);
}
py::object result(const py::array& out, bool scalar) { return scalar ? py::object(out.attr("item")(0)) : py::object(out); }

template <wavelet_shape Shape>
void add_wavelet_class(py::module_& m, const char* name, const char* doc) {
  using namespace py::literals;
  using W = py_wavelet<Shape>;
  py::class_<W>(m, name, doc)
      .def(py::init(&W::build), "seq"_a, py::kw_only(), "backend"_a = py::none(), "width"_a = py::none())
      .def_static("load", &W::load, "path"_a, py::kw_only(), "backend"_a = py::none(),
                  "Loads a saved structure of this shape (strix wt build, save()).")
      .def(
          "save",
          [](const W& self, const py::object& path_like) {
            const std::string path = path_of(path_like);
            in_kokkos([&] { self.w().save(path); });
          },
          "path"_a, "Saves the structure (strix's index container, kind 'wavelet').")
      .def(
          "access",
          [](const W& self, const py::object& positions) {
            bool scalar = false;
            const auto i = self.positions_of(as_array(positions, scalar), "positions");
            auto out = self.answers(std::size_t(i.size()), true);
            void* data = out.mutable_data();
            in_kokkos([&] {
              self.w().access(i.data(), std::size_t(i.size()), data);
            });
            return result(out, scalar);
          },
          "positions"_a, "seq[i] for each position 0 <= i < n.")
      .def(
          "rank",
          [](const W& self, const py::object& symbols, const py::object& positions) {
            bool scalar_c = false, scalar_i = false;
            const auto c = self.symbols_arg(as_array(symbols, scalar_c));
            const auto i = self.positions_of(as_array(positions, scalar_i), "positions");
            if (c.size() != i.size()) throw py::value_error("symbols and positions differ in length");
            auto out = self.answers(std::size_t(i.size()), false);
            void* data = out.mutable_data();
            in_kokkos([&] {
              self.w().rank(c.data(), i.data(), std::size_t(i.size()), data);
            });
            return result(out, scalar_c && scalar_i);
          },
          "symbols"_a, "positions"_a, "Occurrences of symbol c in seq[0:i], for 0 <= i <= n.")
      .def(
          "select",
          [](const W& self, const py::object& symbols, const py::object& ks) {
            bool scalar_c = false, scalar_k = false;
            const auto c = self.symbols_arg(as_array(symbols, scalar_c));
            const auto k = self.positions_of(as_array(ks, scalar_k), "ks");
            if (c.size() != k.size()) throw py::value_error("symbols and ks differ in length");
            auto out = self.answers(std::size_t(k.size()), false);
            void* data = out.mutable_data();
            in_kokkos([&] {
              self.w().select(c.data(), k.data(), std::size_t(k.size()), data);
            });
            return result(out, scalar_c && scalar_k);
          },
          "symbols"_a, "ks"_a, "The 0-based position of the k-th occurrence of c (k >= 1), or n when c occurs fewer times.")
      .def("__len__", [](const W& s) { return s.w().size(); })
      .def_property_readonly("size", [](const W& s) { return s.w().size(); })
      .def_property_readonly("alphabet_size", [](const W& s) { return s.w().sigma(); })
      .def_property_readonly("levels", [](const W& s) { return s.w().levels(); })
      .def_property_readonly("nbytes", [](const W& s) { return s.w().bytes(); })
      .def_property_readonly("dtype", [](const W& s) {
        return py::dtype(s.symbol_bytes() == 1 ? "uint8" : s.symbol_bytes() == 2 ? "uint16" : "uint32");
      })
      .def_property_readonly("width", &W::width)
      .def_property_readonly("backend", [](const W& s) { return std::string(backend_name(s.backend())); });
}

}  // namespace

void add_wavelets(py::module_& m) {
  add_wavelet_class<wavelet_shape::tree>(
      m, "WaveletTree",
      "A wavelet tree of a sequence of uint8, uint16 or uint32 symbols (bytes-like: uint8), held on its backend:\n"
      "access, rank and select on arrays or scalars.");
  add_wavelet_class<wavelet_shape::matrix>(m, "WaveletMatrix",
                                           "A wavelet matrix; the same interface as WaveletTree.");
}

}  // namespace strix::python
