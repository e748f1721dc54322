// SPDX-License-Identifier: BSD-3-Clause
#include "arrays.hpp"

#include <limits>

namespace strix::python {

namespace {

std::string type_name(const py::handle& obj) { return py::str(py::type::handle_of(obj).attr("__name__")); }
std::string dtype_name(const py::dtype& d) { return py::str(static_cast<const py::handle&>(d)); }

}  // namespace

std::string path_of(const py::handle& obj) { return py::str(py::module_::import("os").attr("fspath")(obj)); }

byte_span bytes_of(const py::handle& obj, const char* what) {
  if (py::isinstance<py::str>(obj))
    throw py::type_error(std::string(what) + " must be bytes-like (encode a str first, e.g. s.encode())");
  if (!PyObject_CheckBuffer(obj.ptr()))
    throw py::type_error(std::string(what) + " must be bytes, bytearray, memoryview or a 1-D uint8 array, not " +
                         type_name(obj));
  auto buffer = py::reinterpret_borrow<py::buffer>(obj);
  const py::buffer_info info = buffer.request();
  if (info.itemsize != 1 || (info.format != "B" && info.format != "b" && info.format != "c"))
    throw py::type_error(std::string(what) + " must hold bytes (uint8), not items of format '" + info.format + "'");
  if (info.ndim != 1) throw py::value_error(std::string(what) + " must be 1-D, not " + std::to_string(info.ndim) + "-D");
  byte_span s;
  s.size = std::size_t(info.shape[0]);
  if (info.strides[0] == 1 || s.size <= 1) {
    s.data = static_cast<const std::uint8_t*>(info.ptr);
    s.owner = py::reinterpret_borrow<py::object>(obj);
  } else {  // a strided view or array: one contiguous copy
    py::array copy = py::module_::import("numpy").attr("ascontiguousarray")(obj).attr("view")("uint8");
    s.data = static_cast<const std::uint8_t*>(copy.data());
    s.owner = copy;
  }
  return s;
}

symbol_span symbols_of(const py::handle& obj, const char* what) {
  symbol_span s;
  if (!py::isinstance<py::array>(obj)) {  // bytes-like: 8-bit symbols
    const auto b = bytes_of(obj, what);
    s.array = py::array_t<std::uint8_t>(b.size, b.data, b.owner);
    s.symbol_bytes = 1;
    return s;
  }
  auto a = py::reinterpret_borrow<py::array>(obj);
  if (a.ndim() != 1) throw py::value_error(std::string(what) + " must be 1-D, not " + std::to_string(a.ndim()) + "-D");
  const auto dtype = a.dtype();
  if (dtype.kind() != 'u' || (dtype.itemsize() != 1 && dtype.itemsize() != 2 && dtype.itemsize() != 4))
    throw py::type_error(std::string(what) + " must be an array of uint8, uint16 or uint32 symbols, not " +
                         dtype_name(dtype));
  s.symbol_bytes = int(dtype.itemsize());
  s.array = py::array::ensure(a, py::array::c_style);
  return s;
}

template <class T>
py::array_t<T, py::array::c_style> integers_of(const py::handle& obj, const char* what) {
  py::array a = py::array::ensure(obj);
  if (!a) throw py::type_error(std::string(what) + " must be an array of integers");
  if (a.ndim() != 1) throw py::value_error(std::string(what) + " must be 1-D, not " + std::to_string(a.ndim()) + "-D");
  const auto dtype = a.dtype();
  if (dtype.kind() != 'u' && dtype.kind() != 'i')
    throw py::type_error(std::string(what) + " must be an array of integers, not " + dtype_name(dtype));
  if (dtype.is(py::dtype::of<T>())) return py::array_t<T, py::array::c_style>::ensure(a);
  if (a.size() > 0) {
    if (dtype.kind() == 'i' && py::bool_(a.attr("min")() < py::int_(0)))
      throw py::value_error(std::string(what) + " holds negative values");
    if (py::bool_(a.attr("max")() > py::int_(std::numeric_limits<T>::max())))
      throw py::value_error(std::string(what) + " holds values beyond " + std::to_string(8 * sizeof(T)) + " bits");
  }
  return py::array_t<T, py::array::c_style>::ensure(a.attr("astype")(py::dtype::of<T>()));
}

template py::array_t<std::uint32_t, py::array::c_style> integers_of<std::uint32_t>(const py::handle&, const char*);
template py::array_t<std::uint64_t, py::array::c_style> integers_of<std::uint64_t>(const py::handle&, const char*);

}  // namespace strix::python
