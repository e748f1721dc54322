// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The parts of the Python module `strix`, each adding its functions and classes.
#include <pybind11/pybind11.h>

namespace strix::python {

void add_functions(pybind11::module_& m);   // functions.cpp
void add_indexes(pybind11::module_& m);     // indexes.cpp: TextIndex, FMIndex
void add_wavelets(pybind11::module_& m);    // wavelets.cpp: WaveletTree, WaveletMatrix

}  // namespace strix::python
