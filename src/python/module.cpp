// SPDX-License-Identifier: BSD-3-Clause
// The Python module `strix`: strix's suffix arrays, BWT, LCP, longest repeats, wavelet
// trees and matrices and FM-index on NumPy arrays (README, "Python").
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <new>

#include <strix/config.hpp>
#include <strix/error.hpp>

#include "module.hpp"
#include "runtime.hpp"

PYBIND11_MODULE(strix, m) {
  namespace py = pybind11;
  using namespace strix::python;
  m.doc() =
      "strix: suffix arrays, BWT, LCP, longest repeats, wavelet trees and matrices and the FM-index, built and\n"
      "queried on a GPU (CUDA builds) or the host (OpenMP, Serial), on bytes and NumPy arrays. Kokkos starts on\n"
      "the first call (threads: strix.set_threads, else OMP_NUM_THREADS) and stops at exit. Calls release the GIL;\n"
      "the module runs one call at a time on its backends.";
  m.attr("__version__") = STRIX_VERSION_STRING;
  // strix's errors as Python's: bad input ValueError, memory MemoryError, files OSError.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const strix::error& e) {
      switch (e.code()) {
        case strix::error_code::invalid_input: PyErr_SetString(PyExc_ValueError, e.what()); return;
        case strix::error_code::host_out_of_memory:
        case strix::error_code::device_out_of_memory: PyErr_SetString(PyExc_MemoryError, e.what()); return;
        case strix::error_code::io_error: PyErr_SetString(PyExc_OSError, e.what()); return;
        default: PyErr_SetString(PyExc_RuntimeError, e.what()); return;
      }
    }
  });
  m.def("backends", &backend_names, "The backends this build of strix has, the default first: 'cuda', 'openmp', 'serial'.");
  m.def("set_threads", &set_threads, py::arg("threads"),
        "The number of threads host backends use; only before strix's first call (Kokkos starts then).");
  add_functions(m);
  add_indexes(m);
  add_wavelets(m);
}
